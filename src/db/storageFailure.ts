/**
 * Storage failures are defects in a domain service: a `SqlError` (database down,
 * timeout, constraint the code did not expect) or a `ParseError` (a row that does not
 * match its schema) is not a refusal the caller can act on. The request middleware
 * renders such a defect as 503/500 `dependency-unavailable` or 500 (DependencyFailure.ts).
 */
import { SqlError } from "@effect/sql/SqlError"
import { Effect, ParseResult } from "effect"

const isStorageFailure = (e: unknown): e is SqlError | ParseResult.ParseError =>
  e instanceof SqlError || ParseResult.isParseError(e)

/** Turns the `SqlError` and `ParseError` failures of `self` into defects; its other typed failures stay. */
export const dieOnStorageFailure = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError>, R> =>
  Effect.catchIf(self, isStorageFailure, Effect.die) as Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError>, R>
