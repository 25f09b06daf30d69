/**
 * Signed claim tokens, the one format of every token this service hands out and later
 * trusts (analytics context tokens, ad-serving tokens): `v1.<claims>.<signature>`,
 * `claims` = base64url of the claims' JSON, `signature` = base64url HMAC-SHA256 over
 * `v1.<claims>` with a key of one purpose (derived from `APP_SECRET`, AppConfig.ts).
 * Signatures are compared in constant time. Pure functions, no I/O.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Either, Option, Schema } from "effect"

const prefix = "v1."

const sign = (key: Buffer, signed: string) => createHmac("sha256", key).update(signed).digest()

/** Signs `claims` (encoded with `schema`) into a token with `key`. */
export const signClaims = <A, I>(key: Buffer, schema: Schema.Schema<A, I>, claims: A): string => {
  const signed = prefix + Buffer.from(JSON.stringify(Schema.encodeSync(schema)(claims))).toString("base64url")
  return `${signed}.${sign(key, signed).toString("base64url")}`
}

/**
 * The claims of `token` when it is well formed, its signature is `key`'s and its
 * claims decode with `schema`; none otherwise (the caller words the refusal). Expiry
 * is the caller's rule.
 */
export const verifyClaims = <A, I>(key: Buffer, schema: Schema.Schema<A, I>, token: string): Option.Option<A> => {
  const dot = token.lastIndexOf(".")
  if (!token.startsWith(prefix) || dot <= prefix.length) return Option.none()
  const signed = token.slice(0, dot)
  const given = Buffer.from(token.slice(dot + 1), "base64url")
  const expected = sign(key, signed)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Option.none()
  const claims = Schema.decodeUnknownEither(Schema.parseJson(schema))(
    Buffer.from(signed.slice(prefix.length), "base64url").toString("utf8")
  )
  return Either.getRight(claims)
}
