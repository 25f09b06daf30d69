/** Inserts the analytics and activity demo data (demo/social/analytics/data.ts). Fails with `SqlError`. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { canonicalJson } from "../../../layers/CanonicalJson.js"
import { DemoActivity, DemoAvailableExportFile, DemoContextClaims, DemoExports, DemoProductEvents } from "./data.js"
import { DemoAccounts } from "../../accounts/seed.js"
import { DemoAgents } from "../../agents/seed.js"
import { DemoNetworks, demoTime } from "../../common.js"

export const seedAnalytics = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO agent_activity ${
    sql.insert(DemoActivity.map((a) => ({
      id: a.id,
      agent_id: a.agent,
      activity_key: a.key,
      event_version: a.version,
      summary: a.summary,
      source_kind: a.kind,
      network_id: a.network === null ? null : DemoNetworks[a.network].id,
      transaction_reference: a.tx,
      explorer_url: a.explorer,
      evidence_public_id: a.evidence,
      occurred_at: a.at
    })))
  }`
  for (const e of DemoProductEvents) {
    // the digest the ingestion computes (src/social/analytics/Analytics.ts), so a resent demo event is a duplicate
    const digest = createHash("sha256")
      .update(canonicalJson({ agentId: e.agent, name: e.name, occurredAt: e.at.toISOString(), properties: e.properties }))
      .digest("hex")
    yield* sql`INSERT INTO product_events (event_id, agent_id, name, category, occurred_at, properties, subject, digest, receipt_id, received_at)
      VALUES (${e.id}, ${e.agent}, ${e.name}, ${e.name.split(".")[0]!}, ${e.at}, ${JSON.stringify(e.properties)}::jsonb,
              ${DemoContextClaims.sub}, ${digest}, ${e.id}, ${e.at})`
  }
  for (const [i, x] of Object.values(DemoExports).entries()) {
    const created = demoTime(140, i)
    const done = x.state === "REQUESTED" ? null : demoTime(140, i + 10)
    yield* sql`INSERT INTO analytics_exports (id, agent_id, requested_by, export_type, range_from, range_to, format, state,
        row_count, file_content, error_code, expires_at, created_at, completed_at)
      VALUES (${x.id}, ${DemoAgents[0].id}, ${DemoAccounts.owner.id}, ${x.type}, ${x.from}::date, ${x.to}::date,
        ${x.format}, ${x.state}, ${x.rowCount}, ${x.state === "AVAILABLE" ? Buffer.from(DemoAvailableExportFile) : null},
        ${x.error}, ${demoTime(600)}, ${created}, ${done})`
  }
})
