/**
 * The in-process cache behind `public-catalog` responses (spec §4.3 x-cache-policy):
 * the protocol catalog with a strong `ETag`, reloaded from the database after
 * {@link CatalogTtlMillis} (by `Clock` time) or when {@link ProtocolCatalogCache}'s
 * `invalidate` is called.
 *
 * How the catalog changes: no API operation writes the `protocols` table; it is
 * loaded by the demo seed (before the server serves) and otherwise changed by
 * operators' SQL or a migration. An in-process writer calls `invalidate`; changes
 * from outside the process are served within the TTL.
 */
import { Effect, Schema } from "effect"
import { createHash } from "node:crypto"
import { ProtocolCatalogItem } from "../../schema/protocols.js"
import { now } from "../../layers/Clock.js"
import { EdgeCache } from "../http/EdgeCache.js"
import { ProtocolsRepo } from "./Repo.js"

/** How long a loaded catalog is served before the next request reloads it, in milliseconds. */
export const CatalogTtlMillis = 5_000

/** A catalog snapshot: the items and the strong ETag of their JSON encoding (`"<sha-256, base64url>"`). */
export interface CatalogSnapshot {
  readonly protocols: ReadonlyArray<ProtocolCatalogItem>
  readonly etag: string
}

const encodeItems = Schema.encodeSync(Schema.Array(ProtocolCatalogItem))

const etagOf = (protocols: ReadonlyArray<ProtocolCatalogItem>) =>
  `"${createHash("sha256").update(JSON.stringify(encodeItems(protocols))).digest("base64url")}"`

export class ProtocolCatalogCache extends Effect.Service<ProtocolCatalogCache>()("agent-directory/ProtocolCatalogCache", {
  effect: Effect.gen(function*() {
    const repo = yield* ProtocolsRepo
    const edge = yield* EdgeCache
    let cached: { readonly snapshot: CatalogSnapshot; readonly until: number } | undefined
    return {
      /** The current catalog: cached, or loaded when the cache is empty or expired. Dies on database failure. */
      current: Effect.flatMap(now, (at): Effect.Effect<CatalogSnapshot> => {
        const hit = cached
        if (hit !== undefined && at.getTime() < hit.until) return Effect.succeed(hit.snapshot)
        return Effect.map(repo.all, (protocols) => {
          const snapshot = { protocols, etag: etagOf(protocols) }
          cached = { snapshot, until: at.getTime() + CatalogTtlMillis }
          return snapshot
        })
      }),
      /**
       * Drops the cached catalog and the edge's copies of its responses: the next
       * request reads the database. Call after writing `protocols`.
       */
      invalidate: Effect.zipRight(Effect.sync(() => {
        cached = undefined
      }), edge.invalidate)
    }
  }),
  dependencies: [ProtocolsRepo.Default]
}) {}
