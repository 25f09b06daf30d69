/** SQL of bounty disputes and their resolution (spec §4.2 Jobs_ResolveBountyDispute). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"

/** A dispute with its bounty and the bounty's escrow. */
export const DisputeRow = Schema.Struct({
  disputeState: Schema.String,
  disputeVersion: Schema.Number,
  bountyState: Schema.String,
  bountyVersion: Schema.Number,
  workspaceId: Schema.String,
  escrowUnits: Schema.BigInt,
  network: Schema.String,
  contractAddress: Schema.String,
  walletId: Schema.String,
  payoutAddress: Schema.NullOr(Schema.String)
})
export type DisputeRow = typeof DisputeRow.Type

/** What an accepted resolution records. */
export interface ResolutionRecord {
  readonly commandId: string
  readonly auditEventId: string
  readonly transactionIntentId: string
  readonly bountyId: string
  readonly disputeId: string
  readonly actorAccountId: string
  readonly commandHash: string
  readonly decisionDigest: string
  readonly resolution: string
  readonly unitsToProvider: bigint
  readonly unitsToClient: bigint
  readonly reason: string
  readonly state: "RELEASE_PENDING" | "REFUND_PENDING"
  readonly at: Date
}

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The dispute `disputeId` of bounty `bountyId`, or none. */
  const findDispute = SqlSchema.findOne({
    Request: Schema.Struct({ bountyId: Schema.String, disputeId: Schema.String }),
    Result: DisputeRow,
    execute: ({ bountyId, disputeId }) =>
      sql`SELECT d.state AS "disputeState", d.version::float8 AS "disputeVersion", b.state AS "bountyState",
            b.version::float8 AS "bountyVersion", b.workspace_id AS "workspaceId", b.escrow_units::text AS "escrowUnits", b.escrow_network AS network,
            b.escrow_contract_address AS "contractAddress", b.escrow_wallet_id AS "walletId",
            b.payout_address AS "payoutAddress"
          FROM bounty_disputes d JOIN bounties b ON b.id = d.bounty_id
          WHERE d.id = ${disputeId} AND b.id = ${bountyId}`
  })

  /** Writes the audit event and the resolution row (the escrow transaction intent is `transactionIntentId`, already prepared). */
  const record = (r: ResolutionRecord) =>
    Effect.gen(function*() {
      const payout = { unitsToProvider: r.unitsToProvider.toString(), unitsToClient: r.unitsToClient.toString() }
      yield* sql`INSERT INTO admin_audit_events ${
        sql.insert({
          id: r.auditEventId,
          actor_account_id: r.actorAccountId,
          action: "Jobs_ResolveBountyDispute",
          subject_kind: "bounty-dispute",
          subject_id: r.disputeId,
          reason: r.reason,
          detail: JSON.stringify({ bountyId: r.bountyId, resolution: r.resolution, commandHash: r.commandHash, ...payout }),
          created_at: r.at
        })
      }`
      yield* sql`INSERT INTO dispute_resolutions ${
        sql.insert({
          id: r.commandId,
          dispute_id: r.disputeId,
          bounty_id: r.bountyId,
          command_hash: r.commandHash,
          decision_digest: r.decisionDigest,
          resolution: r.resolution,
          units_to_provider: payout.unitsToProvider,
          units_to_client: payout.unitsToClient,
          state: r.state,
          audit_event_id: r.auditEventId,
          transaction_intent_id: r.transactionIntentId,
          created_at: r.at
        })
      }`
    })

  return { findDispute, record } as const
})

/** SQL of bounty disputes. */
export class BountiesRepo extends Effect.Service<BountiesRepo>()("agent-directory/BountiesRepo", { effect: make }) {}
