/**
 * The wallets area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoWalletPolicies, DemoWallets } from "./demo.js"

/** The wallets area's demo requests, by operationId. */
export const WalletsManifest = {
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
  Wallets_GetWalletProfileConfiguration: { as: "owner", path: { walletPublicId: DemoWallets.ownerBase.id }, query: {}, body: null }
} satisfies Record<string, ManifestOperation>
