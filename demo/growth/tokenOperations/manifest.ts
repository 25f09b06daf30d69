/**
 * The tokenOperations area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"

/** The tokenOperations area's demo requests, by operationId. */
export const TokenOperationsManifest = {
  // admin operations (spec §4.2: token operations, bounty disputes, partner job sources)
  Growth_ListAdminTokenOperations: { as: "admin", path: {}, query: {}, body: null }
} satisfies Record<string, ManifestOperation>
