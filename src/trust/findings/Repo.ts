/** SQL of Trust_ListAgentFindings: an agent's findings (`agent_findings`, migration 0051) in id order. */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AgentFinding } from "./Schemas.js"

/** The keyset position of a finding: its id (time-ordered). */
export const FindingPosition = Schema.String

const FindingRow = Schema.Struct({ ...AgentFinding.fields, evidence: Schema.parseJson(AgentFinding.fields.evidence) })

export class AgentFindingsRepo extends Effect.Service<AgentFindingsRepo>()("agent-directory/AgentFindingsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      /** True when agent `agentId` exists. */
      agentExists: (agentId: string) =>
        Effect.map(sql<{ id: string }>`SELECT id FROM agents WHERE id = ${agentId}`, (rows) => rows.length > 0),
      /** Up to `take` findings of `agentId` after id `after` (of `kind` when given), in id order. */
      list: (agentId: string, kind: string | undefined, after: string | undefined, take: number) =>
        sql`SELECT id, agent_id AS "agentId", kind, rule_id AS "ruleId", severity, subject, connection_id AS "connectionId",
              jsonb_build_object('pointer', COALESCE(evidence->>'pointer', ''), 'match', COALESCE(evidence->>'match', ''))::text AS evidence,
              before_digest AS "beforeDigest", after_digest AS "afterDigest",
              api_ts(detected_at) AS "detectedAt", api_ts(seen_at) AS "seenAt"
            FROM agent_findings
            WHERE agent_id = ${agentId}
              ${kind === undefined ? sql`` : sql`AND kind = ${kind}`}
              ${after === undefined ? sql`` : sql`AND id > ${after}`}
            ORDER BY id LIMIT ${take}`.pipe(Effect.flatMap(Schema.decodeUnknown(Schema.Array(FindingRow))), Effect.orDie)
    }
  })
}) {}
