/**
 * Idempotency-Key handling (IETF draft "The Idempotency-Key HTTP Header Field", with
 * Stripe's semantics), for one operation call. It knows nothing of the app: the caller
 * (`src/http/group.ts`, from each operation's contract) passes the operation, the
 * principal's scope, the key and the decoded request.
 *
 * - The key is scoped by principal + operationId. The request fingerprint is the
 *   SHA-256 of the decoded request's canonical JSON (`CanonicalJson.ts`).
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
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { SqlClient, SqlSchema } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { createHash } from "node:crypto"
import { Context, Effect, Exit, Layer, Option, type ParseResult, Schema } from "effect"
import { Uuid } from "../schema/common.js"
import { isProblem, toDocument, withRequest } from "../schema/problem.js"
import { IdempotencyKeyReuse, IdempotencyRequestInFlight } from "../schema/errors.js"
import { canonicalJson } from "./CanonicalJson.js"
import { now } from "./Clock.js"
import { currentRequest } from "./RequestContext.js"

/** How long a stored response is replayed, in milliseconds (24 h). */
export const IdempotencyRetentionMs = 24 * 60 * 60 * 1000

/** The header that marks a replayed response. */
export const ReplayedHeader = "idempotent-replayed"

const Stored = Schema.Struct({
  fingerprint: Schema.String,
  status: Schema.Number,
  body: Schema.String
})

/**
 * A 409 of the idempotency mechanism itself (`IdempotencyKeyReuse`,
 * `IdempotencyRequestInFlight`), told apart from the operation's own 409s: its own
 * causes, so `e instanceof IdempotencyConflict` (the request's wrapper renders them
 * at once, `src/http/group.ts`) is true of exactly those two.
 */
export type IdempotencyConflict = IdempotencyKeyReuse | IdempotencyRequestInFlight
export const IdempotencyConflict: { readonly [Symbol.hasInstance]: (u: unknown) => u is IdempotencyConflict } = {
  [Symbol.hasInstance]: (u: unknown): u is IdempotencyConflict =>
    u instanceof IdempotencyKeyReuse || u instanceof IdempotencyRequestInFlight
}

/** One keyed execution: who, which operation, which key, and what the fingerprint covers. */
export interface IdempotentCall<A> {
  /** The spec operationId (part of the key's scope). */
  readonly operationId: string
  /** The principal's scope, e.g. `account:<uuid>` (part of the key's scope). */
  readonly principal: string
  /** The Idempotency-Key (a uuid; matched case-insensitively). */
  readonly key: string
  /** The decoded request (method, path, query, payload): its canonical JSON is hashed into the fingerprint. */
  readonly request: unknown
  /** The operation's success status (200, 201, 202), stored with the encoded success body. */
  readonly successStatus: number
  /**
   * The success status of one success value, for an operation with several (a PUT that
   * answers 201 when it creates, 200 when it replaces); default {@link successStatus}.
   */
  readonly statusOf?: ((a: A) => number) | undefined
  /** Encodes a success value to its wire JSON (the endpoint's success schema). */
  readonly encodeSuccess: (a: A) => Effect.Effect<unknown, ParseResult.ParseError>
}

/** Idempotent execution of one operation call. */
export class Idempotency extends Context.Tag("agent-directory/Idempotency")<Idempotency, {
  /**
   * Runs `effect` (the operation's writes) exactly once per key in `call`'s scope, in
   * one transaction with the stored response. Returns the effect's value, or the
   * replayed response (`Idempotent-Replayed: true`). Adds {@link IdempotencyConflict}
   * (409) to the effect's errors; SQL failures are defects.
   */
  readonly run: <A, E, R>(
    call: IdempotentCall<A>,
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<A | HttpServerResponse.HttpServerResponse, E | IdempotencyConflict, R>
}>() {}

/** Idempotency on the database. Requires `SqlClient`. */
/** The stored text of a response body: its JSON, or the empty string for a success with no body (undefined: 204). */
const storedBody = (body: unknown): string => body === undefined ? "" : JSON.stringify(body)

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
          VALUES (${r.principal}, ${r.operationId}, ${r.key}, ${r.fingerprint}, ${r.status}, ${storedBody(r.body)}, ${r.at})
          ON CONFLICT (principal, operation_id, idempotency_key) DO UPDATE
          SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, body = EXCLUDED.body, created_at = EXCLUDED.created_at`

    const run = <A, E, R>(call: IdempotentCall<A>, effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        const { operationId, principal } = call
        const key = call.key.toLowerCase()
        const fingerprint = createHash("sha256").update(canonicalJson(call.request)).digest("base64url")
        const scope = `${principal}\n${operationId}\n${key}`
        // The transaction yields the outcome as an Exit, so that a stored 4xx commits
        // with its record before the request fails with it.
        const outcome: Exit.Exit<A | HttpServerResponse.HttpServerResponse, E> = yield* sql.withTransaction(Effect.gen(function*() {
          const [lock] = yield* sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${scope}, 0)) AS locked`
          if (!lock?.locked) {
            return yield* new IdempotencyRequestInFlight({
              detail: "A request with this Idempotency-Key is still being processed; retry later.",
              retryAfter: 1
            })
          }
          const at = yield* now
          const existing = yield* Effect.orDie(find({
            principal,
            operationId,
            key,
            since: new Date(at.getTime() - IdempotencyRetentionMs)
          }))
          if (Option.isSome(existing)) {
            if (existing.value.fingerprint !== fingerprint) {
              return yield* new IdempotencyKeyReuse({
                detail: "This Idempotency-Key was already used for a different request."
              })
            }
            const { body, status } = existing.value
            // a success with no body (204) was stored as the empty string: replayed with none
            if (body === "") return Exit.succeed(HttpServerResponse.empty({ status, headers: { [ReplayedHeader]: "true" } }))
            return Exit.succeed(HttpServerResponse.text(body, {
              status,
              contentType: status >= 400 ? "application/problem+json" : "application/json",
              headers: { [ReplayedHeader]: "true" }
            }))
          }
          const exit = yield* Effect.exit(sql.withTransaction(effect))
          const record = { principal, operationId, key, fingerprint, at }
          if (Exit.isSuccess(exit)) {
            const body = yield* Effect.orDie(call.encodeSuccess(exit.value))
            yield* store({ ...record, status: call.statusOf?.(exit.value) ?? call.successStatus, body })
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
