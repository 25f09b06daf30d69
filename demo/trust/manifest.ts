/**
 * The trust area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoAgents } from "../agents/seed.js"
import { DemoWorkspaces } from "../workspaces/seed.js"
import { DemoFeedback } from "./seed.js"

/** The trust area's demo requests, by operationId. */
export const TrustManifest = {
  // evidence writes: Acme rates Cobalt Trader (operated by the outsider's workspace; Acme's only
  // feedback on it, SAFETY, is withdrawn); the owner votes on the outsider's review of Atlas Research
  Trust_CreateFeedback: {
    as: "owner",
    path: { entityPublicId: DemoAgents[2].id },
    query: {},
    body: {
      workspaceId: DemoWorkspaces.acme.id,
      category: "QUALITY",
      ratingPpm: 850_000,
      title: "Careful with limits now",
      body: "Since the last release Cobalt keeps every trade inside our limits."
    },
    note: "Acme has no live QUALITY feedback on Cobalt Trader, so this creates one (201, revision 1); sent again with " +
      "`expectedRevision: 1` it edits it (200, revision 2)."
  },
  Trust_VoteFeedback: {
    as: "owner",
    path: { feedbackId: DemoFeedback.outsiderAtlas.id },
    query: {},
    body: { vote: "HELPFUL" }
  },
  // wallets and trust (spec §4.3)
  Trust_WithdrawFeedback: {
    as: "owner",
    path: { feedbackId: DemoFeedback.ownerAtlas.id },
    query: {},
    body: { expectedRevision: DemoFeedback.ownerAtlas.revision, reason: "Resolved with the agent's operator." }
  },
  Trust_ListAgentFindings: {
    as: "anonymous",
    path: { entityPublicId: DemoAgents[0].id },
    query: { limit: 10 },
    body: null,
    note: "Atlas Research's tool-safety findings: its old wiki endpoint no longer answers as MCP, and a tool of its " +
      "local files server hides an instruction from the user."
  }
} satisfies Record<string, ManifestOperation>
