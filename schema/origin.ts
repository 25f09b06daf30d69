/**
 * The exact-origin rule (spec §5.4.2): `http(s)://host[:port]` and nothing else —
 * no path (not even `/`), wildcard, credentials, query or fragment. Shared by the
 * API-key allowlists (request bodies) and `ALLOWED_ORIGINS` (configuration).
 */
import { Schema } from "effect"

const OriginPattern = /^https?:\/\/[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/i

/** What an exact origin is, in words (used in problems and configuration errors). */
export const ExactOriginRule =
  "must be an exact http(s) origin (scheme://host[:port]) without path, wildcard, credentials, query or fragment"

/** True when `s` is an exact origin. */
export const isExactOrigin = (s: string): boolean => OriginPattern.test(s)

/** An exact http(s) origin; the decode failure states the rule, never the value sent. */
export const ExactOrigin = Schema.String.pipe(
  Schema.maxLength(300, { message: () => ExactOriginRule }),
  Schema.filter(isExactOrigin, { message: () => ExactOriginRule }),
  Schema.annotations({
    identifier: "Origin",
    description: "Exact browser origin: scheme://host[:port], e.g. https://app.example.com",
    jsonSchema: { format: "uri", pattern: OriginPattern.source, maxLength: 300 },
    examples: ["https://app.example.com", "http://localhost:5173"]
  })
)
