/**
 * The workspaces area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts). The lifecycle entries act on workspaces no
 * other area's demo request uses, so that they succeed in this order and in the order of
 * `/openapi.json`'s paths alike: the outsider's (update at version 1, then suspend and resume,
 * which need no version) and Frozen Holdings (closed by its owner at version 1).
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
  Workspaces_CloseWorkspace: {
    as: "owner",
    path: { workspacePublicId: DemoWorkspaces.locked.id },
    query: {},
    body: { expectedVersion: 1 }
  },
  Workspaces_ListAuditEvents: { as: "owner", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 20 }, body: null }
} satisfies Record<string, ManifestOperation>
