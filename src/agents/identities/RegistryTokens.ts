/**
 * Registry tokens proven by the chain itself (not by a signed challenge): an ERC-8004 identity
 * token a launch run minted to the agent owner's wallet, or an existing one whose `ownerOf`
 * signed its attachment (src/launch). The token becomes the agent's REGISTRY_BOUND,
 * proven REGISTRY_TOKEN identity (proof method ERC721_OWNER), exactly as Agents_ProveIdentity
 * records one (src/agents/identities/Identities.ts): an imported claim of the same token
 * becomes PROVEN, the owner becomes the agent's OWNER wallet (proof REGISTRY, referencing the
 * token's CAIP-19 id), and the verification rule and the agents' evidence marks are applied.
 * Runs in the caller's transaction; storage failures are defects.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { getAddress } from "viem"
import { Ids } from "../../../layers/Ids.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { canonicalLocator } from "../../identity/Locator.js"
import { applyVerificationRule, markAgentEvidence } from "../../trust/index.js"
import { WalletRelationProofs } from "../../wallets/index.js"
import { IdentitiesRepo } from "./Repo.js"

/** A registry token the chain shows the agent's owner holds. */
export interface ProvenRegistryToken {
  readonly agentId: string
  /** CAIP-2 of the token's chain (`eip155:8453`). */
  readonly network: string
  /** The registry contract (any case; stored EIP-55). */
  readonly registry: string
  /** The token id (the ERC-8004 `agentId`), decimal. */
  readonly tokenId: string
  /** The token's owner (any case; stored EIP-55). */
  readonly owner: string
  readonly at: Date
}

/**
 * The network key of a CAIP-2 id: the `networks` row's, or a new EVM row keyed by the CAIP-2 id
 * itself when the directory has none yet (a configured chain the directory did not list).
 */
const networkKey = (caip2: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const found = yield* sql<{ key: string }>`SELECT key FROM networks WHERE caip2 = ${caip2}`
    if (found[0] !== undefined) return found[0].key
    const id = yield* (yield* Ids).next
    yield* sql`INSERT INTO networks (id, key, family, display_name, caip2) VALUES (${id}, ${caip2}, 'EVM', ${caip2}, ${caip2})
               ON CONFLICT DO NOTHING`
    const [row] = yield* sql<{ key: string }>`SELECT key FROM networks WHERE caip2 = ${caip2}`
    return row!.key
  })

/**
 * Binds `token` to its agent as a proven REGISTRY_TOKEN identity (see the module's description).
 * Idempotent: a second call proves the same identity row again.
 */
export const recordProvenRegistryToken = (token: ProvenRegistryToken): Effect.Effect<void, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const repo = yield* IdentitiesRepo
    const relations = yield* WalletRelationProofs
    const ids = yield* Ids
    const key = yield* networkKey(token.network)
    const registry = getAddress(token.registry)
    const parts = { kind: "REGISTRY_TOKEN" as const, network: key, scope: registry, nativeId: BigInt(token.tokenId).toString() }
    const locator = canonicalLocator(parts)
    yield* repo.bindProven({
      id: token.agentId,
      agentId: token.agentId,
      family: "EVM",
      kind: parts.kind,
      network: key,
      scope: registry,
      nativeId: parts.nativeId,
      locator,
      message: "",
      expiresAt: token.at.toISOString(),
      usedAt: null,
      relation: null
    }, "ERC721_OWNER", token.at, yield* ids.next)
    yield* relations.record({
      id: yield* ids.next,
      agentId: token.agentId,
      network: key,
      address: getAddress(token.owner),
      relation: "OWNER",
      proofKind: "REGISTRY",
      proofReference: `${token.network}/erc721:${registry}/${parts.nativeId}`,
      verifiedAt: token.at
    })
    const agents = [...new Set([...(yield* repo.boundAgents(locator)), token.agentId])].sort()
    yield* Effect.forEach(agents, (agent) => markAgentEvidence(agent, token.at), { discard: true })
    yield* applyVerificationRule(agents, token.at)
  }).pipe(
    Effect.provide([IdentitiesRepo.Default, WalletRelationProofs.Default]),
    dieOnStorageFailure
  )
