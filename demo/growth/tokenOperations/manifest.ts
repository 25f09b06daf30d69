/**
 * The tokenOperations area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAssets } from "../../common.js"
import { DemoTokenOperations } from "./seed.js"

/** The tokenOperations area's demo requests, by operationId. */
export const TokenOperationsManifest = {
  // admin operations (spec §4.2: token operations, bounty disputes, partner job sources)
  Growth_ListAdminTokenOperations: { as: "admin", path: {}, query: {}, body: null },
  Growth_CreateTokenOperation: {
    as: "admin",
    path: {},
    query: {},
    body: {
      kind: "REWARD",
      network: "base",
      assetId: DemoAssets.usdc.id,
      units: "2500000",
      destination: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      publicSummary: "Monthly reward for the top-ranked agent"
    },
    note: "The demo configures no chain, so an operation cannot be planned against its treasury token: 422 configuration-missing (`npm run demo:chain` runs the service on a local chain).",
    problem: { status: 422, type: "configuration-missing" }
  },
  Growth_ApproveTokenOperation: {
    as: "admin",
    path: { operationId: DemoTokenOperations[3]!.id },
    query: {},
    body: { expectedVersion: 1 },
    note: "The demo configures no chain, so approving cannot prepare the transfer: 422 configuration-missing (`npm run demo:chain` runs the service on a local chain).",
    problem: { status: 422, type: "configuration-missing" }
  },
  Growth_CancelTokenOperation: {
    as: "admin",
    path: { operationId: DemoTokenOperations[2]!.id },
    query: {},
    body: { expectedVersion: 1 }
  }
} satisfies Record<string, ManifestOperation>
