/**
 * Demo data of identity proofs: one open challenge of Atlas Research (operated by Acme) for
 * an EVM address on Base (relation OWNER), valid until 2036, with the signature of its message by the
 * address's key, so the demo manifest's Agents_ProveIdentity succeeds on a fresh database. The key is
 * the first well-known Hardhat/Anvil development key (public: never fund it). And one address
 * already proven: Beacon Monitor's PAYOUT address on Base (Hardhat/Anvil account 2), whose
 * wallet-agent relation and wallet row the wallets demo adds (demo/wallets/agentRelations.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../../accounts/seed.js"
import { demoId, demoTime } from "../../common.js"
import { canonicalLocator } from "../../../src/identity/Locator.js"
import { challengeMessage } from "../../../src/agents/identities/ChallengeMessage.js"
import { DemoAgents } from "../seed.js"

/** The public development key whose address the demo challenge is for (Hardhat/Anvil account 0). */
export const DemoProofKey = {
  privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
} as const

const atlas = DemoAgents[0]
const locator = { kind: "ADDRESS", network: "base", scope: null, nativeId: DemoProofKey.address } as const
const challengeId = demoId(0xd2, 1)
const issuedAt = demoTime(150)
const expiresAt = new Date(Date.UTC(2036, 0, 1))

/**
 * Beacon Monitor's proven PAYOUT address on Base: Hardhat/Anvil account 2 (public development key,
 * never fund it), REGISTRY_BOUND and proven by EIP-191 on day 152.
 */
export const DemoProvenPayout = {
  identityId: demoId(0xd2, 2),
  agentId: DemoAgents[1].id,
  network: "base",
  address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  relation: "PAYOUT",
  provenAt: demoTime(152)
} as const

/** The demo challenge and request bodies (examples of /docs, manifest). */
export const DemoProofs = {
  challenge: {
    id: challengeId,
    agentId: atlas.id,
    locator,
    issuedAt,
    expiresAt,
    message: challengeMessage({
      origin: "http://127.0.0.1:3000",
      agentId: atlas.id,
      agentName: atlas.name,
      locator: canonicalLocator(locator),
      caip2: "eip155:8453",
      nonce: "6f2c1e0b8a9d4c3e7f5a2b1c0d9e8f7a",
      issuedAt,
      expiresAt,
      challengeId,
      relation: "OWNER"
    }),
    /** EIP-191 signature of `message` by {@link DemoProofKey} (checked by test/agents/identities/IdentityProofs.test.ts). */
    signature: "0x09c55df8efb27a6ce4d4f5de24457a655929ce9c5d198670b02c7ad262cd94b954f8b6ffd0b824ea8ea3b9d9f1afe9fda4ad0445a883f236adc525430518906c1b"
  },
  /** A locator of Atlas Research to challenge: Hardhat account 1 on Base, the network named by CAIP-2. */
  challengeRequest: {
    networkFamily: "EVM",
    network: "eip155:8453",
    protocol: null,
    locatorKind: "ADDRESS",
    registry: null,
    nativeId: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    relation: "TREASURY"
  }
} as const

/** Inserts the demo challenge (created by the demo owner) and Beacon's proven address. Fails with `SqlError`. */
export const seedIdentityProofs = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const c = DemoProofs.challenge
  yield* sql`INSERT INTO agent_identity_challenges ${
    sql.insert({
      id: c.id,
      agent_id: c.agentId,
      account_id: DemoAccounts.owner.id,
      family: "EVM",
      kind: c.locator.kind,
      network: c.locator.network,
      scope: c.locator.scope,
      native_id: c.locator.nativeId,
      locator: canonicalLocator(c.locator),
      message: c.message,
      created_at: c.issuedAt,
      expires_at: c.expiresAt,
      relation: "OWNER"
    })
  }`
  const p = DemoProvenPayout
  const payoutLocator = { kind: "ADDRESS", network: p.network, scope: null, nativeId: p.address } as const
  yield* sql`INSERT INTO agent_identities ${
    sql.insert({
      id: p.identityId,
      agent_id: p.agentId,
      family: "EVM",
      kind: "ADDRESS",
      network: p.network,
      scope: null,
      native_id: p.address,
      locator: canonicalLocator(payoutLocator),
      binding: "REGISTRY_BOUND",
      created_at: p.provenAt,
      proven_at: p.provenAt,
      proof_method: "EIP191"
    })
  }`
})
