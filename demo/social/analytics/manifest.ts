/**
 * The analytics area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAgents } from "../../agents/seed.js"
import { DemoExports, demoContextToken, demoDownloadToken } from "./data.js"

/** The analytics area's demo requests, by operationId. */
export const AnalyticsManifest = {
  Social_IssueAnalyticsContextToken: {
    as: "anonymous",
    path: {},
    query: {},
    body: { agentPublicId: DemoAgents[0].id, consent: ["traffic"], visitor: "demo-visitor-1" }
  },
  Social_IngestProductEvent: {
    as: "anonymous",
    path: {},
    query: {},
    body: {
      contextToken: demoContextToken(),
      events: [{
        eventId: "0190ffff-0000-7000-8000-000000000001",
        name: "traffic.page_view",
        occurredAt: "2026-05-31T23:55:00.000Z",
        properties: { path: "/agents/atlas-research" }
      }]
    }
  },
  Social_CreateAnalyticsExport: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id },
    query: {},
    body: { exportType: "TRAFFIC", from: "2026-04-01", to: "2026-04-30", format: "CSV" }
  },
  Social_GetAnalyticsExport: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id, exportId: DemoExports.available.id },
    query: {},
    body: null
  },
  Social_DownloadAnalyticsExport: {
    as: "anonymous",
    path: {},
    query: {},
    body: null,
    headers: { "x-download-token": demoDownloadToken() }
  }
} satisfies Record<string, ManifestOperation>
