/**
 * The one optimistic-concurrency mechanism of every versioned command
 * (`expectedVersion`, `version`, `expectedRevision`; spec §2.1 version, §7):
 *
 * 1. {@link updateVersioned}: one conditional
 *    `UPDATE … SET …, version = version + 1 WHERE id = $id AND version = $expected
 *    [AND state IN (…)] [AND …] RETURNING id`, so concurrent commands at one version
 *    succeed exactly once;
 * 2. no row → {@link explainRefusal} reads the row as it is now and names why:
 *    404 (absent or not visible), 409 `version-conflict`, 409 `invalid-state`.
 *    Callers check their own extra rules (roles: 403) before or after it.
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../../schema/problem.js"

/** What a versioned command set out to change. */
export interface VersionedUpdate {
  /** Table name (a constant of the caller, never input). */
  readonly table: string
  /** Alias of the table, for conditions that correlate subqueries with it (e.g. `o`). */
  readonly alias?: string | undefined
  readonly id: string
  readonly expectedVersion: number
  /** The assignments, e.g. sql`state = 'X', updated_at = ${at}` (the version bump is added). */
  readonly set: Statement.Fragment
  /** States the command may start from (omit: any state). */
  readonly fromStates?: ReadonlyArray<string> | undefined
  /** Further conditions, each a boolean SQL fragment. */
  readonly where?: ReadonlyArray<Statement.Fragment> | undefined
}

/** Runs the conditional UPDATE; returns the new version, or none when a condition failed. Fails with `SqlError`. */
export const updateVersioned = (u: VersionedUpdate): Effect.Effect<Option.Option<number>, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const conditions = [
      sql`id = ${u.id}`,
      sql`version = ${u.expectedVersion}`,
      ...(u.fromStates === undefined ? [] : [sql`state IN ${sql.in(u.fromStates)}`]),
      ...(u.where ?? [])
    ]
    const target = u.alias === undefined ? sql`${sql(u.table)}` : sql`${sql(u.table)} AS ${sql(u.alias)}`
    const rows = yield* sql<{ readonly version: number }>`UPDATE ${target} SET ${u.set}, version = version + 1
      WHERE ${sql.and(conditions)} RETURNING version::float8 AS version`
    return rows.length === 1 ? Option.some(rows[0]!.version) : Option.none()
  })

/** The row as it is now, for {@link explainRefusal}. */
export interface VersionedCurrent {
  readonly version: number
  readonly state: string
}

/**
 * Why a versioned command changed nothing: `NotFound` (`<resource>-not-found`) when
 * the row is absent, else `Conflict` `version-conflict` when `expectedVersion` is not
 * the current version, else `Conflict` `invalid-state` when the state is not one of
 * `fromStates` (`stateDetail` words it). Always fails.
 */
export const explainRefusal = (options: {
  readonly resource: string
  readonly id: string
  readonly current: Option.Option<VersionedCurrent>
  readonly expectedVersion: number
  readonly fromStates?: ReadonlyArray<string> | undefined
  readonly stateDetail?: (state: string) => string
}): Effect.Effect<never, NotFound | Conflict> => {
  const { current, expectedVersion, resource } = options
  if (Option.isNone(current)) {
    return Effect.fail(new NotFound({ kind: `${resource}-not-found`, detail: `No ${resource.replaceAll("-", " ")} ${options.id}.` }))
  }
  const { state, version } = current.value
  if (version !== expectedVersion) {
    return Effect.fail(new Conflict({
      kind: "version-conflict",
      detail: `The ${resource.replaceAll("-", " ")} is at version ${version}, not ${expectedVersion}; reload it and retry.`
    }))
  }
  if (options.fromStates !== undefined && !options.fromStates.includes(state)) {
    return Effect.fail(new Conflict({
      kind: "invalid-state",
      detail: options.stateDetail?.(state) ?? `The ${resource.replaceAll("-", " ")} is ${state}; this command does not apply to it.`
    }))
  }
  return Effect.fail(new Conflict({ kind: "conflict", detail: `The ${resource.replaceAll("-", " ")} changed; reload it and retry.` }))
}
