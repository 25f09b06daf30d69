/**
 * Verifying an A2A Agent Card's signatures (A2A `AgentCardSignature`: a JWS, RFC 7515, in the
 * flattened JSON serialization without its payload): the payload is the card without its
 * `signatures` member in the RFC 8785 canonical form (JCS, `canonicalize`), detached.
 *
 * Each signature's key comes from its protected header: `jku` (a JWK Set, RFC 7517 §5, fetched
 * through the guarded outbound client like the card, the key chosen by `kid` and `alg`), else
 * an embedded `jwk`; a key named only in the unprotected header is not used (it is not
 * signed). Algorithms: the asymmetric ones of RFC 7518 and RFC 8037 (never `none` or HMAC).
 *
 * The card's state ({@link CardSignatureState}): UNSIGNED without signatures, VERIFIED when at
 * least one signature verifies (the first such gives `kid` and `jku`), INVALID otherwise (the
 * first signature's `kid`, `jku`): a changed byte of the card, an unreadable key set or header,
 * or a key that does not match all make the card INVALID.
 */
import canonicalize from "canonicalize"
import { Effect, Option } from "effect"
import { createLocalJWKSet, EmbeddedJWK, flattenedVerify, type JSONWebKeySet } from "jose"
import { fetchJsonDocument } from "./SourceFetch.js"

/** What verifying a card's signatures concluded. */
export type CardSignatureState = "VERIFIED" | "INVALID" | "UNSIGNED"

/** The outcome for one card: its state and the signer's key id and key set URL (null when none). */
export interface CardSignatureOutcome {
  readonly state: CardSignatureState
  readonly kid: string | null
  readonly jku: string | null
}

/**
 * The host whose key verified a card (`URL.host`: lower case, a non-default port kept): the
 * `jku`'s host, or for an embedded `jwk` the host of `cardUrl`, the URL the card was fetched
 * from; null unless VERIFIED (or for a URL that does not parse). The trust projection compares
 * it with the agent's proven did:web domains (docs/methodology.md).
 */
export const cardSignerHost = (outcome: CardSignatureOutcome, cardUrl: string): string | null => {
  if (outcome.state !== "VERIFIED") return null
  const url = outcome.jku ?? cardUrl
  return URL.canParse(url) ? new URL(url).host.toLowerCase() : null
}

/** The JWS algorithms a card signature may use. */
export const CardSignatureAlgorithms: ReadonlyArray<string> = [
  "ES256", "ES384", "ES512", "EdDSA", "Ed25519", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"
]

interface ProtectedHeader {
  readonly alg?: unknown
  readonly kid?: unknown
  readonly jku?: unknown
  readonly jwk?: unknown
}

const text = (u: unknown): string | null => (typeof u === "string" && u !== "" ? u : null)

/** The decoded protected header of `encoded` (base64url JSON), or none. */
const protectedHeader = (encoded: string): Option.Option<ProtectedHeader> => {
  try {
    const value = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as unknown
    return typeof value === "object" && value !== null && !Array.isArray(value) ? Option.some(value as ProtectedHeader) : Option.none()
  } catch {
    return Option.none()
  }
}

/** The detached payload of `card`: base64url of the JCS form of the card without `signatures`. */
export const cardSigningPayload = (card: Record<string, unknown>): string => {
  const { signatures: _signatures, ...unsigned } = card
  return Buffer.from(canonicalize(unsigned) ?? "", "utf8").toString("base64url")
}

/**
 * Verifies the signatures of `card` (the JSON value as published). Never fails: a signature
 * that cannot be checked counts as not verifying. Requires `Outbound` (for `jku`).
 */
export const verifyCardSignatures = (card: unknown) =>
  Effect.gen(function*() {
    const record = typeof card === "object" && card !== null && !Array.isArray(card) ? card as Record<string, unknown> : {}
    const signatures = Array.isArray(record.signatures) ? record.signatures as ReadonlyArray<unknown> : []
    if (signatures.length === 0) return { state: "UNSIGNED", kid: null, jku: null } satisfies CardSignatureOutcome
    const payload = cardSigningPayload(record)
    const keySets = new Map<string, Option.Option<JSONWebKeySet>>()
    const keySet = (url: string) =>
      Effect.gen(function*() {
        const known = keySets.get(url)
        if (known !== undefined) return known
        const fetched = yield* fetchJsonDocument(url).pipe(
          Effect.map(({ json }) =>
            typeof json === "object" && json !== null && Array.isArray((json as { keys?: unknown }).keys)
              ? Option.some(json as JSONWebKeySet)
              : Option.none<JSONWebKeySet>()
          ),
          Effect.orElseSucceed(() => Option.none<JSONWebKeySet>())
        )
        keySets.set(url, fetched)
        return fetched
      })
    let first: CardSignatureOutcome | undefined
    for (const entry of signatures) {
      const sig = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>
      const encoded = text(sig.protected)
      const value = text(sig.signature)
      const header = encoded === null ? Option.none<ProtectedHeader>() : protectedHeader(encoded)
      const kid = Option.match(header, { onNone: () => null, onSome: (h) => text(h.kid) })
      const jku = Option.match(header, { onNone: () => null, onSome: (h) => text(h.jku) })
      first ??= { state: "INVALID", kid, jku }
      if (encoded === null || value === null || Option.isNone(header)) continue
      const unprotected = typeof sig.header === "object" && sig.header !== null && !Array.isArray(sig.header)
        ? { header: sig.header as Record<string, unknown> }
        : {}
      const jws = { protected: encoded, signature: value, payload, ...unprotected }
      const options = { algorithms: [...CardSignatureAlgorithms] }
      let verified: boolean
      if (jku !== null) {
        if (!URL.canParse(jku) || new URL(jku).protocol !== "https:" && new URL(jku).protocol !== "http:") continue
        const keys = yield* keySet(jku)
        if (Option.isNone(keys)) continue
        const resolve = createLocalJWKSet(keys.value)
        verified = yield* Effect.promise(() => flattenedVerify(jws, resolve, options).then(() => true, () => false))
      } else if (typeof header.value.jwk === "object" && header.value.jwk !== null) {
        verified = yield* Effect.promise(() => flattenedVerify(jws, EmbeddedJWK, options).then(() => true, () => false))
      } else {
        continue
      }
      if (verified) {
        const embeddedKid = typeof header.value.jwk === "object" && header.value.jwk !== null
          ? text((header.value.jwk as { kid?: unknown }).kid)
          : null
        return { state: "VERIFIED", kid: kid ?? embeddedKid, jku } satisfies CardSignatureOutcome
      }
    }
    return first!
  })
