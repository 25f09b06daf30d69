/**
 * `SqlSchema.findAll` / `findOne` for per-request hot paths (the session lookup, the
 * session list): the request goes to `execute` as it is (no request schema: use these
 * only when its encoding would be the identity) and the rows are decoded synchronously
 * with a precompiled decoder. The result has the same shape and the same typed failures
 * (`SqlError`, `ParseError`) as `SqlSchema`'s.
 *
 * Outside a transaction, when the database layer provides its pool (`DbPool`, from
 * `layers/Db.ts`), the statement is compiled (`Statement.compile`, public API) and run with
 * the pool's own `query`, as a plain `pg` application runs it: one asynchronous step instead
 * of `@effect/sql`'s execution path (a tracing span, the connection's acquisition and release
 * as effects: ~60 runtime operations per statement, with their allocations). The pool, the SQL,
 * the parameters, the rows and the `SqlError` (same message and `cause`, so
 * `src/http/DependencyFailure.ts` classifies it alike) are the same; what differs is that no
 * `sql.execute` span is recorded and that interrupting the fiber does not cancel the statement
 * on the server (`@effect/sql-pg` asks `pg_cancel_backend`): it runs on to its end, bounded by
 * `statement_timeout`. Inside a transaction (`SqlClient.TransactionConnection` in the context),
 * or without a `DbPool`, the statement runs as `@effect/sql` runs it (`yield* statement`), on
 * the transaction's connection.
 */
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import type { Statement } from "@effect/sql/Statement"
import { Context, Effect, Either, Exit, Option, type ParseResult, Schema } from "effect"
import type Pg from "pg"
import { DbPool } from "./DbPool.js"

/** Runs `statement` on `pool` directly: its rows, or the `SqlError` `@effect/sql-pg` would fail with. */
const onPool = (pool: Pg.Pool, statement: Statement<unknown>): Effect.Effect<ReadonlyArray<unknown>, SqlError> => {
  const [sql, params] = statement.compile()
  return Effect.async<ReadonlyArray<unknown>, SqlError>((resume) => {
    pool.query(sql, params as Array<unknown>, (error: Error | undefined, result: Pg.QueryResult | undefined) => {
      resume(
        error === undefined || error === null
          ? Exit.succeed(result?.rows ?? [])
          : Exit.fail(new SqlError({ cause: error, message: "Failed to execute statement" }))
      )
    })
  })
}

/** How the helpers below run a statement: on the pool outside a transaction, else as `@effect/sql` does. */
const runner = Effect.map(
  Effect.serviceOption(DbPool),
  (pool) =>
    Option.match(pool, {
      onNone: () => (statement: Statement<unknown>): Effect.Effect<ReadonlyArray<unknown>, SqlError> => statement,
      onSome: (pool) => (statement: Statement<unknown>): Effect.Effect<ReadonlyArray<unknown>, SqlError> =>
        Effect.withFiberRuntime((fiber) =>
          Option.isSome(Context.getOption(fiber.currentContext, SqlClient.TransactionConnection))
            ? statement
            : onPool(pool, statement)
        )
    })
)

/**
 * Every row, decoded with `Result`. The returned function fails with the query's `SqlError`
 * or a `ParseError`. Built once (it looks up `DbPool`), called per request.
 */
export const findAll = <A, I, Req>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Statement<unknown>
}): Effect.Effect<(request: Req) => Effect.Effect<ReadonlyArray<A>, SqlError | ParseResult.ParseError>> =>
  Effect.map(runner, (run) => {
    const decode = Schema.decodeUnknownEither(Schema.Array(options.Result))
    // an Either is an Effect: Right continues with the rows, Left fails with the ParseError
    return (request) => Effect.flatMap(run(options.execute(request)), decode)
  })

/**
 * The first row, decoded with `Result`, if any. The returned function fails with the query's
 * `SqlError` or a `ParseError`. Built once (it looks up `DbPool`), called per request.
 */
export const findOne = <A, I, Req>(options: {
  readonly Result: Schema.Schema<A, I>
  readonly execute: (request: Req) => Statement<unknown>
}): Effect.Effect<(request: Req) => Effect.Effect<Option.Option<A>, SqlError | ParseResult.ParseError>> =>
  Effect.map(runner, (run) => {
    const decode = Schema.decodeUnknownEither(options.Result)
    const none = Either.right(Option.none<A>())
    return (request) =>
      Effect.flatMap(run(options.execute(request)), (rows) => rows.length > 0 ? Either.map(decode(rows[0]), Option.some) : none)
  })
