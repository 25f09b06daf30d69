/**
 * The launch area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoLaunchNetwork, DemoLaunchRuns, DemoLaunchSigner } from "./seed.js"
import { DemoAgents } from "../agents/seed.js"
import { DemoWorkspaces } from "../workspaces/seed.js"

/** The launch area's demo requests, by operationId. */
export const LaunchManifest = {
  // launch, procurement, mesh (spec §4.3)
  Launch_MaterializeLaunchTransaction: {
    as: "owner",
    path: { runId: DemoLaunchRuns.preparing.id },
    query: {},
    body: { expectedVersion: DemoLaunchRuns.preparing.version },
    note: "The demo server configures no chain, so the run's network (a local anvil) has no Identity Registry: 503.",
    problem: { status: 503, type: "launch-venue-unavailable" }
  },
  Launch_CreateLaunchDraft: {
    as: "owner",
    path: {},
    query: {},
    body: { workspaceId: DemoWorkspaces.acme.id, agentId: DemoAgents[0].id, venue: "REGISTRY_GENESIS", network: DemoLaunchNetwork, signerAddress: DemoLaunchSigner }
  },
  Launch_StartLaunchRun: {
    as: "owner",
    path: { launchDraftId: DemoLaunchRuns.preparing.launchDraftId },
    query: {},
    body: {},
    note: "The demo server configures no chain, so the draft's network has no Identity Registry: 422.",
    problem: { status: 422, type: "configuration-missing" }
  },
  Launch_GetLaunchRun: { as: "owner", path: { runId: DemoLaunchRuns.completed.id }, query: {}, body: null },
  Launch_ListLaunchRuns: { as: "owner", path: {}, query: { workspaceId: DemoWorkspaces.acme.id }, body: null }
} satisfies Record<string, ManifestOperation>
