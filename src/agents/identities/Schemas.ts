/**
 * Proof of control of an agent identity: the bodies and results of
 * Agents_CreateIdentityChallenge and Agents_ProveIdentity (src/agents/identities/Api.ts). Shapes are ours (the spec names
 * neither); the locator fields are those of the spec §9 batch line (`LocatorInput`).
 */
import { Schema } from "effect"
import { AgentLocator, VerificationState } from "../../../schema/agents.js"
import { DateTimeZ, StrictStruct, Uuid, WireString } from "../../../schema/common.js"
import { LocatorInput } from "../../../schema/identity.js"
import { WalletRelation } from "../../../schema/walletRelations.js"

/**
 * Body of Agents_CreateIdentityChallenge: the locator to prove, in the fields of the spec §9
 * batch line. `network` is a network key, UUID or CAIP-2 chain id; an EVM address may be a
 * CAIP-10 account id in `nativeId`. Provable kinds: EVM `ADDRESS` and `REGISTRY_TOKEN` (with
 * its `registry`), SVM `ASSET` (its base58 key signs), `DID` (`did:key` Ed25519, `did:web`).
 * `relation` (ADDRESS locators only; absent or null = OWNER): what the address is
 * to the agent (OWNER, OPERATOR, PAYOUT, TREASURY); the message names it, so the signature covers
 * it, and the proof records that wallet-agent relation.
 */
export const CreateIdentityChallengeRequest = StrictStruct({
  ...LocatorInput.fields,
  relation: Schema.optionalWith(Schema.NullOr(WalletRelation), { default: () => null })
}).annotations({
  identifier: "CreateIdentityChallengeRequest"
})

/**
 * A challenge (201): `message` is the exact text to sign (UTF-8; EIP-191 personal_sign for
 * EVM, Ed25519 over its bytes otherwise), valid until `expiresAt` (10 minutes), for one proof.
 */
export const IdentityChallenge = Schema.Struct({
  challengeId: Uuid,
  message: Schema.String,
  expiresAt: DateTimeZ
}).annotations({ identifier: "IdentityChallenge" })
export type IdentityChallenge = typeof IdentityChallenge.Type

/**
 * Body of Agents_ProveIdentity: the challenge and the signature of its message: EVM `0x` +
 * 130 hex (65 bytes, EIP-191); SVM base58 (64 bytes); DID base64url without padding (64 bytes).
 */
export const ProveIdentityRequest = StrictStruct({
  challengeId: Uuid,
  signature: WireString(1, 1024)
}).annotations({ identifier: "ProveIdentityRequest" })

/**
 * The proven locator (201): the agent's registry-bound locator (as on its profile, `provenAt`
 * set), how it was proven (`proofMethod`: EIP191, ERC721_OWNER, ED25519, DID_KEY, DID_WEB) and
 * the agent's `verificationState` after the proof.
 */
export const ProvenIdentity = Schema.Struct({
  ...AgentLocator.fields,
  proofMethod: Schema.Literal("EIP191", "ERC721_OWNER", "ED25519", "DID_KEY", "DID_WEB"),
  verificationState: VerificationState
}).annotations({ identifier: "ProvenIdentity" })
export type ProvenIdentity = typeof ProvenIdentity.Type
export type ProofMethod = ProvenIdentity["proofMethod"]
