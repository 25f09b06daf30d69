/**
 * The networks area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"

/** The networks area's demo requests, by operationId. */
export const NetworksManifest = {
  Networks_ListNetworks: { as: "apiKey:public", path: {}, query: {}, body: null }
} satisfies Record<string, ManifestOperation>
