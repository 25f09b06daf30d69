/**
 * Optimistic concurrency, the one mechanism of every versioned command (spec §2.1 `version`, §7): `expectedVersion`, `version` or `expectedRevision` in a body.
 *
 * A command changes its row in ONE conditional statement,
 *
 * ```sql
 * UPDATE t SET …, version = version + 1
 * WHERE id = $id AND version = $expected AND state IN (…from states) [AND <caller may>] RETURNING …
 * ```
 *
 * so of N concurrent commands at one version exactly one changes the row (PostgreSQL
 * re-checks the WHERE clause on the row it waited for). When no row changed, one read
 * explains why, always in this order: 404 (the resource's own not-found cause, absent or
 * not visible), 403 `role-required` (workspace commands), 409 `version-conflict`, 409
 * `invalid-state`, then the command's own reason (410, 422, 409 …), else 409 `conflict`.
 *
 * Two entry points over the same rules:
 * - {@link runVersioned}: the whole command (statement + explanation, the latter
 *   {@link explainRefusal} after the visibility and role checks) for commands
 *   authorised by a workspace role;
 * - {@link updateVersioned} builds the statement and {@link explainRefusal} the
 *   explanation, for commands whose authorisation is checked by the caller (account
 *   ownership, admin) or whose counter is `revision`.
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { Conflict, InvalidState, RoleRequired, VersionConflict } from "../../schema/errors.js"


/** What a refusal is explained from: the row's version and state, and the caller's role (null = not a member). */
export interface VersionedRow {
  readonly version: number
  readonly state: string
  readonly role: string | null
}

/** One versioned command. */
export interface VersionedCommand<A, R extends VersionedRow, E1, R1, E2, R2, NF, O> {
  /** Name of the resource in problem details, e.g. "launch run". */
  readonly resource: string
  /** The version the caller read. */
  readonly expectedVersion: number
  /** States the command may start from. */
  readonly fromStates: ReadonlyArray<string>
  /** Workspace roles allowed to run the command. */
  readonly roles: ReadonlyArray<string>
  /** The one conditional statement (see the module docs); none when no row changed. */
  readonly update: Effect.Effect<Option.Option<A>, E1, R1>
  /** The row as the caller sees it, read after a refusal; none when it does not exist. */
  readonly current: Effect.Effect<Option.Option<R>, E2, R2>
  /** The 404 cause of this resource. */
  readonly notFound: () => NF
  /** The refusal when every generic rule holds (undefined, or no `otherwise`: 409 `conflict`). */
  readonly otherwise?: (row: R) => O | undefined
}

/**
 * Runs a versioned command: its conditional statement, and on refusal the one
 * explanation of the module docs. Fails with `notFound`'s cause, `RoleRequired`,
 * `VersionConflict`, `InvalidState`, `otherwise`'s cause, or `Conflict`.
 */
export const runVersioned = <A, R extends VersionedRow, E1, R1, E2, R2, NF, O = never>(
  command: VersionedCommand<A, R, E1, R1, E2, R2, NF, O>
): Effect.Effect<A, E1 | E2 | NF | RoleRequired | VersionConflict | InvalidState | O | Conflict, R1 | R2> =>
  Effect.flatMap(command.update, Option.match({
    onSome: Effect.succeed,
    onNone: () =>
      Effect.flatMap(command.current, (found): Effect.Effect<never, NF | RoleRequired | VersionConflict | InvalidState | O | Conflict> => {
        if (Option.isNone(found) || found.value.role === null) return Effect.fail(command.notFound())
        if (!command.roles.includes(found.value.role)) {
          return Effect.fail(
            new RoleRequired({
              detail: `This needs one of the roles ${command.roles.join(", ")} in the ${command.resource}'s workspace.`
            })
          )
        }
        // the rest of the order is the one of every versioned command
        return explainRefusal({
          resource: command.resource,
          id: "", // only a missing row's detail names the id, and the row is here
          notFound: command.notFound,
          current: found,
          expectedVersion: command.expectedVersion,
          fromStates: command.fromStates,
          stateDetail: (state) => `A ${command.resource} in state ${state} does not allow this.`,
          otherwise: (row) => Option.fromNullable(command.otherwise?.(row))
        })
      })
  }))

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
 * Why a versioned command changed nothing: `notFound`'s cause (given the detail) when
 * `current` is none (absent or not visible), else `VersionConflict` when
 * `expectedVersion` is not the current counter, else `InvalidState` when the state is
 * not one of `fromStates` (`stateDetail` words it), else the command's own reason
 * (`otherwise`, given the row), else `Conflict` (the row changed between the UPDATE and
 * the read). Always fails.
 *
 * @param resource kebab-case resource name, e.g. `wallet-policy` (words the details)
 * @param counterName the counter's name in details (default `version`)
 */
export const explainRefusal = <NF, C extends VersionedCurrent = VersionedCurrent, E = never>(options: {
  readonly resource: string
  readonly id: string
  readonly notFound: (detail: string) => NF
  readonly current: Option.Option<C>
  readonly expectedVersion: number
  readonly counterName?: VersionCounter | undefined
  readonly fromStates?: ReadonlyArray<string> | undefined
  readonly stateDetail?: (state: string) => string
  readonly otherwise?: (row: C) => Option.Option<E>
}): Effect.Effect<never, NF | VersionConflict | InvalidState | E | Conflict> => {
  const { current, expectedVersion, resource } = options
  const noun = resource.replaceAll("-", " ")
  if (Option.isNone(current)) {
    return Effect.fail(options.notFound(`No ${noun} ${options.id}.`))
  }
  const row = current.value
  if (row.version !== expectedVersion) {
    return Effect.fail(new VersionConflict({
      detail: `The ${noun} is at ${options.counterName ?? "version"} ${row.version}, not ${expectedVersion}; reload it and retry.`
    }))
  }
  if (options.fromStates !== undefined && !options.fromStates.includes(row.state)) {
    return Effect.fail(new InvalidState({
      detail: options.stateDetail?.(row.state) ?? `The ${noun} is ${row.state}; this command does not apply to it.`
    }))
  }
  const own = options.otherwise === undefined ? Option.none() : options.otherwise(row)
  if (Option.isSome(own)) return Effect.fail(own.value)
  return Effect.fail(new Conflict({ detail: `The ${noun} changed; reload it and retry.` }))
}
