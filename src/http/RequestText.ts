/**
 * The text rule of every request string (DESIGN §3, spec §7), checked once at the edge for
 * the path, the query and the JSON body before any handler runs:
 *
 * - no U+0000 (PostgreSQL `text` and `jsonb` cannot hold it: error 22021, a 500 before);
 * - no unpaired UTF-16 surrogate (U+D800-U+DFFF alone), which JSON's `\uD800` escape can
 *   spell (`JSON.parse` accepts it) but UTF-8 and PostgreSQL `jsonb` cannot
 *   (error 22P05, a 500 before);
 * - in the path and query, percent-encoding of valid UTF-8 only (`%FF`, `%ED%A0%80`:
 *   RFC 3986 §2.5 / RFC 3629), where `URLSearchParams` silently substituted U+FFFD.
 *
 * A refusal is a 400 `invalid-request` whose `errors` name each field (`in` and JSON pointer:
 * the path parameter's or query parameter's name, the body member's pointer) and the rule,
 * never the value. Object keys of the body obey the rule too (a `record` stores them).
 */
import type { InvalidParam } from "../../schema/problem.js"
import type { OperationTable } from "../api/policies.js"

/** The rule's wording in problems. */
export const TextRule = "must not contain U+0000 or an unpaired UTF-16 surrogate"
/** The wording for a path or query part that is not percent-encoded UTF-8. */
export const EncodingRule = "must be percent-encoded UTF-8"

/** U+0000, or a surrogate not part of a pair. */
const BadText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether `s` breaks the text rule (holds U+0000 or an unpaired surrogate). */
export const isBadText = (s: string): boolean => BadText.test(s)

/** At most this many entries are reported, as for decode failures. */
const MaxErrors = 20

const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1")

/** Shortens a pointer built from client input (keys may be long). */
const clip = (s: string) => (s.length > 200 ? s.slice(0, 200) + "…" : s)

/**
 * The body fields breaking the text rule. `text` is the body as read; only a body with a
 * `\u` escape can hold U+0000 or a surrogate (raw control characters are not JSON, and
 * decoded UTF-8 has no lone surrogates), so other bodies cost one scan. Malformed JSON
 * is left to the decoder (its own 400).
 */
export const bodyTextErrors = (text: string): ReadonlyArray<InvalidParam> => {
  if (!text.includes("\\u")) return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  const errors: Array<InvalidParam> = []
  const walk = (v: unknown, pointer: string): void => {
    if (errors.length >= MaxErrors) return
    if (typeof v === "string") {
      if (isBadText(v)) errors.push({ in: "body", pointer: clip(pointer), detail: TextRule })
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${pointer}/${i}`))
    } else if (typeof v === "object" && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        if (isBadText(key)) {
          // the key cannot be named without echoing it: the object holding it is
          if (errors.length < MaxErrors) errors.push({ in: "body", pointer: clip(pointer), detail: `keys ${TextRule}` })
          continue
        }
        walk(item, `${pointer}/${escapePointer(key)}`)
      }
    }
  }
  walk(value, "")
  return errors
}

/** Percent-decodes `s` strictly: undefined when it is not percent-encoded UTF-8. */
const strictDecode = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s)
  } catch {
    return undefined
  }
}

/**
 * The path and query fields breaking the text rule or the encoding rule, for `url` (path
 * and query as received). Path parameters are named by the operation's route (`:name`),
 * else by the segment's position; query parameters by their name.
 */
export const urlTextErrors = (
  method: string,
  url: string,
  operations: OperationTable
): ReadonlyArray<InvalidParam> => {
  // fast path: nothing percent-encoded and no raw non-ASCII (Node passes raw bytes as latin1)
  if (!url.includes("%") && !/[^\x20-\x7e]/.test(url)) return []
  const errors: Array<InvalidParam> = []
  const q = url.indexOf("?")
  const path = q === -1 ? url : url.slice(0, q)
  const query = q === -1 ? "" : url.slice(q + 1)
  const segments = path.split("/")
  let names: ReadonlyArray<string> | undefined
  const nameOf = (i: number) => {
    if (names === undefined) {
      const op = operations.find(method, path)
      names = op._tag === "Some" ? op.value.endpoint.path.split("/") : []
    }
    const name = names[i]
    return name !== undefined && name.startsWith(":") ? name.slice(1) : String(i)
  }
  segments.forEach((segment, i) => {
    const decoded = strictDecode(segment)
    if (decoded === undefined) errors.push({ in: "path", pointer: `/${escapePointer(nameOf(i))}`, detail: EncodingRule })
    else if (isBadText(decoded)) errors.push({ in: "path", pointer: `/${escapePointer(nameOf(i))}`, detail: TextRule })
  })
  for (const pair of query === "" ? [] : query.split("&")) {
    if (errors.length >= MaxErrors) break
    const eq = pair.indexOf("=")
    const rawKey = (eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, " ")
    const rawValue = (eq === -1 ? "" : pair.slice(eq + 1)).replace(/\+/g, " ")
    const key = strictDecode(rawKey)
    if (key === undefined || isBadText(key)) {
      // a name that cannot be shown: the query as a whole is named
      errors.push({ in: "query", pointer: "", detail: `parameter names ${key === undefined ? EncodingRule : TextRule}` })
      continue
    }
    const value = strictDecode(rawValue)
    const pointer = clip(`/${escapePointer(key)}`)
    if (value === undefined) errors.push({ in: "query", pointer, detail: EncodingRule })
    else if (isBadText(value)) errors.push({ in: "query", pointer, detail: TextRule })
  }
  // one entry per field
  return errors.filter((e, i) => errors.findIndex((x) => x.in === e.in && x.pointer === e.pointer) === i).slice(0, MaxErrors)
}
