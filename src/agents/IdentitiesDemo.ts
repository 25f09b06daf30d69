/**
 * Demo data of identity proofs: one open challenge of Atlas Research (operated by Acme) for
 * an EVM address on Base, valid until 2036, with the signature of its message by the address's
 * key, so the demo manifest's Agents_ProveIdentity succeeds on a fresh database. The key is
 * the first well-known Hardhat/Anvil development key (public: never fund it).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../accounts/demo.js"
import { demoId, demoTime } from "../db/demo.js"
import { canonicalLocator } from "../identity/Locator.js"
import { challengeMessage } from "./ChallengeMessage.js"
import { DemoAgents } from "./demo.js"

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
      challengeId
    }),
    /** EIP-191 signature of `message` by {@link DemoProofKey} (checked by test/agents/IdentityProofs.test.ts). */
    signature: "0xa8af54175119021f38d5f428c9407ef5830e7fa1d1ff56b29d5362cfd81bf9f92eaf56aef2f55009949e60305c6c9b0708ce1829e704ca344b8efa170b8d11f11c"
  },
  /** A locator of Atlas Research to challenge: Hardhat account 1 on Base, the network named by CAIP-2. */
  challengeRequest: {
    networkFamily: "EVM",
    network: "eip155:8453",
    protocol: null,
    locatorKind: "ADDRESS",
    registry: null,
    nativeId: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
  }
} as const

/** Inserts the demo challenge (created by the demo owner). Fails with `SqlError`. */
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
      expires_at: c.expiresAt
    })
  }`
})
