/**
 * Optimistic concurrency, shared by every versioned command (DESIGN §2.4, spec §2.1
 * `version`, §7): `expectedVersion`, `version` or `expectedRevision` in a body.
 *
 * A command changes its row in ONE conditional statement,
 *
 * ```sql
 * UPDATE t SET …, version = version + 1
 * WHERE id = $id AND version = $expected AND state IN (…from states) AND <caller has a role> RETURNING …
 * ```
 *
 * so of N concurrent commands at one version exactly one changes the row (PostgreSQL
 * re-checks the WHERE clause on the row it waited for). When no row changed, one read
 * explains why, always in this order:
 *
 * 1. 404: the row does not exist or the caller cannot see it (`role` null);
 * 2. 403 `role-required`: the caller's role is not among `roles`;
 * 3. 409 `version-conflict`: `expectedVersion` is not the current version (the
 *    detail names the current one);
 * 4. 409 `invalid-state`: the state is not one the command starts from;
 * 5. `otherwise`: a rule of the command the generic ones do not cover (default
 *    409 `conflict`).
 */
import { Effect, Option } from "effect"
import { Conflict, Forbidden, type NotFound } from "../../schema/problem.js"

/** What a refusal is explained from: the row's version and state, and the caller's role (null = not a member). */
export interface VersionedRow {
  readonly version: number
  readonly state: string
  readonly role: string | null
}

/** One versioned command. */
export interface VersionedCommand<A, R extends VersionedRow, E1, R1, E2, R2> {
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
  /** The 404 of this resource. */
  readonly notFound: () => NotFound
  /** The refusal when every generic rule holds (default: 409 `conflict`). */
  readonly otherwise?: (row: R) => Conflict
}

/**
 * Runs a versioned command: its conditional statement, and on refusal the one
 * explanation of the module docs. Fails with `NotFound`, `Forbidden` (`role-required`)
 * or `Conflict` (`version-conflict`, `invalid-state`, or `otherwise`'s kind).
 */
export const runVersioned = <A, R extends VersionedRow, E1, R1, E2, R2>(
  command: VersionedCommand<A, R, E1, R1, E2, R2>
): Effect.Effect<A, E1 | E2 | NotFound | Forbidden | Conflict, R1 | R2> =>
  Effect.flatMap(command.update, Option.match({
    onSome: Effect.succeed,
    onNone: () => Effect.flatMap(command.current, (found) => Effect.fail(explain(command, found)))
  }))

const explain = <R extends VersionedRow>(
  command: VersionedCommand<unknown, R, unknown, unknown, unknown, unknown>,
  found: Option.Option<R>
): NotFound | Forbidden | Conflict => {
  if (Option.isNone(found) || found.value.role === null) return command.notFound()
  const row = found.value
  if (!command.roles.includes(found.value.role!)) {
    return new Forbidden({
      kind: "role-required",
      detail: `This needs one of the roles ${command.roles.join(", ")} in the ${command.resource}'s workspace.`
    })
  }
  if (row.version !== command.expectedVersion) {
    return new Conflict({
      kind: "version-conflict",
      detail: `The ${command.resource} is at version ${row.version}, not ${command.expectedVersion}; reload it and retry.`
    })
  }
  if (!command.fromStates.includes(row.state)) {
    return new Conflict({ kind: "invalid-state", detail: `A ${command.resource} in state ${row.state} does not allow this.` })
  }
  return command.otherwise?.(row) ?? new Conflict({ kind: "conflict", detail: `The ${command.resource} changed; reload it and retry.` })
}
