/**
 * The demo manifest (`npm run --silent demo:manifest`): the demo accounts and API
 * key, and for every operation one request that succeeds on a freshly seeded
 * database. `as` names who sends it: a demo account (signed in, with its CSRF token),
 * `anonymous`, or `apiKey:public`. POST/DELETE requests also need a fresh
 * Idempotency-Key, which the caller supplies.
 */
import { DemoExports, demoContextToken, demoDownloadToken } from "./demo/analytics.js"
import { DemoAccounts, DemoAgents, DemoApiKeys, DemoOffers, DemoOtherSession, DemoResolveLocators, DemoWorkspaces } from "./demo.js"
import { DemoLaunchRuns } from "./demo/launch.js"
import { DemoMeshKeys } from "./demo/mesh.js"
import { DemoProcurementIntents } from "./demo/procurement.js"

/** One request of the manifest. */
export interface ManifestOperation {
  readonly as: "admin" | "owner" | "member" | "anonymous" | "apiKey:public"
  readonly path: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string | number>>
  readonly body: unknown
  /** Request headers besides the credential's and Idempotency-Key (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>
}

const credentials = (name: keyof typeof DemoAccounts) => ({
  email: DemoAccounts[name].email,
  password: DemoAccounts[name].password
})

/** The manifest document. */
export const demoManifest = {
  accounts: {
    admin: credentials("admin"),
    owner: credentials("owner"),
    member: credentials("member"),
    outsider: credentials("outsider")
  },
  apiKeys: {
    public: { key: DemoApiKeys.public.key, scopes: [...DemoApiKeys.public.scopes] }
  },
  operations: {
    Accounts_SignIn: { as: "anonymous", path: {}, query: {}, body: credentials("owner") },
    Accounts_GetMe: { as: "member", path: {}, query: {}, body: null },
    Accounts_ListSessions: { as: "owner", path: {}, query: {}, body: null },
    Accounts_RevokeSession: { as: "owner", path: { sessionId: DemoOtherSession.id }, query: {}, body: null },
    Accounts_CreateApiKey: {
      as: "owner",
      path: { workspacePublicId: DemoWorkspaces.acme.id },
      query: {},
      body: { name: "Partner dashboard", scopes: ["public:read"], allowedOrigins: ["https://dashboard.example.com"] }
    },
    Accounts_ListApiKeys: { as: "owner", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: {}, body: null },
    Accounts_RevokeApiKey: {
      as: "owner",
      path: { workspacePublicId: DemoWorkspaces.acme.id, apiKeyPublicId: DemoApiKeys.paused.id },
      query: {},
      body: null
    },
    Admin_ListJobRuns: { as: "admin", path: {}, query: { limit: 20 }, body: null },
    Agents_ListFavoriteAgents: { as: "owner", path: {}, query: { limit: 10 }, body: null },
    Agents_ResolveAgentIdentities: { as: "apiKey:public", path: {}, query: {}, body: { locators: DemoResolveLocators } },
    // analytics and activity (issue 11); the demo tokens are signed for the development secret
    Agents_GetPublicAgentActivity: {
      as: "anonymous",
      path: { entityPublicId: DemoAgents[0].id },
      query: { limit: 5, sourceKinds: "CHAIN_OBSERVATION" },
      body: null
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
    },
    Commerce_ListCommerceOrders: { as: "owner", path: {}, query: {}, body: null },
    Protocols_GetProtocolCatalog: { as: "apiKey:public", path: {}, query: {}, body: null },
    Services_PublishServiceOffer: {
      as: "owner",
      path: { offerId: DemoOffers.starter.id },
      query: {},
      body: { version: DemoOffers.starter.version }
    },
    Workspaces_GetWorkspace: { as: "member", path: { workspacePublicId: DemoWorkspaces.acme.id }, query: { limit: 50 }, body: null },
    // launch, procurement, mesh (issue 10)
    Launch_MaterializeLaunchTransaction: {
      as: "owner",
      path: { runId: DemoLaunchRuns.preparing.id },
      query: {},
      body: { expectedVersion: DemoLaunchRuns.preparing.version }
    },
    Procurement_ResumeProcurementIntent: {
      as: "owner",
      path: { entityPublicId: DemoAgents[0].id, intentPublicId: DemoProcurementIntents.waiting.id },
      query: {},
      body: {}
    },
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
} as const
