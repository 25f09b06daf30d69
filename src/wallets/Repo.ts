/**
 * SQL of the Wallets area: wallet policies and wallet public profiles, as seen by
 * the account that owns the wallet. Rows are built in the wire shapes of
 * `WalletPolicy` (spec §2.8) and `WalletPublicProfile` (spec §2.14) and decoded with them.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { CancellableWalletPolicyStates, WalletPolicy, WalletPublicProfile } from "./Schemas.js"
import { updateVersioned } from "../db/versioned.js"

/** What the cancel rules need to know about a policy of the caller's wallet. */
export const PolicyAccess = Schema.Struct({
  version: Schema.Number,
  state: Schema.String,
  challengeExpiresAt: Schema.DateFromSelf
})
export type PolicyAccess = typeof PolicyAccess.Type

const OwnerRequest = Schema.Struct({ id: Schema.String, accountId: Schema.String })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const ownedBy = (accountId: string) =>
    sql`wallet_id IN (SELECT w.id FROM wallets w WHERE w.owner_account_id = ${accountId})`

  /** The policy in its wire shape, or none. */
  const findPolicy = SqlSchema.findOne({
    Request: Schema.String,
    Result: WalletPolicy,
    execute: (id) =>
      sql`SELECT p.id AS "policyId", p.wallet_id AS "walletPublicId", p.phase, p.state, p.version::float8 AS version,
            p.provider_policy_id AS "providerPolicyId", p.candidate_provider_policy_id AS "candidateProviderPolicyId",
            p.failure_code AS "failureCode", api_ts(p.created_at) AS "createdAt", api_ts(p.updated_at) AS "updatedAt",
            api_ts(p.completed_at) AS "completedAt"
          FROM wallet_policies p WHERE p.id = ${id}`
  })

  /** The policy's version, state and challenge expiry, or none when absent or not a wallet of the account. */
  const policyAccess = SqlSchema.findOne({
    Request: OwnerRequest,
    Result: PolicyAccess,
    execute: ({ accountId, id }) =>
      sql`SELECT version::float8 AS version, state, cancellation_challenge_expires_at AS "challengeExpiresAt"
          FROM wallet_policies WHERE id = ${id} AND ${ownedBy(accountId)}`
  })

  /**
   * Cancels in one conditional statement (version, cancellable state, the account's
   * wallet, challenge unexpired at `at`). Returns the new version, or none.
   */
  const cancelPolicy = (r: { id: string; expectedVersion: number; accountId: string; reason: string; at: Date }) =>
    updateVersioned({
      table: "wallet_policies",
      id: r.id,
      expectedVersion: r.expectedVersion,
      set: sql`state = 'CANCELLED', cancellation_reason = ${r.reason}, completed_at = ${r.at}, updated_at = ${r.at}`,
      fromStates: CancellableWalletPolicyStates,
      where: [ownedBy(r.accountId), sql`cancellation_challenge_expires_at > ${r.at}`]
    })

  /** Whether the wallet exists and belongs to the account. */
  const ownsWallet = (r: { id: string; accountId: string }) =>
    sql`SELECT 1 FROM wallets WHERE id = ${r.id} AND owner_account_id = ${r.accountId}`.pipe(
      Effect.map((rows) => rows.length === 1)
    )

  /** The wallet's profile as its owner (`viewer`) sees it, or none. */
  const findProfile = SqlSchema.findOne({
    Request: Schema.Struct({ walletId: Schema.String, viewer: Schema.String }),
    Result: WalletPublicProfile,
    execute: ({ viewer, walletId }) =>
      sql`SELECT p.id AS "publicId", p.wallet_id AS "walletPublicId",
            json_build_object('publicId', n.id, 'key', n.key, 'family', n.family, 'displayName', n.display_name) AS network,
            p.address, p.display_name AS "displayName", p.bio, p.visibility,
            (SELECT count(*) FROM wallet_profile_followers f WHERE f.profile_id = p.id)::text AS "followerCount",
            EXISTS (SELECT 1 FROM wallet_profile_followers f WHERE f.profile_id = p.id AND f.account_id = ${viewer}) AS following,
            EXISTS (SELECT 1 FROM wallets w WHERE w.id = p.wallet_id AND w.owner_account_id = ${viewer}) AS "ownedByViewer",
            p.favorite_collection_visibility AS "favoriteCollectionVisibility", p.version::float8 AS version,
            api_ts(p.published_at) AS "publishedAt", api_ts(p.updated_at) AS "updatedAt"
          FROM wallet_profiles p JOIN networks n ON n.id = p.network_id
          WHERE p.wallet_id = ${walletId}`
  })

  return { findPolicy, policyAccess, cancelPolicy, ownsWallet, findProfile } as const
})

/** SQL of the Wallets area. */
export class WalletsRepo extends Effect.Service<WalletsRepo>()("agent-directory/WalletsRepo", { effect: make }) {}
