/**
 * The configured networks (layers/Chain.ts `Chain.networks`) as the directory names them: each
 * has a `networks` row (id, key, family, display name, CAIP-2 id), ensured at start-up by
 * {@link ensureNetworkRows} so activity items and identities can reference it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Chain } from "../../layers/Chain.js"
import { Ids } from "../../layers/Ids.js"
import { ensureNetworkRow } from "../../layers/NetworkRows.js"
import type { NetworkItem } from "./Schemas.js"

/**
 * Inserts a `networks` row for every configured network that has none (by CAIP-2 id);
 * idempotent. A key already taken by another row falls back to the CAIP-2 id. Dies on a
 * storage failure.
 */
export const ensureNetworkRows: Effect.Effect<void, never, Chain | SqlClient.SqlClient | Ids> = Effect.gen(function*() {
  const chain = yield* Chain
  for (const info of chain.networks) yield* ensureNetworkRow(info)
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
