/**
 * Demo data of the agent directory (spec §9): the protocols each demo agent speaks
 * (the list's `protocols` filter). Loaded by `seed.ts`. Networks come from the agents'
 * registry-bound identities (`DemoIdentities`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../accounts/seed.js"
import { demoTime, demoId as id } from "../common.js"
import { canonicalLocator } from "../../src/identity/Locator.js"
import { DemoWorkspaces } from "../workspaces/seed.js"

/**
 * The demo agents. `rank` and `state` (verificationState) are what the reputation projection
 * computes from the demo evidence (src/trust/reputation/, docs/methodology.md; the seed's last step
 * recomputes them): inserted as such so the seed is consistent before and after it.
 */
export const DemoAgents = [
  { id: id(6, 1), slug: "atlas-research", name: "Atlas Research", rank: "1", tagline: "Deep research on demand", stars: "1520", state: "VERIFIED" },
  { id: id(6, 2), slug: "beacon-monitor", name: "Beacon Monitor", rank: "2", tagline: "Uptime and chain monitoring", stars: "980", state: "VERIFIED" },
  { id: id(6, 3), slug: "cobalt-trader", name: "Cobalt Trader", rank: "3", tagline: null, stars: "411", state: "PARTIAL" },
  { id: id(6, 4), slug: "delta-scribe", name: "Delta Scribe", rank: "4", tagline: "Docs that write themselves", stars: "87", state: "PARTIAL" },
  { id: id(6, 5), slug: "echo-support", name: "Echo Support", rank: "8", tagline: "Customer support agent", stars: "0", state: "EXPIRED" },
  { id: id(6, 6), slug: "forge-builder", name: "Forge Builder", rank: "5", tagline: "Ships smart contracts", stars: "64", state: "PARTIAL" },
  { id: id(6, 7), slug: "gamma-oracle", name: "Gamma Oracle", rank: "6", tagline: "Price feeds for agents", stars: "33", state: "CONFLICTED" },
  { id: id(6, 8), slug: "harbor-relay", name: "Harbor Relay", rank: "7", tagline: null, stars: "5", state: "CONFLICTED" }
] as const

/**
 * The workspaces that operate demo agents (`agents.workspace_id`): Atlas and Beacon by
 * Acme, Cobalt by the outsider's workspace (runtime, activity and analytics demo data).
 */
export const DemoAgentWorkspaces = [
  { agent: DemoAgents[0].id, workspace: "acme" },
  { agent: DemoAgents[1].id, workspace: "acme" },
  { agent: DemoAgents[2].id, workspace: "outsider" }
] as const

/** Demo EVM registry contracts (EIP-55), as identity registries of the `base` network. */
export const DemoRegistries = {
  erc8004: "0x8004a6090Cd10A7288092483047B097295Fb8847",
  legacy: "0x8004B06FE1C0Ef3a3d4Ca8A4E1Ca6D8c24ab1fD2"
} as const

/**
 * Demo identities (agent locators, spec §9), chosen so every resolver status is reachable:
 * - UNIQUE: each REGISTRY_BOUND locator bound to one agent (token, address, SVM asset, DID, off-chain key);
 * - AMBIGUOUS: token 7 on base without a registry (Forge in one registry, Gamma in the other);
 * - CONFLICTED: token 9 of the legacy registry, bound to both Gamma and Harbor;
 * - NOT_FOUND with an observed-only reason: the funded address, which Atlas was FUNDED from and
 *   Beacon TRANSFERRED to; it must never map to either.
 *  */
export const DemoIdentities = [
  { id: id(12, 1), agent: 0, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.erc8004, nativeId: "1", binding: "REGISTRY_BOUND" },
  { id: id(12, 2), agent: 1, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.erc8004, nativeId: "2", binding: "REGISTRY_BOUND" },
  { id: id(12, 3), agent: 0, family: "EVM", kind: "ADDRESS", network: "base", scope: null, nativeId: "0xA11Ce0000000000000000000000000000000a7a5", binding: "REGISTRY_BOUND" },
  { id: id(12, 4), agent: 2, family: "SVM", kind: "ASSET", network: "solana", scope: "metaplex-core", nativeId: "Cs8KY3PiWrCMAytMsBRQo8EdGbticVtdvufLnb2UhXh", binding: "REGISTRY_BOUND" },
  { id: id(12, 5), agent: 3, family: "DID", kind: "DID", network: null, scope: "web", nativeId: "did:web:delta-scribe.example", binding: "REGISTRY_BOUND" },
  { id: id(12, 6), agent: 4, family: "OFFCHAIN", kind: "REGISTRY_KEY", network: null, scope: "agentverse", nativeId: "agent1qecho0support", binding: "REGISTRY_BOUND" },
  { id: id(12, 7), agent: 5, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.erc8004, nativeId: "7", binding: "REGISTRY_BOUND" },
  { id: id(12, 8), agent: 6, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.legacy, nativeId: "7", binding: "REGISTRY_BOUND" },
  { id: id(12, 9), agent: 6, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.legacy, nativeId: "9", binding: "REGISTRY_BOUND" },
  { id: id(12, 10), agent: 7, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.legacy, nativeId: "9", binding: "REGISTRY_BOUND" },
  { id: id(12, 11), agent: 0, family: "EVM", kind: "ADDRESS", network: "base", scope: null, nativeId: "0xF00D000000000000000000000000000000fCeD11", binding: "FUNDED" },
  { id: id(12, 12), agent: 1, family: "EVM", kind: "ADDRESS", network: "base", scope: null, nativeId: "0xF00D000000000000000000000000000000fCeD11", binding: "TRANSFERRED" }
] as const

/**
 * Demo identities held with a proof (Agents_ProveIdentity's record: `proven_at`, `proof_method`),
 * by id: Atlas's and Beacon's, so the verification rule (src/trust/reputation/VerificationRule.ts) finds
 * them VERIFIED from evidence. The others are registry-bound without proof (PARTIAL, or CONFLICTED).
 */
export const DemoProvenIdentities: ReadonlyMap<string, "ERC721_OWNER" | "EIP191"> = new Map([
  [id(12, 1), "ERC721_OWNER"],
  [id(12, 2), "ERC721_OWNER"],
  [id(12, 3), "EIP191"]
])

/**
 * Locators for Agents_ResolveAgentIdentities (demo manifest and tests), one per resolver
 * status: UNIQUE (Atlas's token), NOT_FOUND (the funded address), AMBIGUOUS (token 7
 * without a registry), CONFLICTED (token 9 of the legacy registry), INVALID (bad base58).
 */
export const DemoResolveLocators = [
  { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: "0x8004a6090cd10a7288092483047b097295fb8847", nativeId: "1" },
  { networkFamily: "EVM", network: "base", protocol: null, locatorKind: "ADDRESS", registry: null, nativeId: "0xf00d000000000000000000000000000000fced11" },
  { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: null, nativeId: "7" },
  { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: "0x8004B06FE1C0Ef3a3d4Ca8A4E1Ca6D8c24ab1fD2", nativeId: "9" },
  { networkFamily: "SVM", network: "solana", protocol: "metaplex-core", locatorKind: "ASSET", registry: null, nativeId: "not-base58-0OIl" }
] as const

/** Favorites: [account, agent index, day added]. */
export const DemoFavorites = [
  ["owner", 0, 20],
  ["owner", 1, 21],
  ["owner", 2, 22],
  ["owner", 3, 23],
  ["member", 4, 24]
] as const


/** Protocol keys (of `DemoProtocols`) per agent index of `DemoAgents`; Harbor Relay speaks none. */
export const DemoAgentProtocols: ReadonlyArray<readonly [number, ReadonlyArray<string>]> = [
  [0, ["mcp", "x402", "erc-8004"]],
  [1, ["a2a", "erc-8004"]],
  [2, ["x402"]],
  [3, ["mcp", "openapi"]],
  [4, ["a2a"]],
  [5, ["erc-8004", "openapi"]],
  [6, ["erc-8004", "x402"]]
]

/**
 * Inserts the demo agents, their identities, favorites, operating workspaces and protocols, inside the seed's transaction. Fails with `SqlError`.
 */
export const seedAgents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO agents ${
    sql.insert(DemoAgents.map((a, i) => ({
      id: a.id,
      canonical_slug: a.slug,
      name: a.name,
      rank: a.rank,
      tagline: a.tagline,
      description: `${a.name}: an agent of the demo directory.`,
      star_count: a.stars,
      verification_state: a.state,
      listed_at: demoTime(i)
    })))
  }`
  yield* sql`INSERT INTO agent_identities ${
    sql.insert(DemoIdentities.map((i, n) => ({
      id: i.id,
      agent_id: DemoAgents[i.agent].id,
      family: i.family,
      kind: i.kind,
      network: i.network,
      scope: i.scope,
      native_id: i.nativeId,
      locator: canonicalLocator(i),
      binding: i.binding,
      created_at: demoTime(6, n),
      proven_at: DemoProvenIdentities.has(i.id) ? demoTime(6, n) : null,
      proof_method: DemoProvenIdentities.get(i.id) ?? null
    })))
  }`
  yield* sql`INSERT INTO favorite_agents ${
    sql.insert(DemoFavorites.map(([account, agent, day]) => ({
      account_id: DemoAccounts[account].id,
      agent_id: DemoAgents[agent].id,
      created_at: demoTime(day)
    })))
  }`
  for (const a of DemoAgentWorkspaces) {
    yield* sql`UPDATE agents SET workspace_id = ${DemoWorkspaces[a.workspace].id} WHERE id = ${a.agent}`
  }
  yield* sql`INSERT INTO agent_protocols ${
    sql.insert(DemoAgentProtocols.flatMap(([agent, keys]) => keys.map((key) => ({ agent_id: DemoAgents[agent]!.id, protocol_key: key }))))
  }`
})
