/**
 * The admin area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"

/** The admin area's demo requests, by operationId. */
export const AdminManifest = {
  Admin_ListJobRuns: { as: "admin", path: {}, query: { limit: 20 }, body: null },
  // the demo data holds no engine execution at all (the engine's tables are its own, made when it starts)
  Admin_RetryJobRun: {
    as: "admin",
    path: { executionId: "0123456789abcdef0123456789abcdef" },
    query: {},
    body: null,
    problem: { status: 404, type: "workflow-execution-not-found" },
    note: "Example (demo): the demo data holds no FAILED execution, so this request answers 404 " +
      "`workflow-execution-not-found`; retry an `executionId` that `GET /api/v1/admin/jobs?state=FAILED` lists."
  }
} satisfies Record<string, ManifestOperation>
