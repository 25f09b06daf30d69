/**
 * The procurement area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoAgents } from "../agents/seed.js"
import { DemoProcurementIntents } from "./seed.js"

/** The procurement area's demo requests, by operationId. */
export const ProcurementManifest = {
  Procurement_ResumeProcurementIntent: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id, intentPublicId: DemoProcurementIntents.waiting.id },
    query: {},
    body: {}
  }
} satisfies Record<string, ManifestOperation>
