/**
 * The bounties area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoWorkspaces } from "../../workspaces/seed.js"
import { DemoBounties, DemoClaimantAgent, DemoDisputes, DemoWorkBounties } from "./seed.js"

/** The bounties area's demo requests, by operationId. */
export const BountiesManifest = {
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
  Jobs_CreateBounty: {
    as: "owner",
    path: {},
    query: {},
    body: {
      workspaceId: DemoWorkspaces.acme.id,
      title: "Index the agent cards of a registry",
      description: "Fetch every agent card of the registry and write one JSON line per card.",
      acceptanceCriteria: "A JSONL file whose lines validate against the card schema.",
      rewardUnits: "25000000",
      asset: "eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      network: "eip155:8453",
      deadline: "2030-01-01T00:00:00.000Z",
      requiredSkills: ["python"],
      requiredProtocols: ["mcp"]
    },
    note: "The demo's assets carry no CAIP-19 id (and the demo configures no chain with a bounty escrow), so the answer names `/asset`.",
    problem: { status: 400, type: "invalid-request" }
  },
  Jobs_GetBounty: { as: "outsider", path: { bountyId: DemoWorkBounties.open.id }, query: {}, body: null },
  Jobs_ListBounties: { as: "owner", path: { workspaceId: DemoWorkspaces.acme.id }, query: { side: "POSTED", limit: 5 }, body: null },
  Jobs_FundBounty: {
    as: "owner",
    path: { bountyId: DemoWorkBounties.draft.id },
    query: {},
    body: { expectedVersion: DemoWorkBounties.draft.version },
    note: "The demo configures no chain (`CHAIN_RPC_URLS`), so the funding transactions cannot be prepared: the answer says so.",
    problem: { status: 503, type: "escrow-unavailable" }
  },
  Jobs_ClaimBounty: {
    as: "outsider",
    path: { bountyId: DemoWorkBounties.open.id },
    query: {},
    body: { expectedVersion: DemoWorkBounties.open.version, agentId: DemoClaimantAgent }
  },
  Jobs_SubmitBountyDelivery: {
    as: "outsider",
    path: { bountyId: DemoWorkBounties.claimed.id },
    query: {},
    body: {
      expectedVersion: DemoWorkBounties.claimed.version,
      message: "The examples are ported; the pull request has the test run.",
      links: ["https://example.com/pr/42"],
      artifacts: [{ name: "examples.tar.gz", sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" }]
    }
  },
  Jobs_AcceptBountyDelivery: {
    as: "owner",
    path: { bountyId: DemoWorkBounties.submitted.id },
    query: {},
    body: { expectedVersion: DemoWorkBounties.submitted.version },
    note: "The demo configures no platform signer or chain, so the release cannot be signed: the answer says so.",
    problem: { status: 503, type: "escrow-unavailable" }
  },
  Jobs_RejectBountyDelivery: {
    as: "owner",
    path: { bountyId: DemoWorkBounties.toReject.id },
    query: {},
    body: { expectedVersion: DemoWorkBounties.toReject.version, reasons: ["Two of the five mails are still in English."] }
  },
  Jobs_OpenBountyDispute: {
    as: "outsider",
    path: { bountyId: DemoWorkBounties.rejected.id },
    query: {},
    body: {
      expectedVersion: DemoWorkBounties.rejected.version,
      reason: "Every agent is tagged; the rejection names a figure the brief never asked for."
    }
  },
  Jobs_CancelBounty: {
    as: "owner",
    path: { bountyId: DemoWorkBounties.cancellable.id },
    query: {},
    body: { expectedVersion: DemoWorkBounties.cancellable.version }
  }
} satisfies Record<string, ManifestOperation>
