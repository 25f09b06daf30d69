/**
 * Analytics context tokens (spec §4.3 `contextToken`, 32-2048 chars): who the events
 * come from, which agent they are about by default, what the visitor consented to,
 * and until when the token is good. Issued by whoever renders the agent's page (our
 * web front end, or {@link mintContextToken} in the demo data and tests); verified by
 * Social_IngestProductEvent.
 *
 * Wire form: the signed claim token of layers/SignedToken.ts (`v1.<claims>.<signature>`)
 * with the `analyticsContext` key (derived from `APP_SECRET`, layers/AppConfig.ts).
 */
import { Effect, Option, Schema } from "effect"
import { signClaims, verifyClaims } from "../../../layers/SignedToken.js"
import { Uuid } from "../../../schema/common.js"
import { ContextTokenExpired, InvalidContextToken } from "./Errors.js"

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

/** Signs `claims` into a context token with `key` (the `analyticsContext` key of AppConfig). */
export const mintContextToken = (key: Buffer, claims: ContextClaims): string => signClaims(key, ContextClaims, claims)

const invalid = new InvalidContextToken({
  detail: "The contextToken is not a valid context token.",
  errors: [{ in: "body", pointer: "/contextToken", detail: "must be a context token signed by this service" }]
})

/**
 * Verifies a context token at `now`. Fails with `InvalidContextToken` (400)
 * (malformed, or the signature is not ours) or `ContextTokenExpired` (401)
 * (signature good, `exp` reached: the client should fetch a fresh token).
 */
export const verifyContextToken = (key: Buffer, token: string, now: Date): Effect.Effect<ContextClaims, InvalidContextToken | ContextTokenExpired> => {
  const claims = verifyClaims(key, ContextClaims, token)
  if (Option.isNone(claims)) return Effect.fail(invalid)
  if (claims.value.exp * 1000 <= now.getTime()) {
    return Effect.fail(new ContextTokenExpired({ detail: "The contextToken has expired." }))
  }
  return Effect.succeed(claims.value)
}
