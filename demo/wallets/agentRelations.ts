/**
 * Demo wallet-agent relations: Beacon Monitor's PAYOUT relation to Hardhat/Anvil
 * account 2 on Base, proven by signature (`DemoProvenPayout`, the agent's proven ADDRESS identity
 * seeded by demo/agents/identities/seed.ts), whose address is the owner's wallet `beaconPayout`
 * (demo/wallets/seed.ts). The funded/transferred demo address (demo/agents/seed.ts) has none.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import { DemoProvenPayout } from "../agents/identities/seed.js"
import { DemoAgents, DemoIdentities } from "../agents/seed.js"
import { demoId, DemoNetworks, demoTime } from "../common.js"

/** The demo relations. */
export const DemoAgentRelations = {
  beaconPayout: {
    id: demoId(0xa6, 1),
    agentId: DemoProvenPayout.agentId,
    network: DemoProvenPayout.network,
    address: DemoProvenPayout.address,
    relation: DemoProvenPayout.relation,
    proofKind: "SIGNATURE",
    proofReference: DemoProvenPayout.identityId,
    verifiedAt: DemoProvenPayout.provenAt
  },
  /** Atlas Research's address, proven by an EIP-191 signature in the demo identities: its OWNER (what migration 0029's backfill derives). */
  atlasOwner: {
    id: demoId(0xa6, 2),
    agentId: DemoAgents[0].id,
    network: "base",
    address: DemoIdentities[2].nativeId,
    relation: "OWNER",
    proofKind: "SIGNATURE",
    proofReference: DemoIdentities[2].id,
    verifiedAt: demoTime(6, 2)
  }
} as const

/** Inserts the demo relations (after the wallets and the identity proofs). Fails with `SqlError`. */
export const seedAgentRelationsDemo: Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO agent_wallet_relations ${
    sql.insert(Object.values(DemoAgentRelations).map((r) => ({
      id: r.id,
      agent_id: r.agentId,
      network_id: DemoNetworks[r.network].id,
      address: r.address,
      relation: r.relation,
      proof_kind: r.proofKind,
      proof_reference: r.proofReference,
      verified_at: r.verifiedAt
    })))
  }`
})
