/**
 * Canonical JSON: object keys sorted at every depth, no whitespace, so that equal
 * values give equal bytes (idempotency fingerprints, cursor bindings). One library
 * (`safe-stable-stringify`) does it for the whole code base.
 */
import { stringify } from "safe-stable-stringify"

/**
 * The canonical JSON text of `value` (keys sorted recursively; `undefined` members
 * dropped as in `JSON.stringify`; `bigint` as a JSON number). `undefined` itself → `""`.
 */
export const canonicalJson = (value: unknown): string => stringify(value) ?? ""
