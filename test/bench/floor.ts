/**
 * The stack's floor: the benchmark's two reads (`reference.ts`, same SQL, same envelopes)
 * written as the smallest idiomatic Effect app on the stack this project must use:
 * `HttpApiBuilder` on `@effect/platform-node`, `@effect/sql-pg`, a cookie security
 * middleware (`HttpApiMiddleware.Tag`), success bodies encoded by their schemas, tracing
 * off as in `runServer` (`src/startup.ts`). None of this project's own work is here: no request ids or
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
import { createServer } from "node:http"
import { isEntryPoint } from "./entryPoint.js"
import { meta, ProtocolsBody, readsOf, type SessionRow, SessionsBody } from "./reads.js"

class CurrentSession extends Context.Tag("CurrentSession")<CurrentSession, SessionRow>() {}

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
    const reads = readsOf(yield* SqlClient.SqlClient)
    return {
      cookie: (token) =>
        Effect.gen(function*() {
          const at = new Date()
          const [session] = yield* reads.session(Redacted.value(token), at).pipe(Effect.orDie)
          if (session === undefined) return yield* new HttpApiError.Unauthorized()
          if (reads.stale(session, at)) yield* reads.touch(session, at).pipe(Effect.orDie)
          return session
        })
    }
  })
)

const ReadsLive = HttpApiBuilder.group(Api, "reads", (handlers) =>
  Effect.gen(function*() {
    const reads = readsOf(yield* SqlClient.SqlClient)
    return handlers
      .handle("protocols", () =>
        Effect.gen(function*() {
          const protocols = yield* reads.protocols().pipe(Effect.orDie)
          return { data: { protocols }, meta: meta() }
        }))
      .handle("sessions", () =>
        Effect.gen(function*() {
          const data = yield* reads.sessions(yield* CurrentSession, new Date()).pipe(Effect.orDie)
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
