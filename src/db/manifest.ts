/**
 * The demo manifest (`npm run --silent demo:manifest`): the demo accounts and API
 * key, and for every operation one request that succeeds on a freshly seeded
 * database. `as` names who sends it: a demo account (signed in, with its CSRF token),
 * `anonymous`, or `apiKey:public`. POST/DELETE requests also need a fresh
 * Idempotency-Key, which the caller supplies.
 */
import { DemoExports, demoContextToken, demoDownloadToken } from "../analytics/demo.js"
import { DemoLaunchRuns } from "../launch/demo.js"
import { DemoMeshKeys } from "../mesh/demo.js"
import { DemoProcurementIntents } from "../procurement/demo.js"
import { DemoConversations, DemoMcpConnections, DemoRuns, DemoRuntimeAgents } from "../runtime/demo.js"
import { DemoFeedback } from "../trust/demo.js"
import { DemoWalletPolicies, DemoWallets } from "../wallets/demo.js"
import { DemoBounties, DemoDisputes } from "../bounties/demo.js"
import { DemoJobSources } from "../partnerJobs/demo.js"
import { DemoAdCampaigns, DemoAdOrders, DemoAdPackageVersions, demoServingToken } from "../ads/demo.js"
import { DemoAccounts, DemoApiKeys, DemoOtherSession } from "../accounts/demo.js"
import { DemoAgents, DemoResolveLocators } from "../agents/demo.js"
import { DemoOffers } from "../services/demo.js"
import { DemoWorkspaces } from "../workspaces/demo.js"

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
    Agents_ListAgents: {
      as: "apiKey:public",
      path: {},
      query: { networks: "base", verificationStates: "VERIFIED", sort: "rank", limit: 10 },
      body: null
    },
    Agents_GetAgent: { as: "anonymous", path: { entityPublicId: DemoAgents[0].id }, query: {}, body: null },
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
    },
    // Runtime and MCP (issue 11)
    Runtime_ListRuntimeTools: { as: "member", path: { entityPublicId: DemoRuntimeAgents.configured }, query: {}, body: null },
    Runtime_PreviewAgentSchedule: {
      as: "member",
      path: { entityPublicId: DemoRuntimeAgents.configured },
      query: {},
      body: { cronExpression: "30 9 * * 1-5", timezone: "Europe/Berlin", count: 5, from: "2026-03-26T00:00:00.000Z" }
    },
    MCP_GetMcpCatalog: {
      as: "member",
      path: { entityPublicId: DemoRuntimeAgents.configured, connectionPublicId: DemoMcpConnections.docs.id },
      query: {},
      body: null
    },
    MCP_BeginMcpOAuth: {
      as: "owner",
      path: { entityPublicId: DemoRuntimeAgents.configured, connectionPublicId: DemoMcpConnections.crm.id },
      query: {},
      body: { scopes: ["crm.read", "crm.write"] }
    },
    // wallets and trust (issue 10)
    Trust_WithdrawFeedback: {
      as: "owner",
      path: { feedbackId: DemoFeedback.ownerAtlas.id },
      query: {},
      body: { expectedRevision: DemoFeedback.ownerAtlas.revision, reason: "Resolved with the agent's operator." }
    },
    Wallets_CancelWalletPolicy: {
      as: "owner",
      path: { policyId: DemoWalletPolicies.prepared.id },
      query: {},
      body: {
        expectedVersion: DemoWalletPolicies.prepared.version,
        reason: "The provider session is no longer needed.",
        confirmation: `CANCEL ${DemoWalletPolicies.prepared.id}`
      }
    },
    Wallets_GetWalletProfileConfiguration: { as: "owner", path: { walletPublicId: DemoWallets.ownerBase.id }, query: {}, body: null },
    // Conversations and runs (issue 11)
    Runtime_SendMessage: {
      as: "member",
      path: { conversationId: DemoConversations.chat.id },
      query: {},
      body: { content: "And the US market?" }
    },
    Runtime_ClearPlaygroundRunData: { as: "owner", path: { runId: DemoRuns[0].id }, query: {}, body: null },
    // issue 9 admin operations (token operations, bounty disputes, partner job sources)
    Growth_ListAdminTokenOperations: { as: "admin", path: {}, query: {}, body: null },
    Jobs_ResolveBountyDispute: {
      as: "admin",
      path: { bountyId: DemoBounties.release.id, disputeId: DemoDisputes.release.id },
      query: {},
      body: {
        resolution: "SPLIT",
        unitsToProvider: "150000000",
        unitsToClient: "100000000",
        reason: "Two of the three milestones were delivered as agreed.",
        expectedVersion: DemoDisputes.release.version,
        dryRun: true
      }
    },
    Jobs_SyncPartnerJobSource: {
      as: "admin",
      path: { sourceId: DemoJobSources.active.id },
      query: {},
      body: { expectedVersion: DemoJobSources.active.version, reason: "Partner fixed their feed", dryRun: false, confirmation: DemoJobSources.active.code }
    },
    // ad campaigns (issue 9); the serving token is signed for the development secret
    Growth_ListAdCampaigns: { as: "member", path: {}, query: {}, body: null },
    Growth_CreateAdCampaign: {
      as: "owner",
      path: {},
      query: {},
      body: {
        workspaceId: DemoWorkspaces.acme.id,
        agentPublicId: DemoAgents[0].id,
        orderId: DemoAdOrders.paid.id,
        packageVersionId: DemoAdPackageVersions.stripV2.id,
        name: "Atlas summer research sprint",
        destinationUrl: "https://atlas.example/summer?utm_source=agent-directory",
        startAt: "2026-07-01T00:00:00.000Z",
        headline: "Research done while you sleep",
        body: "Atlas reads the sources and writes the brief.",
        targets: [{ dimension: "NETWORK", value: "base" }, { dimension: "LANGUAGE", value: "en" }]
      }
    },
    Growth_RecordAdEvent: { as: "anonymous", path: {}, query: {}, body: { token: demoServingToken(), kind: "IMPRESSION" } },
    Growth_ListAdminAdCampaigns: { as: "admin", path: {}, query: {}, body: null },
    Growth_ReviewAdCampaign: {
      as: "admin",
      path: { campaignId: DemoAdCampaigns.submitted.id },
      query: {},
      body: {
        decision: "APPROVE",
        expectedVersion: DemoAdCampaigns.submitted.version,
        decisionCode: "POLICY_OK",
        publicDecision: "The campaign meets the ad policy.",
        privateDecision: "Checked the destination and the claims in the headline.",
        dryRun: true
      }
    }
  } satisfies Record<string, ManifestOperation>
} as const
