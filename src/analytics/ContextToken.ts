/**
 * Analytics context tokens (spec §4.3 `contextToken`, 32-2048 chars): who the events
 * come from, which agent they are about by default, what the visitor consented to,
 * and until when the token is good. Issued by whoever renders the agent's page (our
 * web front end, or {@link mintContextToken} in the demo data and tests); verified by
 * Social_IngestProductEvent.
 *
 * Wire form: `v1.<claims>.<signature>`, `claims` = base64url of the claims' JSON,
 * `signature` = base64url HMAC-SHA256 over `v1.<claims>` with the `analyticsContext`
 * key (derived from `APP_SECRET`, layers/AppConfig.ts).
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Effect, Either, Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { BadRequest, Unauthorized } from "../../schema/problem.js"

/** The claims of a context token. */
export const ContextClaims = Schema.Struct({
  /** Opaque id of the visitor or client (never an account id), 1-200 chars. */
  sub: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  /** The agent (entity public id) events are about unless an event names another; null = none. */
  agent: Schema.NullOr(Uuid),
  /** Event categories (first word of an event name) the visitor consented to. */
  consent: Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40))).pipe(Schema.maxItems(20)),
  /** Expiry, seconds since the Unix epoch. */
  exp: Schema.Int
})
export type ContextClaims = typeof ContextClaims.Type

const prefix = "v1."

const sign = (key: Buffer, signed: string) => createHmac("sha256", key).update(signed).digest()

/** Signs `claims` into a context token with `key` (the `analyticsContext` key of AppConfig). */
export const mintContextToken = (key: Buffer, claims: ContextClaims): string => {
  const signed = prefix + Buffer.from(JSON.stringify(Schema.encodeSync(ContextClaims)(claims))).toString("base64url")
  return `${signed}.${sign(key, signed).toString("base64url")}`
}

const decodeClaims = Schema.decodeUnknownEither(Schema.parseJson(ContextClaims))

const invalid = new BadRequest({
  kind: "invalid-context-token",
  detail: "The contextToken is not a valid context token.",
  errors: [{ in: "body", pointer: "/contextToken", detail: "must be a context token signed by this service" }]
})

/**
 * Verifies a context token at `now`. Fails with `BadRequest` `invalid-context-token`
 * (malformed, or the signature is not ours) or `Unauthorized` `context-token-expired`
 * (signature good, `exp` reached: the client should fetch a fresh token).
 */
export const verifyContextToken = (key: Buffer, token: string, now: Date): Effect.Effect<ContextClaims, BadRequest | Unauthorized> => {
  const dot = token.lastIndexOf(".")
  if (!token.startsWith(prefix) || dot <= prefix.length) return Effect.fail(invalid)
  const signed = token.slice(0, dot)
  const given = Buffer.from(token.slice(dot + 1), "base64url")
  const expected = sign(key, signed)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Effect.fail(invalid)
  const claims = decodeClaims(Buffer.from(signed.slice(prefix.length), "base64url").toString("utf8"))
  if (Either.isLeft(claims)) return Effect.fail(invalid)
  if (claims.right.exp * 1000 <= now.getTime()) {
    return Effect.fail(new Unauthorized({ kind: "context-token-expired", detail: "The contextToken has expired." }))
  }
  return Effect.succeed(claims.right)
}
