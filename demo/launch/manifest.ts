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
    body: { expectedVersion: DemoLaunchRuns.preparing.version },
    note: "The demo configures no chain, so the run's registry transaction cannot be prepared: 503 launch-venue-unavailable " +
      "(`npm run demo:chain` runs the service on a local chain with the registry deployed).",
    problem: { status: 503, type: "launch-venue-unavailable" }
  }
} satisfies Record<string, ManifestOperation>
