/** Conditional requests (RFC 9110 §13): `If-None-Match` against a strong entity tag. */
import { createHash } from "node:crypto"

/**
 * True when an `If-None-Match` value matches `etag` (RFC 9110 §13.1.2: `*`, or a
 * listed entity tag by weak comparison).
 */
export const noneMatch = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim()
    return t === "*" || t.replace(/^W\//, "") === etag
  })

/**
 * A strong entity tag (RFC 9110 §8.8.3) of a representation's exact bytes: the quoted
 * base64url SHA-256 of `body` (a string is taken as its UTF-8 bytes), so it changes
 * exactly when a byte of the body does.
 */
export const strongEtag = (body: string | Uint8Array): string =>
  `"${createHash("sha256").update(body).digest("base64url")}"`
