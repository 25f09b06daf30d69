/**
 * How old an observed catalog is, stated in its `cacheMetadata` (spec §2.16: any JSON)
 * so that a catalog past its `expiresAt` is never served as fresh: MCP_GetMcpCatalog
 * adds to what the observation recorded
 *
 * - `ageSeconds`: whole seconds since `observedAt` (as HTTP's `Age`, RFC 9111 §5.1);
 * - `stale`: true once `expiresAt` has passed;
 * - `refreshing`: true when this read started (or found started) a fetch of a fresh catalog.
 */
import type { StoredCatalog } from "../Repo.js"

/** The staleness of `catalog` at `at`. */
export const isStale = (catalog: Pick<StoredCatalog, "expiresAt">, at: Date): boolean =>
  catalog.expiresAt !== null && catalog.expiresAt.getTime() <= at.getTime()

/** `catalog`'s cache metadata with its age at `at` stated (see the module's description). */
export const statedCacheMetadata = (catalog: StoredCatalog, at: Date, refreshing: boolean): Record<string, unknown> => {
  const recorded = catalog.cacheMetadata
  const base = typeof recorded === "object" && recorded !== null && !Array.isArray(recorded)
    ? recorded as Record<string, unknown>
    : recorded === null || recorded === undefined ? {} : { recorded }
  return {
    ...base,
    ageSeconds: Math.max(0, Math.floor((at.getTime() - catalog.observedAt.getTime()) / 1000)),
    stale: isStale(catalog, at),
    refreshing
  }
}
