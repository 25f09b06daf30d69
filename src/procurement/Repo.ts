/**
 * SQL of the Procurement area: procurement intents (spec §2.6) and the provider
 * configured per agent. Intents are read in the wire shape of `ProcurementIntent`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ProcurementContinuation, ProcurementInstrument, ProcurementIntent } from "../../schema/procurement.js"


/** An intent as seen by one account, locked for the command; `role` null: not an ACTIVE member. */
export const IntentForUpdate = Schema.Struct({
  intent: ProcurementIntent,
  role: Schema.NullOr(Schema.String),
  /** The provider configured for the intent's agent, null when none is. */
  configuredProvider: Schema.NullOr(Schema.String)
})

const intentColumns = (sql: SqlClient.SqlClient) =>
  sql`json_build_object('publicId', i.id, 'state', i.state, 'amountMinor', i.amount_minor::text, 'currency', i.currency,
        'purpose', i.purpose, 'merchant', i.merchant, 'merchantUrl', i.merchant_url, 'expiresAt', api_ts(i.expires_at),
        'policyVersion', i.policy_version, 'provider', i.provider, 'providerRequestId', i.provider_request_id,
        'instrument', i.instrument, 'continuation', i.continuation,
        'createdAt', api_ts(i.created_at), 'updatedAt', api_ts(i.updated_at))`

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /**
   * The agent's intent with the caller's role and the agent's provider, locking the
   * intent row until the transaction ends (concurrent resumes wait, then see the
   * new state). None when the intent does not exist or belongs to another agent.
   */
  const lockForResume = SqlSchema.findOne({
    Request: Schema.Struct({ agentId: Schema.String, intentId: Schema.String, accountId: Schema.String }),
    Result: IntentForUpdate,
    execute: ({ accountId, agentId, intentId }) =>
      sql`SELECT ${intentColumns(sql)} AS intent, m.role, p.provider AS "configuredProvider"
          FROM procurement_intents i
          LEFT JOIN workspace_members m ON m.workspace_id = i.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
          LEFT JOIN procurement_providers p ON p.agent_id = i.agent_id
          WHERE i.id = ${intentId} AND i.agent_id = ${agentId}
          FOR UPDATE OF i`
  })

  /** Records the provider's answer: new state, provider request id, instrument and continuation. */
  const update = (r: {
    readonly id: string
    readonly state: string
    readonly providerRequestId: string
    readonly instrument: ProcurementInstrument | null
    readonly continuation: ProcurementContinuation | null
    readonly at: Date
  }) =>
    Effect.gen(function*() {
      const instrument = r.instrument === null ? null : JSON.stringify(yield* Schema.encode(ProcurementInstrument)(r.instrument))
      const continuation = r.continuation === null
        ? null
        : JSON.stringify(yield* Schema.encode(ProcurementContinuation)(r.continuation))
      yield* sql`UPDATE procurement_intents SET state = ${r.state}, provider_request_id = ${r.providerRequestId},
                   instrument = ${instrument}::jsonb, continuation = ${continuation}::jsonb, updated_at = ${r.at}
                 WHERE id = ${r.id}`
    })

  /** The intent in its wire shape. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ intent: ProcurementIntent }),
    execute: (id) => sql`SELECT ${intentColumns(sql)} AS intent FROM procurement_intents i WHERE i.id = ${id}`
  })

  return { lockForResume, update, findById } as const
})

/** SQL of the Procurement area. */
export class ProcurementRepo extends Effect.Service<ProcurementRepo>()("agent-directory/ProcurementRepo", { effect: make }) {}
