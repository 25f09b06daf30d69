/** Conditional requests (RFC 9110 §13): `If-None-Match` against a strong entity tag. */

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
