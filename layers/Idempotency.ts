/**
 * Idempotency-Key handling (IETF draft "The Idempotency-Key HTTP Header Field", with
 * Stripe's semantics), for the operation being served:
 *
 * - The key is scoped by principal + operationId. The request fingerprint is the
 *   SHA-256 of the method, path and decoded input, canonically serialized.
 * - Same key + same fingerprint → the stored status and body again, with
 *   `Idempotent-Replayed: true`. Same key + other fingerprint → 409
 *   `idempotency-key-reuse`. Same key while the first request still runs → 409
 *   `idempotency-request-in-flight` with `Retry-After`.
 * - Success and 4xx problem results are stored; 5xx results and defects are not.
 *   Records are honoured for 24 hours.
 *
 * Atomicity: everything runs in one transaction that holds a transaction-scoped
 * advisory lock on the key. The operation runs in a nested transaction (savepoint):
 * on success its writes and the stored response commit together; on a 4xx problem
 * its writes roll back and only the stored problem commits; on a defect nothing
 * commits. A crash therefore never leaves a response without its writes or the
 * reverse, and never leaves a stale lock.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient, SqlSchema } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { createHash } from "node:crypto"
import { Context, Effect, Exit, Layer, Option, Schema } from "effect"
import { stringify } from "safe-stable-stringify"
import { Uuid } from "../schema/common.js"
import { Conflict, isProblem, toDocument, withRequest } from "../schema/problem.js"
import { currentOperation } from "../src/api/policies.js"
import { CurrentPrincipal, type Principal } from "../src/api/security.js"
import { currentRequest } from "../src/http/RequestContext.js"
import { now } from "./Clock.js"

/** How long a stored response is replayed, in milliseconds (24 h). */
export const IdempotencyRetentionMs = 24 * 60 * 60 * 1000

/** The header that marks a replayed response. */
export const ReplayedHeader = "idempotent-replayed"

const Stored = Schema.Struct({
  fingerprint: Schema.String,
  status: Schema.Number,
  body: Schema.String
})

/** The idempotency scope of a principal. */
export const principalScope = (p: Principal): string =>
  p._tag === "Session" ? `account:${p.accountId}` : p._tag === "ApiKey" ? `api-key:${p.apiKeyId}` : "anonymous"

/** Idempotent execution of the current operation. */
export class Idempotency extends Context.Tag("agent-directory/Idempotency")<Idempotency, {
  /**
   * Runs `effect` (the operation's writes) exactly once per Idempotency-Key, in one
   * transaction with the stored response. `input` is the decoded request (path,
   * query, payload) that the fingerprint covers. Returns the effect's value, or the
   * replayed response. Adds `Conflict` (409) to the effect's errors; SQL failures
   * are defects. `options.storedAs` gives the value stored for replays when it must
   * differ from the first response (a secret shown once is stored without it).
   */
  readonly run: <A, E, R>(
    input: unknown,
    effect: Effect.Effect<A, E, R>,
    options?: { readonly storedAs?: (value: A) => A }
  ) => Effect.Effect<
    A | HttpServerResponse.HttpServerResponse,
    E | Conflict,
    R | HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest | CurrentPrincipal
  >
}>() {}

/** Idempotency on the database. Requires `SqlClient`. */
export const IdempotencyLive = Layer.effect(
  Idempotency,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const find = SqlSchema.findOne({
      Request: Schema.Struct({ principal: Schema.String, operationId: Schema.String, key: Uuid, since: Schema.DateFromSelf }),
      Result: Stored,
      execute: (r) =>
        sql`SELECT fingerprint, status, body FROM idempotency_records
            WHERE principal = ${r.principal} AND operation_id = ${r.operationId}
              AND idempotency_key = ${r.key} AND created_at > ${r.since}`
    })
    const store = (r: {
      principal: string
      operationId: string
      key: string
      fingerprint: string
      status: number
      body: unknown
      at: Date
    }) =>
      sql`INSERT INTO idempotency_records (principal, operation_id, idempotency_key, fingerprint, status, body, created_at)
          VALUES (${r.principal}, ${r.operationId}, ${r.key}, ${r.fingerprint}, ${r.status}, ${JSON.stringify(r.body)}, ${r.at})
          ON CONFLICT (principal, operation_id, idempotency_key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, body = EXCLUDED.body, created_at = EXCLUDED.created_at`

    const run = <A, E, R>(input: unknown, effect: Effect.Effect<A, E, R>, options?: { readonly storedAs?: (value: A) => A }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers["idempotency-key"]?.toLowerCase()
        if (key === undefined) return yield* sql.withTransaction(effect)
        const { endpoint, policy, successStatus } = yield* currentOperation
        const principal = principalScope(yield* CurrentPrincipal)
        const fingerprint = createHash("sha256")
          .update(stringify({ method: request.method, path: request.url.split("?")[0], input }) ?? "")
          .digest("base64url")
        const scope = `${principal}\n${policy.operationId}\n${key}`
        // The transaction yields the outcome as an Exit, so that a stored 4xx commits
        // with its record before the request fails with it.
        const outcome: Exit.Exit<A | HttpServerResponse.HttpServerResponse, E> = yield* sql.withTransaction(Effect.gen(function*() {
          const [lock] = yield* sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${scope}, 0)) AS locked`
          if (!lock?.locked) {
            return yield* new Conflict({
              kind: "idempotency-request-in-flight",
              detail: "A request with this Idempotency-Key is still being processed; retry later.",
              retryAfter: 1
            })
          }
          const at = yield* now
          const existing = yield* Effect.orDie(find({
            principal,
            operationId: policy.operationId,
            key,
            since: new Date(at.getTime() - IdempotencyRetentionMs)
          }))
          if (Option.isSome(existing)) {
            if (existing.value.fingerprint !== fingerprint) {
              return yield* new Conflict({
                kind: "idempotency-key-reuse",
                detail: "This Idempotency-Key was already used for a different request."
              })
            }
            const { body, status } = existing.value
            return Exit.succeed(HttpServerResponse.text(body, {
              status,
              contentType: status >= 400 ? "application/problem+json" : "application/json",
              headers: { [ReplayedHeader]: "true" }
            }))
          }
          const exit = yield* Effect.exit(sql.withTransaction(effect))
          const record = { principal, operationId: policy.operationId, key, fingerprint, at }
          if (Exit.isSuccess(exit)) {
            const stored = options?.storedAs === undefined ? exit.value : options.storedAs(exit.value)
            const body = yield* Effect.orDie(Schema.encodeUnknown(endpoint.successSchema as Schema.Schema<unknown>)(stored))
            yield* store({ ...record, status: successStatus, body })
            return Exit.succeed(exit.value)
          }
          // only a plain typed failure is a result; defects and interruptions are not stored
          const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
          if (isProblem(failure) && failure.status < 500) {
            const problem = withRequest(failure, yield* currentRequest)
            yield* store({ ...record, status: problem.status, body: toDocument(problem) })
            return Exit.fail(problem as E)
          }
          return yield* Effect.failCause(exit.cause)
        }))
        return yield* outcome
      }).pipe(Effect.catchIf((e): e is SqlError => e instanceof SqlError, Effect.die))

    return { run }
  })
)
