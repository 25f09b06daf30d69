/**
 * SQL of wallet public profiles (spec §2.14): the profile in its wire shape as one viewer sees it
 * (`following`, `ownedByViewer`; `followerCount` counted from the follower rows, so it moves exactly
 * once per account whatever the concurrency), its creation and versioned update, and follows.
 */
import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import { updateVersioned } from "../../db/versioned.js"
import { WalletPublicProfile } from "../Schemas.js"

/** A profile found by locator: its id, visibility and owner (null when no wallet holds it). */
export const ProfileRef = Schema.Struct({
  id: Schema.String,
  visibility: Schema.String,
  ownerAccountId: Schema.NullOr(Schema.String)
})
export type ProfileRef = typeof ProfileRef.Type

/** What a profile's new configuration sets. */
export interface ProfileConfiguration {
  readonly displayName: string | null
  readonly bio: string | null
  readonly visibility: "PRIVATE" | "PUBLIC"
  readonly favoriteCollectionVisibility: "PRIVATE" | "PUBLIC"
}

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const select = (viewer: string | null, where: Statement.Fragment) =>
    sql`SELECT p.id AS "publicId", p.wallet_id AS "walletPublicId",
          json_build_object('publicId', n.id, 'key', n.key, 'family', n.family, 'displayName', n.display_name) AS network,
          p.address, p.display_name AS "displayName", p.bio, p.visibility,
          (SELECT count(*) FROM wallet_profile_followers f WHERE f.profile_id = p.id)::text AS "followerCount",
          ${
      viewer === null
        ? sql`false AS following, false AS "ownedByViewer",`
        : sql`EXISTS (SELECT 1 FROM wallet_profile_followers f WHERE f.profile_id = p.id AND f.account_id = ${viewer}) AS following,
          EXISTS (SELECT 1 FROM wallets w WHERE w.id = p.wallet_id AND w.owner_account_id = ${viewer}) AS "ownedByViewer",`
    }
          p.favorite_collection_visibility AS "favoriteCollectionVisibility", p.version::float8 AS version,
          api_ts(p.published_at) AS "publishedAt", api_ts(p.updated_at) AS "updatedAt"
        FROM wallet_profiles p JOIN networks n ON n.id = p.network_id
        WHERE ${where}`

  /** A profile in its wire shape as `viewer` (null: anonymous) sees it, or none. */
  const findProfile = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, viewer: Schema.NullOr(Schema.String) }),
    Result: WalletPublicProfile,
    execute: ({ id, viewer }) => select(viewer, sql`p.id = ${id}`)
  })

  /**
   * The profile of an address on a network (the network by CAIP-2 id or key; an EVM address
   * compared without case), or none.
   */
  const findByLocator = SqlSchema.findOne({
    Request: Schema.Struct({ network: Schema.String, address: Schema.String }),
    Result: ProfileRef,
    execute: ({ address, network }) =>
      sql`SELECT p.id, p.visibility, w.owner_account_id AS "ownerAccountId"
          FROM wallet_profiles p JOIN networks n ON n.id = p.network_id
          LEFT JOIN wallets w ON w.id = p.wallet_id
          WHERE (n.caip2 = ${network} OR n.key = ${network})
            AND ${/^0x[0-9a-fA-F]{40}$/.test(address) ? sql`lower(p.address) = lower(${address})` : sql`p.address = ${address}`}`
  })

  /** The wallet's profile id, version and visibility, or none when it has no profile. */
  const profileOfWallet = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String, version: Schema.Number, state: Schema.String }),
    execute: (walletId) =>
      sql`SELECT id, version::float8 AS version, visibility AS state FROM wallet_profiles WHERE wallet_id = ${walletId}`
  })

  /** The wallet's network and address, when it belongs to the account. */
  const ownedWallet = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.String }),
    Result: Schema.Struct({ networkId: Schema.String, address: Schema.String }),
    execute: ({ accountId, id }) =>
      sql`SELECT network_id AS "networkId", address FROM wallets WHERE id = ${id} AND owner_account_id = ${accountId}`
  })

  /** Creates the wallet's first profile (version 1); false when one exists (for the wallet or its address). */
  const insertProfile = (r: ProfileConfiguration & { id: string; walletId: string; networkId: string; address: string; at: Date }) =>
    sql`INSERT INTO wallet_profiles (id, wallet_id, network_id, address, display_name, bio, visibility,
          favorite_collection_visibility, version, published_at, updated_at)
        VALUES (${r.id}, ${r.walletId}, ${r.networkId}, ${r.address}, ${r.displayName}, ${r.bio}, ${r.visibility},
          ${r.favoriteCollectionVisibility}, 1, ${r.visibility === "PUBLIC" ? r.at : null}, ${r.at})
        ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length === 1))

  /**
   * Replaces the configuration at `expectedVersion` (one conditional UPDATE); `publishedAt` is set
   * the first time the profile is PUBLIC and kept after. Returns the new version, or none.
   */
  const updateProfile = (r: ProfileConfiguration & { id: string; expectedVersion: number; at: Date }) =>
    updateVersioned({
      table: "wallet_profiles",
      id: r.id,
      expectedVersion: r.expectedVersion,
      set: sql`display_name = ${r.displayName}, bio = ${r.bio}, visibility = ${r.visibility},
        favorite_collection_visibility = ${r.favoriteCollectionVisibility},
        published_at = COALESCE(published_at, ${r.visibility === "PUBLIC" ? r.at : null}::timestamptz), updated_at = ${r.at}`
    })

  /** Records the account as a follower; false when it already follows (a concurrent follow waits and loses). */
  const follow = (r: { profileId: string; accountId: string; at: Date }) =>
    sql`INSERT INTO wallet_profile_followers (profile_id, account_id, created_at)
        VALUES (${r.profileId}, ${r.accountId}, ${r.at}) ON CONFLICT DO NOTHING RETURNING profile_id`.pipe(
      Effect.map((rows) => rows.length === 1)
    )

  /** Removes the account's follow; false when it did not follow. */
  const unfollow = (r: { profileId: string; accountId: string }) =>
    sql`DELETE FROM wallet_profile_followers WHERE profile_id = ${r.profileId} AND account_id = ${r.accountId}
        RETURNING profile_id`.pipe(Effect.map((rows) => rows.length === 1))

  return {
    findProfile,
    findByLocator,
    profileOfWallet,
    ownedWallet,
    insertProfile,
    updateProfile,
    follow,
    unfollow
  } as const
})

/** SQL of wallet public profiles. */
export class WalletProfilesRepo extends Effect.Service<WalletProfilesRepo>()("agent-directory/WalletProfilesRepo", {
  effect: make
}) {}
