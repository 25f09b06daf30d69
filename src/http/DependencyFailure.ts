/**
 * Dependency failures (spec §7, DESIGN §2 step 6): the database refused, dropped or
 * did not answer in time. Every such failure gets the same answer, the problem
 * `dependency-unavailable` with `Retry-After`, under one rule:
 *
 * **The operation's status list is authoritative (spec §4):** 503 where the
 * operation lists 503; otherwise 500 with the same problem `type` and `Retry-After`
 * (e.g. Workspaces_GetWorkspace, Accounts_RevokeSession list no 503).
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { SqlError } from "@effect/sql/SqlError"
import { Option } from "effect"
import { DependencyUnavailable, DependencyUnavailable500 } from "../../schema/errors.js"
import type { Problem } from "../../schema/problem.js"
import type { Operation } from "../api/policies.js"

/** Seconds a client should wait before retrying (`Retry-After`). */
const retryAfterSeconds = 5

// SQLSTATE classes: 08 connection exception, 57P01-03 shutdown / cannot connect now,
// 57014 statement_timeout, 53300 too many connections
const unavailableCode = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EPIPE|08...|57P0[1-3]|57014|53300)$/
// the pg driver's own connection errors carry no code
const unavailableMessage =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection timed out/

/** True for a database failure that means "unavailable" rather than a bug: refused, dropped, timed out. */
export const isDependencyFailure = (error: unknown): boolean => {
  if (!(error instanceof SqlError)) return false
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  return (typeof cause?.code === "string" && unavailableCode.test(cause.code)) ||
    (typeof cause?.message === "string" && unavailableMessage.test(cause.message))
}

/** Whether the operation lists 503 among its statuses (unknown operation: no). */
const lists503 = (operation: Option.Option<Operation>): boolean =>
  Option.match(operation, {
    onNone: () => false,
    onSome: ({ endpoint }) => {
      const ast = endpoint.errorSchema.ast
      return (ast._tag === "Union" ? ast.types : [ast]).some((member) => HttpApiSchema.getStatusErrorAST(member) === 503)
    }
  })

/** The problem answering a dependency failure of the operation (if any): 503, or 500 where 503 is not listed. */
export const dependencyProblem = (operation: Option.Option<Operation>): DependencyUnavailable | DependencyUnavailable500 => {
  const args = { detail: "The database is unavailable; retry later.", retryAfter: retryAfterSeconds }
  return lists503(operation) ? new DependencyUnavailable(args) : new DependencyUnavailable500(args)
}

/** True for the problem of {@link dependencyProblem}. */
export const isDependencyProblem = (problem: Problem): boolean =>
  problem instanceof DependencyUnavailable || problem instanceof DependencyUnavailable500
