/**
 * `SqlSchema.findAll` / `findOne` for per-request hot paths (the session lookup, the
 * session list): the request goes to `execute` as it is (no request schema: use these
 * only when its encoding would be the identity), the statement runs as `@effect/sql`
 * runs it (`yield* statement`: public API only) and the rows are decoded synchronously
 * with a precompiled decoder. The result has the same shape and the same typed failures
 * (`SqlError`, `ParseError`) as `SqlSchema`'s, in fewer runtime operations (no request
 * encoding, no effectful decoding).
 *
 * Running the statement on its connection directly (`compile()`, then `execute` on the
 * transaction's connection or a reserved one) was measured too: outside a transaction
 * (the session lookup) `Effect.scoped` around `sql.reserve` costs more runtime operations
 * than the statement's own path (451 vs 435 per `GET /api/v1/me/sessions`, bench:ops).
 */
import type { SqlError } from "@effect/sql/SqlError"
import type { Statement } from "@effect/sql/Statement"
import { Effect, Either, Option, type ParseResult, Schema } from "effect"

/** Every row, decoded with `Result`. Fails with the query's error or a `ParseError`. */
export const findAll = <A, I, Req>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Statement<unknown>
}): (request: Req) => Effect.Effect<ReadonlyArray<A>, SqlError | ParseResult.ParseError> => {
  const decode = Schema.decodeUnknownEither(Schema.Array(options.Result))
  // an Either is an Effect: Right continues with the rows, Left fails with the ParseError
  return (request) => Effect.flatMap(options.execute(request), decode)
}

/** The first row, decoded with `Result`, if any. Fails with the query's error or a `ParseError`. */
export const findOne = <A, I, Req>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Statement<unknown>
}): (request: Req) => Effect.Effect<Option.Option<A>, SqlError | ParseResult.ParseError> => {
  const decode = Schema.decodeUnknownEither(options.Result)
  const none = Either.right(Option.none<A>())
  return (request) =>
    Effect.flatMap(options.execute(request), (rows) => rows.length > 0 ? Either.map(decode(rows[0]), Option.some) : none)
}
