/**
 * The workspaces area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoWorkspaces } from "./seed.js"

/** The workspaces area's demo requests, by operationId. */
export const WorkspacesManifest = {
  Workspaces_GetWorkspace: { as: "member", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 50 }, body: null },
  Workspaces_ListAuditEvents: { as: "owner", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 20 }, body: null }
} satisfies Record<string, ManifestOperation>
