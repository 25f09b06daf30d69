/**
 * The launch area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoLaunchRuns } from "./seed.js"

/** The launch area's demo requests, by operationId. */
export const LaunchManifest = {
  // launch, procurement, mesh (spec §4.3)
  Launch_MaterializeLaunchTransaction: {
    as: "owner",
    path: { runId: DemoLaunchRuns.preparing.id },
    query: {},
    body: { expectedVersion: DemoLaunchRuns.preparing.version }
  }
} satisfies Record<string, ManifestOperation>
