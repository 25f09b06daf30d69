/**
 * The mesh area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAgents } from "../../agents/seed.js"
import { DemoMeshKeys } from "./seed.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"

/** The mesh area's demo requests, by operationId. */
export const MeshManifest = {
  Social_CreateMeshPublisher: {
    as: "owner",
    path: {},
    query: {},
    body: {
      workspaceId: DemoWorkspaces.acme.id,
      entityPublicId: DemoAgents[0].id,
      algorithm: "Ed25519",
      publicKeyBase64: DemoMeshKeys.fresh,
      allowedSignalTypes: ["research.report.published"],
      ratePolicy: { perMinute: 120, burst: 20 }
    }
  }
} satisfies Record<string, ManifestOperation>
