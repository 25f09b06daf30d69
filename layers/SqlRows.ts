/**
 * `SqlSchema.findAll` / `findOne` for per-request hot paths (the session lookup, the
 * session list): the request goes to `execute` as it is (no request schema: use these
 * only when its encoding would be the identity) and the rows are decoded synchronously
 * with a precompiled decoder. The result has the same shape and the same typed
 * failures (`SqlError`, `ParseError`) as `SqlSchema`'s, in a few runtime operations
 * instead of an effectful encode/decode pipeline per query.
 */
import { Effect, Either, Option, type ParseResult, Schema } from "effect"

/** Every row, decoded with `Result`. Fails with the query's error or a `ParseError`. */
export const findAll = <A, I, Req, E, R>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Effect.Effect<ReadonlyArray<unknown>, E, R>
}): (request: Req) => Effect.Effect<ReadonlyArray<A>, E | ParseResult.ParseError, R> => {
  const decode = Schema.decodeUnknownEither(Schema.Array(options.Result))
  // an Either is an Effect: Right continues with the rows, Left fails with the ParseError
  return (request) => Effect.flatMap(options.execute(request), decode)
}

/** The first row, decoded with `Result`, if any. Fails with the query's error or a `ParseError`. */
export const findOne = <A, I, Req, E, R>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Effect.Effect<ReadonlyArray<unknown>, E, R>
}): (request: Req) => Effect.Effect<Option.Option<A>, E | ParseResult.ParseError, R> => {
  const decode = Schema.decodeUnknownEither(options.Result)
  const none = Either.right(Option.none<A>())
  return (request) =>
    Effect.flatMap(options.execute(request), (rows) => rows.length > 0 ? Either.map(decode(rows[0]), Option.some) : none)
}
