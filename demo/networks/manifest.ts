/**
 * The networks area's entries of the demo manifest (`demo/manifest.ts`): one request per
 * operation that succeeds on a freshly seeded database (checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"

/** The networks area's demo requests, by operationId. */
export const NetworksManifest = {
  Networks_ListNetworks: { as: "anonymous", path: {}, query: {}, body: null }
} satisfies Record<string, ManifestOperation>
