/**
 * Common contract types (spec §2.1). Schemas only, no I/O.
 *
 * Wire shapes are strings and integers; where the domain needs a richer type
 * (Date for date-times, bigint for units) the schema transforms between them.
 */
import { Equivalence, JSONSchema, ParseResult, Schema } from "effect"

/**
 * The decode-failure message of a request field: the rule it breaks, never the value
 * sent (DESIGN §3: a problem names the field and the rule). `override` keeps the
 * default formatter (which prints the actual value) out of every nested failure.
 */
export const rule = (text: string) => ({ message: () => ({ message: text, override: true }) })

/**
 * uuid (spec §2.1): versions 1-8 with the RFC 4122 variant, or the nil UUID, or
 * the all-f (max) UUID. Case-insensitive on input; the database returns lowercase.
 */
const UuidPattern =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$/
export const Uuid = Schema.String.pipe(
  Schema.pattern(UuidPattern),
  Schema.annotations({
    ...rule("must be a uuid"),
    identifier: "Uuid",
    // the JSON Schema of a refinement replaces the pattern's, so both are stated
    jsonSchema: { format: "uuid", pattern: UuidPattern.source },
    description: "UUID (versions 1-8, nil or max)"
  })
)
export type Uuid = typeof Uuid.Type

const DateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/
const DateTimeString = Schema.String.pipe(
  Schema.pattern(DateTimePattern),
  Schema.annotations({
    jsonSchema: { format: "date-time", pattern: DateTimePattern.source },
    description: "ISO 8601 UTC timestamp ending in Z"
  })
)

const MinWireDate = new Date("0000-01-01T00:00:00.000Z")
const MaxWireDate = new Date("9999-12-31T23:59:59.999Z")
const MinWireTime = MinWireDate.getTime()
const MaxWireTime = MaxWireDate.getTime()

/**
 * The Dates a wire date-time can carry: valid, in years 0000-9999 (what `toISOString` writes as `YYYY-…Z`).
 * One declaration checking all three (a `Date`, valid, in range) rather than `ValidDateFromSelf` piped
 * into `betweenDate`: each refinement re-checks the value beneath it on every encode, and every response
 * encodes each of its date-times through this (the session list: 9 per response, ~4x the time of this check).
 */
const WireDate = Schema.declare(
  (u: unknown): u is Date => {
    if (!(u instanceof Date)) return false
    const t = u.getTime()
    return t >= MinWireTime && t <= MaxWireTime // false for NaN (an invalid Date)
  },
  {
    identifier: "WireDate",
    description: "a valid Date in years 0000-9999",
    arbitrary: () => (fc) => fc.date({ min: MinWireDate, max: MaxWireDate, noInvalidDate: true }),
    pretty: () => (d) => `new Date(${JSON.stringify(d)})`,
    equivalence: () => Equivalence.Date
  }
)

/**
 * date-time (spec §2.1): ISO 8601 UTC string ending in `Z` on the wire, a `Date` in code.
 * Encoding always uses `Date#toISOString` (millisecond precision, `Z`).
 */
export const DateTimeZ = Schema.transformOrFail(DateTimeString, WireDate, {
  strict: true,
  decode: (s, _, ast) => {
    const d = new Date(s)
    return Number.isNaN(d.getTime())
      ? ParseResult.fail(new ParseResult.Type(ast, s, "not a valid date-time"))
      : ParseResult.succeed(d)
  },
  encode: (d) => ParseResult.succeed(d.toISOString())
}).annotations({ identifier: "DateTime" })

/** date (spec §2.1): `YYYY-MM-DD`, kept as the string. */
const DatePattern = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/
export const IsoDate = Schema.String.pipe(
  Schema.pattern(DatePattern),
  Schema.annotations({ identifier: "Date", jsonSchema: { format: "date", pattern: DatePattern.source } })
)

/** version (spec §2.1): optimistic-concurrency counter, integer 1..9007199254740991. */
export const Version = Schema.Int.pipe(
  Schema.between(1, Number.MAX_SAFE_INTEGER),
  Schema.annotations({
    ...rule("must be an integer 1-9007199254740991"),
    identifier: "Version",
    description: "Optimistic concurrency version, 1..2^53-1"
  })
)

const UnitsString = Schema.String.pipe(
  Schema.pattern(/^(?:0|[1-9][0-9]{0,77})$/),
  Schema.maxLength(78),
  Schema.annotations({ description: "Integer amount in minor units as a decimal string (max 78 digits)" })
)

/**
 * units (spec §2.1, §1.1): a non-negative integer amount in minor/chain units,
 * a decimal string on the wire (`^(?:0|[1-9][0-9]{0,77})$`), a `bigint` in code,
 * `NUMERIC(78,0)` in SQL.
 */
export const Units = Schema.compose(
  UnitsString,
  Schema.BigInt.pipe(Schema.betweenBigInt(0n, BigInt("9".repeat(78))))
).annotations({ identifier: "Units" })

/** count string (spec §2.1): a decimal string of digits, e.g. `starCount`. */
export const CountString = Schema.String.pipe(
  Schema.pattern(/^[0-9]+$/),
  Schema.annotations({ identifier: "CountString", description: "Count as a decimal string" })
)

/**
 * The rule every string a request carries obeys: no U+0000. PostgreSQL text cannot
 * hold it (error 22021), so it is refused at the edge as a 400 naming the field.
 *
 * Every string of a request's path, query and body is checked against this rule (and
 * unpaired surrogates) at the edge, before decoding (src/http/RequestText.ts), whatever its
 * schema; {@link WireString} states the rule in the schema too, so the OpenAPI description
 * shows it.
 */
export const hasNoNul = (s: string): boolean => !s.includes("\u0000")


/**
 * A request string of `min`..`max` characters without U+0000 (see {@link hasNoNul}).
 * Every decode failure reads "must be a string of min-max characters without U+0000".
 */
export const WireString = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.minLength(min),
    Schema.maxLength(max),
    Schema.filter(hasNoNul),
    Schema.annotations({
      ...rule(`must be a string of ${min}-${max} characters without U+0000`),
      description: `string of ${min}-${max} characters, without U+0000`
    })
  )

const DecimalDigits = /^(?:0|[1-9][0-9]{0,15})$/

/**
 * An integer query parameter (spec §4.1 lists): only canonical decimal digits
 * (`0` or no leading zero, at most 16 digits) are accepted, so `1e1`, `0x10`, ` 5`,
 * `+5`, `5.0` and `05` are refused (one spelling per value keeps cursors and caches
 * unambiguous). Published in OpenAPI as `{ type: integer, minimum, maximum, default }`.
 * A missing parameter takes `default`.
 */
export const QueryInt = (options: { readonly min: number; readonly max: number; readonly default: number }) => {
  const text = `must be an integer ${options.min}-${options.max} in decimal digits`
  const Digits = Schema.String.pipe(
    Schema.pattern(DecimalDigits),
    Schema.annotations({
      ...rule(text),
      // query values are strings on the wire but integers in the contract
      jsonSchema: { type: "integer", minimum: options.min, maximum: options.max, default: options.default }
    })
  )
  const Int = Schema.Int.pipe(Schema.between(options.min, options.max), Schema.annotations(rule(text)))
  return Schema.optionalWith(
    Digits.pipe(
      Schema.compose(Schema.NumberFromString),
      Schema.compose(Int),
      Schema.annotations({ ...rule(text), description: `integer ${options.min}-${options.max}, default ${options.default}` })
    ),
    { default: () => options.default, exact: true }
  )
}

/** A string of at least one character (spec §2.22 and elsewhere). */
export const NonEmptyString = Schema.String.pipe(Schema.minLength(1))

/** Email address (format email), as in workspace members and invitations (spec §2.12). */
export const Email = Schema.String.pipe(
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/),
  Schema.annotations({ jsonSchema: { format: "email" } }) // format replaces the (loose) pattern in JSON Schema
)


/**
 * A request-body struct that rejects unknown keys with a 400 (spec §4.1
 * "Request bodies reject unknown keys").
 */
export const StrictStruct = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({ parseOptions: { onExcessProperty: "error" } })


/**
 * A repeated query parameter (`?x=a&x=b`, spec §4.3's activity filters): one value or
 * several, decoded to an array of `item` with at most `maxItems` entries; absent = empty.
 * `itemRule` words the item's rule in problems (default: the item schema's own message).
 * Published in OpenAPI as `{ type: array, items, maxItems }` (form style, exploded).
 */
export const QueryList = <A, I extends string>(item: Schema.Schema<A, I>, maxItems: number, itemRule?: string) => {
  const OneOrMany = Schema.Union(Schema.String, Schema.Array(Schema.String))
  const Many = Schema.Array(itemRule === undefined ? item : item.annotations(rule(itemRule))).pipe(
    Schema.maxItems(maxItems),
    Schema.annotations(rule(
      itemRule === undefined
        ? `must repeat at most ${maxItems} times`
        : `at most ${maxItems} values, each ${itemRule.replace(/^must be /, "")}`
    ))
  )
  const { $schema: _, ...itemJson } = JSONSchema.make(item) as unknown as Record<string, unknown>
  return Schema.optionalWith(
    Schema.transform(OneOrMany, Schema.Array(Schema.String), {
      strict: true,
      decode: (v) => (typeof v === "string" ? [v] : v),
      encode: (v) => v
    }).pipe(
      Schema.compose(Many),
      Schema.annotations({
        jsonSchema: { type: "array", items: itemJson, maxItems },
        description: `repeatable, at most ${maxItems}`
      })
    ),
    { default: () => [], exact: true }
  )
}

/**
 * A request field holding an absolute `http:` or `https:` URL (JSON Schema `format: uri`)
 * of at most `max` characters, without whitespace or U+0000: what a browser can follow.
 */
export const HttpUrl = (max: number) => {
  const text = `must be an absolute http(s) URL of at most ${max} characters`
  return Schema.String.pipe(
    Schema.maxLength(max),
    Schema.pattern(/^https?:\/\/[^\s\u0000]+$/i),
    Schema.filter((s) => URL.canParse(s)),
    Schema.annotations({ ...rule(text), jsonSchema: { format: "uri", maxLength: max }, description: text.replace(/^must be /, "") })
  )
}

/**
 * "any JSON" of the spec: a JSON value of any shape (object, array, string, number, boolean, null).
 * Its JSON Schema lists the six JSON types instead of Effect's default for `Schema.Unknown`
 * (`{"$id": "/schemas/unknown"}`): an `$id` may name one schema only, and tools that inline
 * `$ref`s (Spectral's example check) or a second `Schema.Unknown` would repeat it, which
 * OpenAPI 3.1 validators refuse.
 */
export const AnyJson = Schema.Unknown.annotations({
  identifier: "AnyJson",
  description: "any JSON value",
  // `items: {}`: an array of any values (a schema of type array names its items, Spectral's `array-items`)
  jsonSchema: { type: ["object", "array", "string", "number", "boolean", "null"], items: {}, description: "any JSON value" }
})
