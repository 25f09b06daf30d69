/**
 * The directory's `networks` row of a configured network (layers/Chain.ts `NetworkInfo`): looked up
 * by CAIP-2 id, or added once with viem's short name of the chain as its key (the CAIP-2 id when
 * viem does not know the chain or the key is taken), the family as the reference rows name it
 * (`EVM`, `SVM`) and the chain's display name. Every area that meets a configured network the
 * directory has no row of yet goes through here, so a network gets one row whoever meets it first.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as knownChains from "viem/chains"
import type { NetworkInfo } from "./Chain.js"
import { Ids } from "./Ids.js"

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
 * The id of the `networks` row of `info` (by CAIP-2 id), added when there is none; a concurrent
 * insert of the same network wins. Dies on a storage failure.
 */
export const ensureNetworkRow = (info: NetworkInfo): Effect.Effect<string, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${info.id}`
    const exists = yield* find
    if (exists[0] !== undefined) return exists[0].id
    const key = networkKeyOf(info)
    const taken = yield* sql<{ id: string }>`SELECT id FROM networks WHERE key = ${key}`
    yield* sql`INSERT INTO networks (id, key, family, display_name, caip2)
               VALUES (${yield* (yield* Ids).next}, ${taken.length > 0 ? info.id : key}, ${familyOf(info.family)}, ${info.displayName}, ${info.id})
               ON CONFLICT DO NOTHING`
    const [row] = yield* find
    return row!.id
  }).pipe(Effect.orDie)
