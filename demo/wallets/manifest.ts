/**
 * The wallets area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import { DemoLaunchRuns } from "../launch/seed.js"
import type { ManifestOperation } from "../DemoArea.js"
import { DemoAgents } from "../agents/seed.js"
import { DemoWorkspaces } from "../workspaces/seed.js"
import { DemoWalletPolicies, DemoWalletRegistration, DemoWallets } from "./seed.js"

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
  Wallets_GetWalletProfileConfiguration: { as: "owner", path: { walletPublicId: DemoWallets.ownerBase.id }, query: {}, body: null },
  Wallets_RegisterWallet: {
    as: "owner",
    path: {},
    query: {},
    body: { workspaceId: DemoWorkspaces.acme.id, ...DemoWalletRegistration },
    note: "Development account 5 proves its Base address with a Sign-In with Ethereum message for directory.test."
  },
  Wallets_ListWallets: { as: "owner", path: {}, query: { workspaceId: DemoWorkspaces.acme.id, limit: 10 }, body: null },
  Wallets_UpdateWalletProfile: {
    as: "owner",
    path: { walletPublicId: DemoWallets.ownerBare.id },
    query: {},
    body: { displayName: "Olive's spare", bio: null, visibility: "PUBLIC", favoriteCollectionVisibility: "PRIVATE" },
    note: "The owner's second Base wallet has no profile yet: it is created (version 1) and published."
  },
  Wallets_GetWalletPublicProfile: {
    as: "anonymous",
    path: { network: "base", address: DemoWallets.ownerBase.address },
    query: {},
    body: null
  },
  Wallets_FollowWallet: {
    as: "member",
    path: { network: "eip155:8453", address: DemoWallets.outsider.address },
    query: {},
    body: null,
    note: "Mel Member follows Otto's public Base wallet profile."
  },
  Wallets_UnfollowWallet: {
    as: "owner",
    path: { network: "base", address: DemoWallets.outsider.address },
    query: {},
    body: null
  },
  Wallets_CreateWalletPolicy: {
    as: "owner",
    path: { walletPublicId: DemoWallets.ownerBase.id },
    query: {},
    body: {
      phase: "CREATE",
      rules: {
        allowedNetworks: ["eip155:8453"],
        allowedContracts: ["0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"],
        allowedMethods: ["transfer(address,uint256)", "0x095ea7b3"],
        perTransactionLimit: "1000000000",
        perDayLimit: "5000000000"
      }
    },
    note: "The owner's Base wallet may send USDC on Base only: transfer and approve, up to 1 000 USDC a transaction, 5 000 a day."
  },
  Wallets_GetTransactionIntent: { as: "owner", path: { intentId: DemoLaunchRuns.signing.intent! }, query: {}, body: null },
  Wallets_SubmitTransactionIntent: {
    as: "owner",
    path: { intentId: DemoLaunchRuns.signing.intent! },
    query: {},
    body: { signedTransaction: "0x02" },
    note: "The demo cannot hold the signature of a local chain's wallet: these bytes are not an EIP-1559 transaction, so the answer names the field.",
    problem: { status: 422, type: "signed-transaction-mismatch" }
  },
  Wallets_GetWalletPolicy: { as: "owner", path: { policyId: DemoWalletPolicies.complete.id }, query: {}, body: null },
  Wallets_ListAgentWallets: {
    as: "anonymous",
    path: { entityPublicId: DemoAgents[1].id },
    query: { limit: 10 },
    body: null,
    note: "Beacon Monitor's wallets: its PAYOUT address on Base, proven by signature, held by the demo owner's wallet."
  },
  Wallets_ListWalletAgents: {
    as: "apiKey:public",
    path: { walletPublicId: DemoWallets.beaconPayout.id },
    query: {},
    body: null,
    note: "The agents of the demo owner's Base wallet 0x3C44…93BC: Beacon Monitor, relation PAYOUT (SIGNATURE)."
  }
} satisfies Record<string, ManifestOperation>
