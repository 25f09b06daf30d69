/**
 * The workspaces area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts). Requests run in this order: the lifecycle
 * entries act on the outsider's workspace (version 1 → 2 update → 3 suspend → 4 resume →
 * CLOSING), which no other area's demo request uses.
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoWorkspaces } from "./seed.js"

const outsiderLab = { workspacePublicId: DemoWorkspaces.outsider.id }

/** The workspaces area's demo requests, by operationId. */
export const WorkspacesManifest = {
  Workspaces_GetWorkspace: { as: "member", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 50 }, body: null },
  Workspaces_CreateWorkspace: { as: "member", path: {}, query: {}, body: { name: "Mel's Side Project" } },
  Workspaces_ListWorkspaces: { as: "owner", path: {}, query: { limit: 25 }, body: null },
  Workspaces_UpdateWorkspace: { as: "outsider", path: outsiderLab, query: {}, body: { name: "Outsider Labs", expectedVersion: 1 } },
  Workspaces_SuspendWorkspace: {
    as: "admin",
    path: outsiderLab,
    query: {},
    body: { reason: "Suspected abuse reported; under review." }
  },
  Workspaces_ResumeWorkspace: { as: "admin", path: outsiderLab, query: {}, body: { reason: "Review finished: no abuse." } },
  Workspaces_CloseWorkspace: { as: "outsider", path: outsiderLab, query: {}, body: { expectedVersion: 4 } }
} satisfies Record<string, ManifestOperation>
