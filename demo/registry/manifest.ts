/**
 * The registry area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database.
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoMcpServers } from "./seed.js"

/** The registry area's demo requests, by operationId. */
export const RegistryManifest = {
  Registry_ListServers: { as: "anonymous", path: {}, query: { version: "latest", limit: 10 }, body: null },
  Registry_ListServerVersions: { as: "anonymous", path: { serverName: DemoMcpServers.beacon.name }, query: {}, body: null },
  Registry_GetServerVersion: {
    as: "anonymous",
    path: { serverName: DemoMcpServers.beacon.name, version: "latest" },
    query: {},
    body: null
  }
} satisfies Record<string, ManifestOperation>
