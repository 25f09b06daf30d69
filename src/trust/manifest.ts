/**
 * The trust area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoFeedback } from "./demo.js"

/** The trust area's demo requests, by operationId. */
export const TrustManifest = {
  // wallets and trust (issue 10)
  Trust_WithdrawFeedback: {
    as: "owner",
    path: { feedbackId: DemoFeedback.ownerAtlas.id },
    query: {},
    body: { expectedRevision: DemoFeedback.ownerAtlas.revision, reason: "Resolved with the agent's operator." }
  }
} satisfies Record<string, ManifestOperation>
