/**
 * The stack's floor: the benchmark's two reads (`reference.ts`, same SQL, same envelopes)
 * written as the smallest idiomatic Effect app on the stack this project must use:
 * `HttpApiBuilder` on `@effect/platform-node`, `@effect/sql-pg`, a cookie security
 * middleware (`HttpApiMiddleware.Tag`), success bodies encoded by their schemas, tracing
 * off as in `src/main.ts`. None of this project's own work is here: no request ids or
 * problem rendering, budgets, CORS, access log, cache or idempotency.
 *
 * `bench:http` runs it next to the project and the Fastify reference: floor / reference is
 * what the stack itself costs against Fastify on this machine, project / floor what this
 * project adds on top.
 *
 * Run by `test/bench/http.ts` as a child process (`DATABASE_URL`, `PORT`); `test/bench/ops.ts`
 * starts {@link FloorLive} in its own process to count its Effect operations.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiError,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity,
  HttpMiddleware
} from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { isEntryPoint } from "./entryPoint.js"
import { meta, type Protocol, ProtocolsBody, type Session, SessionsBody } from "./reads.js"

class CurrentSession extends Context.Tag("CurrentSession")<
  CurrentSession,
  { readonly sessionId: string; readonly accountId: string }
>() {}

class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  failure: HttpApiError.Unauthorized,
  provides: CurrentSession,
  security: { cookie: HttpApiSecurity.apiKey({ in: "cookie", key: "session" }) }
}) {}

const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("reads")
    .add(
      HttpApiEndpoint.get("protocols", "/api/v1/protocols")
        .addSuccess(ProtocolsBody)
    )
    .add(
      HttpApiEndpoint.get("sessions", "/api/v1/me/sessions")
        .addSuccess(SessionsBody)
        .middleware(SessionAuth)
    )
)

const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      cookie: (token) =>
        Effect.gen(function*() {
          const at = new Date()
          const hash = createHash("sha256").update(Redacted.value(token)).digest()
          const [session] = yield* sql<{ session_id: string; account_id: string; last_seen_at: Date }>`
            SELECT s.id AS session_id, s.account_id, a.is_admin, s.csrf_hash, s.authenticated_at, s.last_seen_at
            FROM sessions s JOIN accounts a ON a.id = s.account_id
            WHERE s.token_hash = ${hash} AND s.revoked_at IS NULL AND s.expires_at > ${at}`.pipe(Effect.orDie)
          if (session === undefined) return yield* new HttpApiError.Unauthorized()
          if (at.getTime() - session.last_seen_at.getTime() >= 60_000) {
            yield* sql`UPDATE sessions SET last_seen_at = ${at} WHERE id = ${session.session_id}`.pipe(Effect.orDie)
          }
          return { sessionId: session.session_id, accountId: session.account_id }
        })
    }
  })
)

const ReadsLive = HttpApiBuilder.group(Api, "reads", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("protocols", () =>
        Effect.gen(function*() {
          const protocols = yield* sql<typeof Protocol.Type>`SELECT key, name, status, features FROM protocols ORDER BY position, key`
            .pipe(Effect.orDie)
          return { data: { protocols }, meta: meta() }
        }))
      .handle("sessions", () =>
        Effect.gen(function*() {
          const session = yield* CurrentSession
          const data = yield* sql<typeof Session.Type>`
            SELECT id AS "sessionId", (id = ${session.sessionId}) AS current, api_ts(created_at) AS "createdAt",
              api_ts(authenticated_at) AS "authenticatedAt", api_ts(last_seen_at) AS "lastSeenAt",
              api_ts(expires_at) AS "expiresAt", user_agent AS "userAgent"
            FROM sessions WHERE account_id = ${session.accountId} AND revoked_at IS NULL AND expires_at > ${new Date()}
            ORDER BY created_at DESC, id DESC`.pipe(Effect.orDie)
          return { data, meta: meta() }
        }))
  }))

/** The floor server on `127.0.0.1:port`, on the database of `DATABASE_URL`. */
export const FloorLive = (port: number) =>
  HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(ReadsLive), Layer.provide(SessionAuthLive))),
    Layer.provide(PgClient.layer({ url: Redacted.make(process.env["DATABASE_URL"]!), maxConnections: 20 })),
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" })),
    HttpMiddleware.withTracerDisabledWhen(() => true)
  )

if (isEntryPoint(import.meta.url)) {
  Layer.launch(FloorLive(Number(process.env["PORT"]))).pipe(Effect.withTracerEnabled(false), NodeRuntime.runMain)
}
