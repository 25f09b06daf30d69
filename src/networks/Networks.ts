/**
 * The configured networks (layers/Chain.ts `Chain.networks`) as the directory names them: each
 * has a `networks` row (id, key, family, display name, CAIP-2 id), ensured at start-up by
 * {@link ensureNetworkRows} so activity items and identities can reference it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as knownChains from "viem/chains"
import { Chain, type NetworkInfo } from "../../layers/Chain.js"
import { Ids } from "../../layers/Ids.js"
import type { NetworkItem } from "./Schemas.js"

/** viem's export name of each known chain id (the last export of an id wins, as in layers/Chain.ts), in kebab case. */
const viemKeys = new Map<number, string>(
  Object.entries(knownChains as Record<string, unknown>)
    .filter(([, c]) => typeof c === "object" && c !== null && typeof (c as { id?: unknown }).id === "number")
    .map(([name, c]) => [(c as { id: number }).id, name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()] as const)
)

/** The key a new `networks` row gets: viem's short name of the chain, else the CAIP-2 id. */
export const networkKeyOf = (info: NetworkInfo): string => (info.chainId === null ? undefined : viemKeys.get(info.chainId)) ?? info.id

/** The directory's family of a CAIP-2 namespace (`EVM` for `eip155`, as the reference rows). */
export const familyOf = (namespace: string): string => namespace === "eip155" ? "EVM" : namespace === "solana" ? "SVM" : namespace.toUpperCase()

/**
 * Inserts a `networks` row for every configured network that has none (by CAIP-2 id);
 * idempotent. A key already taken by another row falls back to the CAIP-2 id. Dies on a
 * storage failure.
 */
export const ensureNetworkRows: Effect.Effect<void, never, Chain | SqlClient.SqlClient | Ids> = Effect.gen(function*() {
  const chain = yield* Chain
  const sql = yield* SqlClient.SqlClient
  const ids = yield* Ids
  for (const info of chain.networks) {
    const exists = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${info.id}`
    if (exists.length > 0) continue
    const key = networkKeyOf(info)
    const taken = yield* sql<{ id: string }>`SELECT id FROM networks WHERE key = ${key}`
    yield* sql`INSERT INTO networks (id, key, family, display_name, caip2)
               VALUES (${yield* ids.next}, ${taken.length > 0 ? info.id : key}, ${familyOf(info.family)}, ${info.displayName}, ${info.id})
               ON CONFLICT DO NOTHING`
  }
}).pipe(Effect.orDie)

/** The Networks area's service. */
export class Networks extends Effect.Service<Networks>()("agent-directory/Networks", {
  effect: Effect.gen(function*() {
    const chain = yield* Chain
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const ensure = Effect.provideService(ensureNetworkRows, Ids, ids)
    // the rows exist from start-up on (activity items reference them)
    yield* ensure
    return {
      /** The configured networks with their rows (a network whose row is missing is ensured first). Dies on storage failure. */
      list: Effect.gen(function*() {
        if (chain.networks.length === 0) return []
        const rows = () =>
          sql<{ id: string; key: string; family: string; caip2: string }>`
            SELECT id, key, family, caip2 FROM networks WHERE caip2 IN ${sql.in(chain.networks.map((n) => n.id))}`
        let found = yield* rows()
        if (found.length < chain.networks.length) {
          yield* ensure
          found = yield* rows()
        }
        const byCaip2 = new Map(found.map((r) => [r.caip2, r]))
        return chain.networks.flatMap((info): ReadonlyArray<NetworkItem> => {
          const row = byCaip2.get(info.id)
          return row === undefined ? [] : [{
            publicId: row.id,
            network: info.id,
            key: row.key,
            family: row.family,
            displayName: info.displayName,
            explorerUrl: info.explorerUrl,
            confirmations: info.confirmations
          }]
        })
      }).pipe(Effect.orDie)
    }
  })
}) {}
