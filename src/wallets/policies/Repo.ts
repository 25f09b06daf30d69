/**
 * SQL of wallet policies beyond their cancellation (src/wallets/Repo.ts): creation, the
 * provisioning steps of the workflow (each a conditional move from one state, version + 1), and
 * what enforcement reads: the latest COMPLETE policy of the wallet that sends an intent, and the
 * wallet's intents of the last 24 hours.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { WalletPolicyRules } from "../Schemas.js"

/** What the provisioning workflow and the custody provider need of a policy. */
export const PolicyForProvisioning = Schema.Struct({
  policyId: Schema.String,
  walletId: Schema.String,
  network: Schema.NullOr(Schema.String),
  address: Schema.String,
  phase: Schema.Literal("CREATE", "ATTACH"),
  state: Schema.String,
  provider: Schema.String,
  candidateProviderPolicyId: Schema.NullOr(Schema.String),
  rules: WalletPolicyRules
})
export type PolicyForProvisioning = typeof PolicyForProvisioning.Type

/** The enforced policy of a sending wallet: its id, wallet and rules. */
export const EnforcedPolicy = Schema.Struct({
  policyId: Schema.String,
  walletId: Schema.String,
  rules: WalletPolicyRules
})
export type EnforcedPolicy = typeof EnforcedPolicy.Type

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** Inserts a PREPARED policy (version 1). */
  const insertPolicy = (p: {
    id: string
    walletId: string
    phase: "CREATE" | "ATTACH"
    provider: string
    candidateProviderPolicyId: string | null
    rules: WalletPolicyRules
    challengeExpiresAt: Date
    at: Date
  }) =>
    sql`INSERT INTO wallet_policies (id, wallet_id, phase, state, version, provider, candidate_provider_policy_id, rules,
          cancellation_challenge_expires_at, created_at, updated_at)
        VALUES (${p.id}, ${p.walletId}, ${p.phase}, 'PREPARED', 1, ${p.provider}, ${p.candidateProviderPolicyId},
          ${JSON.stringify(Schema.encodeSync(WalletPolicyRules)(p.rules))}::jsonb, ${p.challengeExpiresAt}, ${p.at}, ${p.at})`

  /** The policy as the workflow needs it, or none. */
  const forProvisioning = SqlSchema.findOne({
    Request: Schema.String,
    Result: PolicyForProvisioning,
    execute: (id) =>
      sql`SELECT p.id AS "policyId", p.wallet_id AS "walletId", n.caip2 AS network, w.address, p.phase, p.state,
            p.provider, p.candidate_provider_policy_id AS "candidateProviderPolicyId", p.rules
          FROM wallet_policies p JOIN wallets w ON w.id = p.wallet_id JOIN networks n ON n.id = w.network_id
          WHERE p.id = ${id}`
  })

  /**
   * Moves the policy from `from` to `to` with the given column changes (version + 1, updated now);
   * false when it is no longer in `from` (cancelled meanwhile, or the step already ran).
   */
  const move = (r: {
    id: string
    from: string
    to: string
    at: Date
    candidateProviderPolicyId?: string | null
    providerPolicyId?: string | null
    failureCode?: string | null
  }) =>
    sql`UPDATE wallet_policies SET state = ${r.to}, version = version + 1, updated_at = ${r.at}
          ${r.candidateProviderPolicyId !== undefined ? sql`, candidate_provider_policy_id = ${r.candidateProviderPolicyId}` : sql``}
          ${r.providerPolicyId !== undefined ? sql`, provider_policy_id = ${r.providerPolicyId}` : sql``}
          ${r.failureCode !== undefined ? sql`, failure_code = ${r.failureCode}` : sql``}
          ${r.to === "COMPLETE" ? sql`, completed_at = ${r.at}` : sql``}
        WHERE id = ${r.id} AND state = ${r.from} RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

  /** Whether the wallet has a COMPLETE policy of the provider whose provider id is `providerPolicyId`. */
  const hasCompleteProviderPolicy = (r: { walletId: string; provider: string; providerPolicyId: string }) =>
    sql`SELECT 1 FROM wallet_policies WHERE wallet_id = ${r.walletId} AND provider = ${r.provider}
          AND provider_policy_id = ${r.providerPolicyId} AND state = 'COMPLETE'`.pipe(Effect.map((rows) => rows.length > 0))

  /**
   * The latest COMPLETE policy (by completion, then id) of the wallet whose address is `from` (without
   * case) on the CAIP-2 network, or none (no such wallet, or no COMPLETE policy).
   */
  const enforcedPolicy = (r: { network: string; from: string }) =>
    SqlSchema.findAll({
      Request: Schema.Void,
      Result: EnforcedPolicy,
      execute: () =>
        sql`SELECT p.id AS "policyId", p.wallet_id AS "walletId", p.rules
            FROM wallet_policies p JOIN wallets w ON w.id = p.wallet_id JOIN networks n ON n.id = w.network_id
            WHERE n.caip2 = ${r.network} AND lower(w.address) = lower(${r.from}) AND p.state = 'COMPLETE'
            ORDER BY p.completed_at DESC, p.id DESC LIMIT 1`
    })(undefined).pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

  /**
   * The sender's intents on the network that count towards its day (SUBMITTED, OBSERVED, CONFIRMED,
   * submitted, or else created, since `since`), without `exceptId`: their calldata and value.
   */
  const recentIntents = (r: { network: string; from: string; since: Date; exceptId: string }) =>
    sql<{ data: string; value: string }>`
      SELECT data, value::text AS value FROM transaction_intents
      WHERE network = ${r.network} AND lower(from_address) = lower(${r.from})
        AND state IN ('SUBMITTED', 'OBSERVED', 'CONFIRMED') AND COALESCE(submitted_at, created_at) > ${r.since}
        AND id <> ${r.exceptId}`

  return { insertPolicy, forProvisioning, move, hasCompleteProviderPolicy, enforcedPolicy, recentIntents } as const
})

/** SQL of wallet policies' creation, provisioning and enforcement. */
export class WalletPoliciesRepo extends Effect.Service<WalletPoliciesRepo>()("agent-directory/WalletPoliciesRepo", {
  effect: make
}) {}
