/**
 * The upstream sources' entries of the demo manifest (`demo/manifest.ts`): for each of their
 * operations, one request that succeeds on a freshly seeded database.
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoUpstreamSources } from "./seed.js"

/** The upstream sources' demo requests, by operationId. */
export const UpstreamSourcesManifest = {
  Partners_CreateUpstreamSource: {
    as: "admin",
    path: {},
    query: {},
    body: { kind: "WELL_KNOWN", displayName: "Partner agents", domains: ["agents.example.com"], syncIntervalSeconds: 86400 },
    note: "The source's first sync is due at once; `agents.example.com` does not resolve, so it records a failure."
  },
  Partners_ListUpstreamSources: { as: "admin", path: {}, query: {}, body: null },
  Partners_SyncUpstreamSource: {
    as: "admin",
    path: { sourceId: DemoUpstreamSources.official.id },
    query: {},
    body: { expectedVersion: DemoUpstreamSources.official.version, full: false },
    note: "Starts a sync of the official registry (in tests the outbound guard refuses it, which the source records as a failure)."
  }
} satisfies Record<string, ManifestOperation>
