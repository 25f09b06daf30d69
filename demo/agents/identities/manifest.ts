/**
 * Demo-manifest entries of identity proofs (`demo/manifest.ts`): one request per
 * operation that succeeds on a freshly seeded database (checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../../DemoArea.js"
import { DemoAgents } from "../seed.js"
import { DemoProofs } from "./seed.js"

/** The identity proofs' demo requests, by operationId. */
export const AgentIdentitiesManifest = {
  Agents_CreateIdentityChallenge: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id },
    query: {},
    body: DemoProofs.challengeRequest,
    note: "Atlas Research (operated by Acme) asks to prove Hardhat account 1 on Base, the network named by CAIP-2."
  },
  Agents_ProveIdentity: {
    as: "owner",
    path: { entityPublicId: DemoAgents[0].id },
    query: {},
    body: { challengeId: DemoProofs.challenge.id, signature: DemoProofs.challenge.signature },
    note: "The demo challenge (valid until 2036) signed by the public Hardhat account 0 key: Atlas's address on Base is proven."
  }
} satisfies Record<string, ManifestOperation>
