/**
 * What the watcher records activity for on one network, loaded in one query per tick: the EVM
 * addresses proven for listed agents (wallet relations, which only proofs write, and proven
 * ADDRESS identities) and the ERC-721 registry tokens of listed agents (REGISTRY_TOKEN
 * identities with a registry and a token id on the network).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The watched set of a network; addresses and registries in lower case, token ids as decimal strings. */
export interface WatchedSet {
  /** address → the agents it is proven for. */
  readonly addresses: ReadonlyMap<string, ReadonlyArray<string>>
  /** registry contract → token id → the agents whose registry token it is. */
  readonly tokens: ReadonlyMap<string, ReadonlyMap<string, ReadonlyArray<string>>>
}

/** Loads the watched set of `network` (CAIP-2). Dies on storage failure. */
export const loadWatched = (network: string): Effect.Effect<WatchedSet, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ agentId: string; kind: string; registry: string | null; nativeId: string }>`
      SELECT DISTINCT r.agent_id::text AS "agentId", 'ADDRESS' AS kind, NULL AS registry, lower(r.address) AS "nativeId"
        FROM agent_wallet_relations r JOIN networks n ON n.id = r.network_id JOIN agents a ON a.id = r.agent_id
       WHERE n.caip2 = ${network} AND a.listed_at IS NOT NULL
      UNION
      SELECT i.agent_id::text, i.kind, lower(i.scope), CASE WHEN i.kind = 'ADDRESS' THEN lower(i.native_id) ELSE i.native_id END
        FROM agent_identities i JOIN networks n ON n.key = i.network JOIN agents a ON a.id = i.agent_id
       WHERE n.caip2 = ${network} AND i.family = 'EVM' AND a.listed_at IS NOT NULL
         AND ((i.kind = 'ADDRESS' AND i.proven_at IS NOT NULL) OR (i.kind = 'REGISTRY_TOKEN' AND i.scope IS NOT NULL))`
    const addresses = new Map<string, Array<string>>()
    const tokens = new Map<string, Map<string, Array<string>>>()
    const add = <K>(map: Map<K, Array<string>>, key: K, agentId: string) => {
      const agents = map.get(key) ?? []
      if (!agents.includes(agentId)) agents.push(agentId)
      map.set(key, agents)
    }
    for (const row of rows) {
      if (row.kind === "ADDRESS") add(addresses, row.nativeId, row.agentId)
      else if (row.registry !== null && /^[0-9]+$/.test(row.nativeId)) {
        const ids = tokens.get(row.registry) ?? new Map<string, Array<string>>()
        add(ids, BigInt(row.nativeId).toString(), row.agentId)
        tokens.set(row.registry, ids)
      }
    }
    return { addresses, tokens }
  }).pipe(Effect.orDie)
