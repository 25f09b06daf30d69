/**
 * Demo data of the Wallets area (spec §2.8, §2.14): wallets of the demo accounts,
 * their policies in every state, their public profiles and the wallet-agent relations
 * (demo/wallets/agentRelations.ts). Loaded by `seed.ts`.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../accounts/seed.js"
import { demoId, DemoNetworks, demoTime } from "../common.js"
import { DemoProvenPayout } from "../agents/identities/seed.js"
import { seedAgentRelationsDemo } from "./agentRelations.js"

const id = demoId

/** A challenge that stays valid for the demo (`npm start` on today's date). */
const farFuture = new Date("2030-01-01T00:00:00.000Z")

export const DemoWallets = {
  /** The owner's Base wallet, with a PUBLIC profile followed by two accounts. */
  ownerBase: { id: id(0xa1, 1), owner: "owner", network: "base", address: "0x1111111111111111111111111111111111111111" },
  /** The owner's Solana wallet, with a PRIVATE profile never published. */
  ownerSolana: { id: id(0xa1, 2), owner: "owner", network: "solana", address: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin" },
  /** The owner's second Base wallet, without a profile (the profile read answers `data: null`). */
  ownerBare: { id: id(0xa1, 3), owner: "owner", network: "base", address: "0x3333333333333333333333333333333333333333" },
  /** The outsider's wallet: invisible to the owner (404). */
  outsider: { id: id(0xa1, 4), owner: "outsider", network: "base", address: "0x4444444444444444444444444444444444444444" },
  /**
   * The owner's Base wallet that Beacon Monitor proved as its PAYOUT address (Hardhat/Anvil account 2,
   * see `DemoProvenPayout`): Wallets_ListWalletAgents lists Beacon for it.
   */
  beaconPayout: { id: id(0xa1, 5), owner: "owner", network: "base", address: DemoProvenPayout.address }
} as const

/**
 * A wallet registration proof (Wallets_RegisterWallet): anvil/Hardhat development account 5 on Base
 * signed this EIP-4361 message for the test and docs origin `https://directory.test`, valid until 2036
 * (its nonce proves once per database). Public development key: never use it anywhere real.
 */
export const DemoWalletRegistration = {
  account: "eip155:8453:0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  message: "directory.test wants you to sign in with your Ethereum account:\n0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc\n\n" +
    "Register this wallet with the Agent Directory.\n\nURI: https://directory.test/wallets\nVersion: 1\nChain ID: 8453\n" +
    "Nonce: DemoWalletNonce0001\nIssued At: 2026-01-01T00:00:00.000Z\nExpiration Time: 2036-01-01T00:00:00.000Z",
  signature: "0x101fa3986e0d0f97712d7479155bbde3fb7a9f48c40030bd3a95e58cc1e8b2cb011132c6b9d30d146c9b4d9a10ba1fe3e8e69b01962505619eb16246d579d52e1c"
} as const

/** Wallet policies: one per state, one whose cancellation challenge expired, one of the outsider. */
export const DemoWalletPolicies = {
  prepared: { id: id(0xa2, 1), wallet: "ownerBase", phase: "CREATE", state: "PREPARED", version: 1, challengeExpiresAt: farFuture },
  dispatching: { id: id(0xa2, 2), wallet: "ownerBase", phase: "ATTACH", state: "DISPATCHING", version: 2, challengeExpiresAt: farFuture },
  observing: { id: id(0xa2, 3), wallet: "ownerSolana", phase: "CREATE", state: "OBSERVING", version: 3, challengeExpiresAt: farFuture },
  manualReview: { id: id(0xa2, 4), wallet: "ownerSolana", phase: "ATTACH", state: "MANUAL_REVIEW", version: 4, challengeExpiresAt: farFuture },
  complete: { id: id(0xa2, 5), wallet: "ownerBase", phase: "CREATE", state: "COMPLETE", version: 4, challengeExpiresAt: farFuture },
  cancelled: { id: id(0xa2, 6), wallet: "ownerBare", phase: "ATTACH", state: "CANCELLED", version: 2, challengeExpiresAt: farFuture },
  /** PREPARED, but its cancellation challenge expired on 2026-03-02 (410). */
  expiredChallenge: { id: id(0xa2, 7), wallet: "ownerBare", phase: "CREATE", state: "PREPARED", version: 1, challengeExpiresAt: demoTime(60) },
  /** Spare PREPARED policy for tests (concurrency). */
  spare: { id: id(0xa2, 8), wallet: "ownerBare", phase: "CREATE", state: "PREPARED", version: 1, challengeExpiresAt: farFuture },
  /** The outsider's policy: invisible to the owner (404). */
  foreign: { id: id(0xa2, 9), wallet: "outsider", phase: "CREATE", state: "PREPARED", version: 1, challengeExpiresAt: farFuture }
} as const

export const DemoWalletProfiles = {
  ownerBase: {
    id: id(0xa3, 1), wallet: "ownerBase", displayName: "Olive on Base", bio: "Collector of research agents.",
    visibility: "PUBLIC", favorites: "PUBLIC", version: 3, published: true, followers: ["member", "outsider"]
  },
  ownerSolana: {
    id: id(0xa3, 2), wallet: "ownerSolana", displayName: null, bio: null,
    visibility: "PRIVATE", favorites: "PRIVATE", version: 1, published: false, followers: []
  },
  outsider: {
    id: id(0xa3, 3), wallet: "outsider", displayName: "Otto", bio: null,
    visibility: "PUBLIC", favorites: "PRIVATE", version: 2, published: true, followers: ["owner"]
  }
} as const

/** Loads the wallets demo data (inside the seed transaction). Fails with `SqlError`. */
export const seedWalletsDemo: Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient> =
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO wallets ${
      sql.insert(Object.values(DemoWallets).map((w, i) => ({
        id: w.id,
        owner_account_id: DemoAccounts[w.owner].id,
        network_id: DemoNetworks[w.network].id,
        address: w.address,
        created_at: demoTime(50, i)
      })))
    }`
    yield* sql`INSERT INTO wallet_policies ${
      sql.insert(Object.values(DemoWalletPolicies).map((p, i) => {
        const terminal = p.state === "COMPLETE" || p.state === "CANCELLED"
        const dispatched = p.state !== "PREPARED"
        return {
          id: p.id,
          wallet_id: DemoWallets[p.wallet].id,
          phase: p.phase,
          state: p.state,
          version: p.version,
          provider_policy_id: p.state === "COMPLETE" ? `prov-policy-${i + 1}` : null,
          candidate_provider_policy_id: dispatched ? `cand-policy-${i + 1}` : null,
          failure_code: p.state === "MANUAL_REVIEW" ? "PROVIDER_TIMEOUT" : null,
          cancellation_challenge_expires_at: p.challengeExpiresAt,
          cancellation_reason: p.state === "CANCELLED" ? "Replaced by a newer attach policy." : null,
          created_at: demoTime(51, i),
          updated_at: demoTime(52, i),
          completed_at: terminal ? demoTime(52, i) : null
        }
      }))
    }`
    const profiles = Object.values(DemoWalletProfiles)
    yield* sql`INSERT INTO wallet_profiles ${
      sql.insert(profiles.map((p, i) => ({
        id: p.id,
        wallet_id: DemoWallets[p.wallet].id,
        network_id: DemoNetworks[DemoWallets[p.wallet].network].id,
        address: DemoWallets[p.wallet].address,
        display_name: p.displayName,
        bio: p.bio,
        visibility: p.visibility,
        favorite_collection_visibility: p.favorites,
        version: p.version,
        published_at: p.published ? demoTime(53, i) : null,
        updated_at: demoTime(54, i)
      })))
    }`
    yield* sql`INSERT INTO wallet_profile_followers ${
      sql.insert(profiles.flatMap((p) =>
        p.followers.map((account, i) => ({ profile_id: p.id, account_id: DemoAccounts[account].id, created_at: demoTime(55, i) }))
      ))
    }`
    yield* seedAgentRelationsDemo
  })
