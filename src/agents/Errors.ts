/**
 * The problem causes of the agents area's own commands: registration, and proving control of
 * an identity (spec §7: 410 challenge expired, 422 proof invalid; each names the rule, never the
 * value). The shared ones are in `schema/errors.ts`. Each is one `Schema.TaggedError` (see `Problem` in
 * `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 409 `slug-taken`: another agent holds the `canonicalSlug` (slugs are unique across the directory). */
export class SlugTaken extends Problem<SlugTaken>()("SlugTaken", {
  status: 409, type: "slug-taken", meaning: "`canonicalSlug` is taken by another agent"
}) {}

/** 404 `identity-challenge-not-found`: no challenge of this id for this agent (or purged after expiry). */
export class IdentityChallengeNotFound extends Problem<IdentityChallengeNotFound>()("IdentityChallengeNotFound", {
  status: 404, type: "identity-challenge-not-found", meaning: "no such challenge for this agent (an expired one is purged)"
}) {}
/** 409 `identity-challenge-used`: the challenge already proved its locator; a challenge proves once. */
export class IdentityChallengeUsed extends Problem<IdentityChallengeUsed>()("IdentityChallengeUsed", {
  status: 409, type: "identity-challenge-used", meaning: "the challenge was already used; a challenge proves once"
}) {}
/** 422 `signature-invalid` and `signer-not-token-owner` (schema/errors.ts: launch runs raise them too). */
export { SignatureInvalid, SignerNotTokenOwner } from "../../schema/errors.js"
/** 422 `did-not-resolvable`: the did:web document could not be fetched or has no usable Ed25519 key. */
export class DidNotResolvable extends Problem<DidNotResolvable>()("DidNotResolvable", {
  status: 422, type: "did-not-resolvable", meaning: "the DID document could not be read or names no Ed25519 key"
}) {}
/** 503 `chain-rpc-unavailable` (schema/errors.ts). */
export { ChainRpcUnavailable } from "../../schema/errors.js"
