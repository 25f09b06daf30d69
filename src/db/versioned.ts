/**
 * The one optimistic-concurrency mechanism of every versioned command
 * (`expectedVersion`, `version`, `expectedRevision`; spec §2.1 version, §7):
 *
 * 1. {@link updateVersioned}: one conditional
 *    `UPDATE … SET …, version = version + 1 WHERE id = $id AND version = $expected
 *    [AND state IN (…)] [AND …] RETURNING version`, so concurrent commands at one
 *    version succeed exactly once (the counter column may be `revision`);
 * 2. no row → the command reads the row as it is now and {@link explainRefusal} names
 *    why: 404 (absent or not visible), 409 `version-conflict`, 409 `invalid-state`,
 *    then the command's own reasons (`otherwise`: 410, 422, …). Callers check rules
 *    that come first (roles: 403) before it.
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../../schema/problem.js"

/** The optimistic-concurrency column of a table. */
export type VersionCounter = "version" | "revision"

/** What a versioned command set out to change. */
export interface VersionedUpdate {
  /** Table name (a constant of the caller, never input). */
  readonly table: string
  readonly id: string
  /** The counter value the caller saw. */
  readonly expectedVersion: number
  /** The counter column (default `version`). */
  readonly counter?: VersionCounter | undefined
  /** The assignments, e.g. sql`state = 'X', updated_at = ${at}` (the counter bump is added). */
  readonly set: Statement.Fragment
  /** States the command may start from (omit: any state). */
  readonly fromStates?: ReadonlyArray<string> | undefined
  /** Further conditions (visibility, roles, …), each a boolean SQL fragment on the row. */
  readonly where?: ReadonlyArray<Statement.Fragment> | undefined
}

/** Runs the conditional UPDATE; returns the new counter value, or none when a condition failed. Fails with `SqlError`. */
export const updateVersioned = (u: VersionedUpdate): Effect.Effect<Option.Option<number>, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const counter = sql(u.counter ?? "version")
    const conditions = [
      sql`id = ${u.id}`,
      sql`${counter} = ${u.expectedVersion}`,
      ...(u.fromStates === undefined ? [] : [sql`state IN ${sql.in(u.fromStates)}`]),
      ...(u.where ?? [])
    ]
    const rows = yield* sql<{ readonly version: number }>`UPDATE ${sql(u.table)} SET ${u.set}, ${counter} = ${counter} + 1
      WHERE ${sql.and(conditions)} RETURNING ${counter}::float8 AS version`
    return rows.length === 1 ? Option.some(rows[0]!.version) : Option.none()
  })

/** The row as it is now (as visible to the caller), for {@link explainRefusal}. */
export interface VersionedCurrent {
  /** The current counter value (`version` or `revision`). */
  readonly version: number
  readonly state: string
}

/**
 * Why a versioned command changed nothing: `NotFound` (`<resource>-not-found`) when
 * `current` is none (absent or not visible), else `Conflict` `version-conflict` when
 * `expectedVersion` is not the current counter, else `Conflict` `invalid-state` when
 * the state is not one of `fromStates` (`stateDetail` words it), else the command's
 * own reason (`otherwise`, given the row), else `Conflict` `conflict` (the row changed
 * between the UPDATE and the read). Always fails.
 *
 * @param resource kebab-case resource name, e.g. `wallet-policy`
 * @param counterName the counter's name in details (default `version`)
 */
export const explainRefusal = <C extends VersionedCurrent = VersionedCurrent, E = never>(options: {
  readonly resource: string
  readonly id: string
  readonly current: Option.Option<C>
  readonly expectedVersion: number
  readonly counterName?: VersionCounter | undefined
  readonly fromStates?: ReadonlyArray<string> | undefined
  readonly stateDetail?: (state: string) => string
  readonly otherwise?: (row: C) => Option.Option<E>
}): Effect.Effect<never, NotFound | Conflict | E> => {
  const { current, expectedVersion, resource } = options
  const noun = resource.replaceAll("-", " ")
  if (Option.isNone(current)) {
    return Effect.fail(new NotFound({ kind: `${resource}-not-found`, detail: `No ${noun} ${options.id}.` }))
  }
  const row = current.value
  if (row.version !== expectedVersion) {
    return Effect.fail(new Conflict({
      kind: "version-conflict",
      detail: `The ${noun} is at ${options.counterName ?? "version"} ${row.version}, not ${expectedVersion}; reload it and retry.`
    }))
  }
  if (options.fromStates !== undefined && !options.fromStates.includes(row.state)) {
    return Effect.fail(new Conflict({
      kind: "invalid-state",
      detail: options.stateDetail?.(row.state) ?? `The ${noun} is ${row.state}; this command does not apply to it.`
    }))
  }
  const own = options.otherwise === undefined ? Option.none() : options.otherwise(row)
  if (Option.isSome(own)) return Effect.fail(own.value)
  return Effect.fail(new Conflict({ kind: "conflict", detail: `The ${noun} changed; reload it and retry.` }))
}
