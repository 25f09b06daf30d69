/**
 * Response envelope (spec §2.2): every success body is `{ data, meta }`;
 * cursor lists add a top-level `nextCursor` (string|null).
 */
import { Schema } from "effect"
import { DateTimeZ, Uuid } from "./common.js"

/** `meta.freshness`: when the data was projected and from which source watermark. */
export const Freshness = Schema.Struct({
  projectedAt: Schema.NullOr(DateTimeZ),
  sourceWatermark: Schema.NullOr(Schema.String)
})

/**
 * `meta` (spec §2.2): exactly the listed fields.
 *
 * Spec §2.2 says meta "accepts additional properties": that binds clients (they
 * must tolerate members they do not know; a typed client decoding with Effect's
 * default options drops them), not what this server sends. The server sends only
 * the listed fields, so the schema is closed: the description shows
 * the real shape (no `propertyName*` placeholder in examples) and encoding fails
 * loudly if a handler ever adds an undeclared member. A new member is added here,
 * which clients written to the spec already accept.
 */
export const Meta = Schema.Struct({
  requestId: Uuid,
  schemaVersion: Schema.String,
  buildVersion: Schema.String,
  generatedAt: DateTimeZ,
  freshness: Freshness
}).annotations({ identifier: "Meta" })
export type Meta = typeof Meta.Type

/** `{ data: A, meta }`. */
export const Data = <S extends Schema.Schema.Any>(data: S) => Schema.Struct({ data, meta: Meta })

/** `{ data: A[], nextCursor, meta }` for cursor lists (spec §4.1). */
export const Page = <A, I, R>(item: Schema.Schema<A, I, R>, maxItems = 100) =>
  Schema.Struct({
    data: Schema.Array(item).pipe(Schema.maxItems(maxItems)),
    nextCursor: Schema.NullOr(Schema.String),
    meta: Meta
  })
