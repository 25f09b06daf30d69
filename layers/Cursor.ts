/**
 * Signed opaque cursors (spec §4.1, §4.3): `base64url(JSON position).base64url(HMAC)`,
 * where the HMAC-SHA256 (key derived from `APP_SECRET`) covers the position and a
 * binding (operation, list, principal, query). A cursor altered in any byte, or used
 * for another list, query or caller, fails with `InvalidRequest`.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { InvalidCursor } from "../schema/errors.js"
import { AppConfig } from "./AppConfig.js"
import { canonicalJson } from "./CanonicalJson.js"

/** What a cursor is bound to; any difference invalidates it. */
export type CursorBinding = Readonly<Record<string, string | number | boolean | null>>

/** Signs and verifies cursors. */
export class Cursor extends Context.Tag("agent-directory/Cursor")<Cursor, {
  /** Encodes a keyset position bound to `binding`. */
  readonly encode: <A, I>(schema: Schema.Schema<A, I>, position: A, binding: CursorBinding) => string
  /**
   * Decodes a cursor of the query parameter `param`. Fails with `InvalidCursor` (400 `invalid-cursor`)
   * (pointer `/param`) when it is malformed, tampered with or bound elsewhere.
   */
  readonly decode: <A, I>(
    schema: Schema.Schema<A, I>,
    cursor: string,
    binding: CursorBinding,
    param: string
  ) => Effect.Effect<A, InvalidCursor>
  /**
   * One keyset page: decodes `cursor` (if any), fetches `limit + 1` rows after its
   * position, and returns `limit` rows with the cursor of the next page (or null).
   */
  readonly page: <Row, P, PI, E, R>(options: KeysetPage<Row, P, PI, E, R>) => Effect.Effect<
    { readonly rows: ReadonlyArray<Row>; readonly nextCursor: string | null },
    E | InvalidCursor,
    R
  >
}>() {}

/** A keyset-paginated list query (see `Cursor.page`). */
export interface KeysetPage<Row, P, PI, E, R> {
  /** Schema of the position (the sort key of the last row of a page). */
  readonly position: Schema.Schema<P, PI>
  readonly cursor: string | undefined
  /** Query parameter name of the cursor (for the 400's pointer). */
  readonly param: string
  readonly binding: CursorBinding
  readonly limit: number
  /** Rows strictly after `after` (or from the start), at most `take`. */
  readonly fetch: (after: P | undefined, take: number) => Effect.Effect<ReadonlyArray<Row>, E, R>
  readonly positionOf: (row: Row) => P
}

/** Cursors signed with the configured cursor key. */
export const CursorLive = Layer.effect(
  Cursor,
  Effect.map(AppConfig, (config) => {
    const sign = (body: string, binding: CursorBinding) =>
      createHmac("sha256", Redacted.value(config.keys.cursor)).update(body).update("\n").update(canonicalJson(binding)).digest()
    const encode = <A, I>(schema: Schema.Schema<A, I>, position: A, binding: CursorBinding) => {
      const body = Buffer.from(JSON.stringify(Schema.encodeSync(schema)(position))).toString("base64url")
      return `${body}.${sign(body, binding).toString("base64url")}`
    }
    const decode = <A, I>(schema: Schema.Schema<A, I>, cursor: string, binding: CursorBinding, param: string) => {
      const invalid = new InvalidCursor({
        detail: `The ${param} cursor is not valid for this request.`,
        errors: [{ in: "query", pointer: `/${param}`, detail: "not a cursor issued for this list, query and caller" }]
      })
      const [body, mac, extra] = cursor.split(".")
      if (body === undefined || mac === undefined || extra !== undefined) return Effect.fail(invalid)
      // compare the signature as text: base64url decoding ignores stray characters and
      // the unused low bits of the last one, so other strings would decode to the same MAC
      const expected = Buffer.from(sign(body, binding).toString("base64url"))
      const actual = Buffer.from(mac)
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return Effect.fail(invalid)
      return Effect.try(() => JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as unknown).pipe(
        Effect.flatMap(Schema.decodeUnknown(schema)),
        Effect.mapError(() => invalid)
      )
    }
    const page = <Row, P, PI, E, R>(o: KeysetPage<Row, P, PI, E, R>) =>
      Effect.gen(function*() {
        const after = o.cursor === undefined ? undefined : yield* decode(o.position, o.cursor, o.binding, o.param)
        const rows = yield* o.fetch(after, o.limit + 1)
        const more = rows.length > o.limit
        const pageRows = more ? rows.slice(0, o.limit) : rows
        return {
          rows: pageRows,
          nextCursor: more ? encode(o.position, o.positionOf(pageRows[pageRows.length - 1]!), o.binding) : null
        }
      })
    return { encode, decode, page }
  })
)
