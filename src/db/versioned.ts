/**
 * The one optimistic-concurrency mechanism of every versioned command
 * (`expectedVersion`, `version`, `expectedRevision`; spec §2.1 version, §7):
 *
 * 1. {@link updateVersioned}: one conditional statement
 *    `UPDATE <table> SET …, <counter> = <counter> + 1
 *     WHERE id = $id AND <counter> = $expected [AND state IN (…)] [AND …] RETURNING id`,
 *    so of concurrent commands at one version exactly one changes the row;
 * 2. no row changed → the command reads the row as it is now and calls
 *    {@link explainVersioned}, which fails with 404 (absent or not visible), 409
 *    `version-conflict` or 409 `invalid-state`, in that order, or hands the row back so
 *    the command can name its own further reason (403 role, 410, 422, …).
 */
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../../schema/problem.js"

/** What a versioned command sets out to change. */
export interface VersionedUpdate {
  /** Table name (a constant of the caller, never input). */
  readonly table: string
  /** The optimistic-concurrency column: `version` (default) or `revision`. */
  readonly counter?: "version" | "revision"
  readonly id: string
  /** The counter value the caller saw. */
  readonly expected: number
  /** The assignments, e.g. sql`state = 'CANCELLED', updated_at = ${at}` (the counter bump is added). */
  readonly set: Statement.Fragment
  /** States the command may start from (omit: any state). */
  readonly fromStates?: ReadonlyArray<string> | undefined
  /** Further conditions (visibility, roles, …), each a boolean SQL fragment on the row. */
  readonly where?: ReadonlyArray<Statement.Fragment> | undefined
}

/** Runs the conditional UPDATE; true when the row changed. Fails with `SqlError`. */
export const updateVersioned = (u: VersionedUpdate): Effect.Effect<boolean, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const counter = sql(u.counter ?? "version")
    const conditions = [
      sql`id = ${u.id}`,
      sql`${counter} = ${u.expected}`,
      ...(u.fromStates === undefined ? [] : [sql`state IN ${sql.in(u.fromStates)}`]),
      ...(u.where ?? [])
    ]
    const rows = yield* sql`UPDATE ${sql(u.table)} SET ${u.set}, ${counter} = ${counter} + 1
      WHERE ${sql.and(conditions)} RETURNING id`
    return rows.length === 1
  })

/** The refused row as it is now (as visible to the caller). */
export interface VersionedCurrent {
  /** Current value of the counter column. */
  readonly counter: number
  readonly state: string
}

/**
 * Why a versioned command changed nothing, as far as the shared rules go:
 * `NotFound` (`<resource>-not-found`) when `current` is none (absent or not visible
 * to the caller), else `Conflict` `version-conflict` when `expected` is not the
 * current counter, else `Conflict` `invalid-state` when the state is not one of
 * `fromStates`. Otherwise succeeds with the row, for the command's own reasons.
 *
 * @param resource kebab-case resource name, e.g. `wallet-policy`
 * @param counterName the request field, for the detail (`version`, `revision`)
 */
export const explainVersioned = <C extends VersionedCurrent>(options: {
  readonly resource: string
  readonly id: string
  readonly current: Option.Option<C>
  readonly expected: number
  readonly counterName?: "version" | "revision"
  readonly fromStates?: ReadonlyArray<string> | undefined
}): Effect.Effect<C, NotFound | Conflict> => {
  const { current, expected, resource } = options
  const noun = resource.replaceAll("-", " ")
  if (Option.isNone(current)) {
    return Effect.fail(new NotFound({ kind: `${resource}-not-found`, detail: `No ${noun} ${options.id}.` }))
  }
  const row = current.value
  const counterName = options.counterName ?? "version"
  if (row.counter !== expected) {
    return Effect.fail(new Conflict({
      kind: "version-conflict",
      detail: `The ${noun} is at ${counterName} ${row.counter}, not ${expected}; reload it and retry.`
    }))
  }
  if (options.fromStates !== undefined && !options.fromStates.includes(row.state)) {
    return Effect.fail(new Conflict({
      kind: "invalid-state",
      detail: `A ${noun} in state ${row.state} cannot take this command (allowed from ${options.fromStates.join(", ")}).`
    }))
  }
  return Effect.succeed(row)
}
