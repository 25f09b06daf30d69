/**
 * `SqlSchema.findAll` / `findOne` for per-request hot paths (the session lookup, the
 * session list): the request goes to `execute` as it is (no request schema: use these
 * only when its encoding would be the identity), the statement runs on its connection
 * directly (see {@link run}) and the rows are decoded synchronously with a precompiled
 * decoder. The result has the same shape and the same typed failures (`SqlError`,
 * `ParseError`) as `SqlSchema`'s, in about a tenth of the runtime operations.
 */
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import type { Statement } from "@effect/sql/Statement"
import { Effect, Either, Option, type ParseResult, Schema } from "effect"

/** What a statement built by `@effect/sql` carries at run time besides its public interface. */
interface StatementInternals {
  readonly acquirer?: unknown
  readonly transformRows?: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
}

/**
 * Runs a statement as `@effect/sql` does (same SQL and parameters from `compile`, the
 * same connection — the transaction's inside `withTransaction`, else the client's
 * pool-backed one — with the driver's error mapping and cancellation), without the
 * per-statement `sql.execute` span (the server runs with the tracer disabled) and the
 * scope opened for scoped acquirers (the pg client's are not): ~8 runtime operations
 * instead of ~68. For the pg client only: its acquirer needs no `Scope` (the type says
 * it may). Falls back to running the statement itself if its acquirer is not where
 * `@effect/sql` (0.52) keeps it.
 */
export const run = <A>(statement: Statement<A>): Effect.Effect<ReadonlyArray<A>, SqlError> => {
  const { acquirer, transformRows } = statement as unknown as StatementInternals
  if (!Effect.isEffect(acquirer)) return statement
  const [sql, params] = statement.compile()
  return Effect.flatMap(
    acquirer as Effect.Effect<Connection, SqlError>,
    (connection) => connection.execute(sql, params, transformRows)
  )
}

/**
 * {@link run} as a named (server-side prepared) statement: PostgreSQL parses and plans it once
 * per connection instead of on every call. For statements whose planning costs more than their
 * execution: `= ANY($1)` with a few thousand elements is planned element by element (about
 * 13 ms of server CPU for 2,048, twice its execution). `name` must stand for one SQL text for
 * the life of the process (pg refuses another text under a name it has prepared). The fallback
 * of {@link run} runs the statement unnamed.
 */
export const runPrepared = <A>(name: string, statement: Statement<A>): Effect.Effect<ReadonlyArray<A>, SqlError> => {
  const { acquirer, transformRows } = statement as unknown as StatementInternals
  if (!Effect.isEffect(acquirer)) return statement
  const [text, params] = statement.compile()
  // the connection hands its first argument to pg's `client.query`, which takes a query config as well as a text
  const query = { name, text } as unknown as string
  return Effect.flatMap(
    acquirer as Effect.Effect<Connection, SqlError>,
    (connection) => connection.execute(query, params, transformRows)
  )
}

/** Every row, decoded with `Result`. Fails with the query's error or a `ParseError`. */
export const findAll = <A, I, Req>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Statement<unknown>
}): (request: Req) => Effect.Effect<ReadonlyArray<A>, SqlError | ParseResult.ParseError> => {
  const decode = Schema.decodeUnknownEither(Schema.Array(options.Result))
  // an Either is an Effect: Right continues with the rows, Left fails with the ParseError
  return (request) => Effect.flatMap(run(options.execute(request)), decode)
}

/** The first row, decoded with `Result`, if any. Fails with the query's error or a `ParseError`. */
export const findOne = <A, I, Req>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Statement<unknown>
}): (request: Req) => Effect.Effect<Option.Option<A>, SqlError | ParseResult.ParseError> => {
  const decode = Schema.decodeUnknownEither(options.Result)
  const none = Either.right(Option.none<A>())
  return (request) =>
    Effect.flatMap(run(options.execute(request)), (rows) => rows.length > 0 ? Either.map(decode(rows[0]), Option.some) : none)
}
