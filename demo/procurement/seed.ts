/**
 * Demo procurement (spec §2.6): the `demo-issuer` provider configured for Atlas
 * Research (not for Echo Support), and intents of Acme in the states
 * Procurement_ResumeProcurementIntent meets.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAgents } from "../agents/seed.js"
import { demoId, demoTime } from "../common.js"
import { DemoWorkspaces } from "../workspaces/seed.js"

/** Far enough ahead that the demo stays usable with the real clock (`npm start`). */
const future = new Date("2030-01-01T00:00:00.000Z")

const intent = (n: number, i: {
  readonly workspace: keyof typeof DemoWorkspaces
  readonly agent: number
  readonly state: string
  readonly expiresAt: Date
  readonly continuationExpiresAt: Date | null
  readonly issued: boolean
}) => ({
  id: demoId(0x83, n),
  continuationId: i.continuationExpiresAt === null ? null : demoId(0x84, n),
  instrumentId: i.issued ? demoId(0x85, n) : null,
  day: 70 + n,
  ...i
})

/** Agents with a procurement provider: [agent index, provider]. Echo Support (4) has none. */
export const DemoProcurementProviders = [[0, "demo-issuer"], [1, "demo-issuer"]] as const

export const DemoProcurementIntents = {
  /** Waiting for the buyer, continuation valid: resuming issues the instrument (demo manifest). */
  waiting: intent(1, { workspace: "acme", agent: 0, state: "AWAITING_BUYER", expiresAt: future, continuationExpiresAt: future, issued: false }),
  /** Waiting, but the buyer let the continuation expire: resuming hands out a new continuation. */
  staleContinuation: intent(2, { workspace: "acme", agent: 1, state: "AWAITING_BUYER", expiresAt: future, continuationExpiresAt: demoTime(75), issued: false }),
  /** Waiting, but past its expiresAt: 409. */
  expired: intent(3, { workspace: "acme", agent: 0, state: "AWAITING_BUYER", expiresAt: demoTime(80), continuationExpiresAt: demoTime(74), issued: false }),
  /** Marked EXPIRED by the provider: 409. */
  markedExpired: intent(4, { workspace: "acme", agent: 0, state: "EXPIRED", expiresAt: demoTime(81), continuationExpiresAt: null, issued: false }),
  /** Instrument already issued: 409 (nothing to resume). */
  issued: intent(5, { workspace: "acme", agent: 0, state: "INSTRUMENT_ISSUED", expiresAt: future, continuationExpiresAt: null, issued: true }),
  /** For Echo Support, which has no provider configured: 422. */
  unconfigured: intent(6, { workspace: "acme", agent: 4, state: "AWAITING_BUYER", expiresAt: future, continuationExpiresAt: future, issued: false }),
  /** In the outsider's workspace: invisible to Acme members. */
  foreign: intent(7, { workspace: "outsider", agent: 0, state: "AWAITING_BUYER", expiresAt: future, continuationExpiresAt: future, issued: false })
} as const
export type DemoProcurementIntentName = keyof typeof DemoProcurementIntents

/** Inserts the demo provider configuration and procurement intents. Fails with `SqlError`. */
export const seedProcurement = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO procurement_providers ${
    sql.insert(DemoProcurementProviders.map(([agent, provider]) => ({
      agent_id: DemoAgents[agent].id,
      provider,
      configured_at: demoTime(65)
    })))
  }`
  yield* sql`INSERT INTO procurement_intents ${
    sql.insert(Object.values(DemoProcurementIntents).map((i) => ({
      id: i.id,
      workspace_id: DemoWorkspaces[i.workspace].id,
      agent_id: DemoAgents[i.agent].id,
      state: i.state,
      amount_minor: String(1_250 * i.day),
      currency: "USD",
      purpose: `Research data purchase #${i.day}`,
      merchant: i.agent === 1 ? null : "Data Vendor Inc.",
      merchant_url: i.agent === 1 ? null : "https://vendor.example/checkout",
      expires_at: i.expiresAt,
      policy_version: 1,
      provider: "demo-issuer",
      provider_request_id: `demo-${i.id}`,
      instrument: i.instrumentId === null ? null : JSON.stringify({
        publicId: i.instrumentId,
        state: "ACTIVE",
        last4: "4242",
        expiresAt: i.expiresAt.toISOString()
      }),
      continuation: i.continuationId === null || i.continuationExpiresAt === null ? null : JSON.stringify({
        publicId: i.continuationId,
        actionUrl: `https://issuer.demo.agent-directory.dev/continue/${i.continuationId}`,
        expiresAt: i.continuationExpiresAt.toISOString()
      }),
      created_at: demoTime(i.day),
      updated_at: demoTime(i.day, 1)
    })))
  }`
})
