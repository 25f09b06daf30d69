/**
 * Ad-serving tokens (spec §4.2 Growth_RecordAdEvent `token`, 20-2000 chars): minted
 * when an ACTIVE campaign's ad is served into a placement, sent back with each
 * IMPRESSION or CLICK of that ad. A token names the campaign, the placement (an
 * opaque slot name, e.g. `directory.home.strip`), the visitor (an opaque id, never
 * an account id; counted once in `uniqueVisitors`) and its expiry.
 *
 * Wire form: the signed claim token of layers/SignedToken.ts (`v1.<claims>.<signature>`,
 * HMAC-SHA256, base64url) with the `adServing` key (derived from `APP_SECRET`,
 * layers/AppConfig.ts). Who serves ads (our web front end; the demo data and tests)
 * calls {@link mint}; the event operation calls {@link verify}.
 */
import { Effect, Option, Schema } from "effect"
import { signClaims, verifyClaims } from "../../../layers/SignedToken.js"
import { Uuid } from "../../../schema/common.js"
import { InvalidServingToken, ServingTokenExpired } from "./Errors.js"

/** The claims of a serving token. */
export const ServingClaims = Schema.Struct({
  /** The campaign's id. */
  campaign: Uuid,
  /** The slot the ad was served into, 1-200 chars. */
  placement: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  /** Opaque id of the visitor the ad was served to, 1-200 chars. */
  visitor: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  /** Expiry, seconds since the Unix epoch. */
  exp: Schema.Int
})
export type ServingClaims = typeof ServingClaims.Type

/** How long a freshly served ad's events are accepted (1 hour), the default lifetime of {@link mint}. */
export const ServingTokenTtlSeconds = 3600

/**
 * A serving token for `claims` signed with `key` (the `adServing` key of AppConfig).
 * `exp` defaults to {@link ServingTokenTtlSeconds} after `now`.
 */
export const mint = (
  key: Buffer,
  claims: Omit<ServingClaims, "exp"> & { readonly exp?: number },
  now: Date = new Date()
): string =>
  signClaims(key, ServingClaims, {
    ...claims,
    exp: claims.exp ?? Math.floor(now.getTime() / 1000) + ServingTokenTtlSeconds
  })

const problem = (
  Cause: typeof InvalidServingToken | typeof ServingTokenExpired,
  detail: string,
  rule: string
) => new Cause({ detail, errors: [{ in: "body", pointer: "/token", detail: rule }] })

/**
 * The claims of a serving token at `now`. Fails with `InvalidServingToken` (400
 * `invalid-serving-token` (malformed, or the signature is not ours) or
 * `ServingTokenExpired` (400 `serving-token-expired`: signature good, `exp` reached).
 */
export const verify = (key: Buffer, token: string, now: Date): Effect.Effect<ServingClaims, InvalidServingToken | ServingTokenExpired> => {
  const claims = verifyClaims(key, ServingClaims, token)
  if (Option.isNone(claims)) {
    return Effect.fail(problem(InvalidServingToken, "The token is not a serving token of this service.", "must be a serving token signed by this service"))
  }
  if (claims.value.exp * 1000 <= now.getTime()) {
    return Effect.fail(problem(ServingTokenExpired, "The serving token has expired.", "must not be expired"))
  }
  return Effect.succeed(claims.value)
}
