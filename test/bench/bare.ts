/**
 * The Effect runtime's floor: the benchmark's two reads (`reference.ts`, same SQL, same
 * envelopes) as one Effect per request on `@effect/sql-pg`, run with `Runtime.runFork`
 * straight from a `node:http` listener; the body is encoded by its schema. No HTTP
 * framework (neither `@effect/platform`'s router nor `HttpApiBuilder`): what the Effect
 * runtime and `@effect/sql-pg` cost per request against Fastify + `pg` on this machine.
 *
 * Run by `test/bench/http.ts` as a child process (`DATABASE_URL`, `PORT`); `test/bench/ops.ts`
 * calls {@link startBare} to count its Effect operations.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import { createServer, type ServerResponse } from "node:http"
import { isEntryPoint } from "./entryPoint.js"
import { meta, ProtocolsBody, readsOf, SessionsBody } from "./reads.js"

const encodeProtocols = Schema.encodeSync(ProtocolsBody)
const encodeSessions = Schema.encodeSync(SessionsBody)


const reads = Effect.map(SqlClient.SqlClient, readsOf)

const protocols = Effect.flatMap(reads, (reads) =>
  Effect.map(reads.protocols(), (protocols) => encodeProtocols({ data: { protocols }, meta: meta() })))

/** The session's list, or `undefined` when the cookie names no live session (401). */
const sessions = (token: string | undefined) =>
  Effect.flatMap(reads, (reads) => {
    if (token === undefined) return Effect.succeed(undefined)
    const at = new Date()
    return Effect.flatMap(reads.session(token, at), ([session]) => {
      if (session === undefined) return Effect.succeed(undefined)
      return (reads.stale(session, at) ? reads.touch(session, at) : Effect.void).pipe(
        Effect.zipRight(reads.sessions(session, at)),
        Effect.map((data) => encodeSessions({ data, meta: meta() }))
      )
    })
  })

const answer = (res: ServerResponse, status: number, body: unknown, cacheControl: string) => {
  const json = JSON.stringify(body ?? { status })
  res.writeHead(status, {
    "content-type": status === 200 ? "application/json" : "application/problem+json",
    "cache-control": cacheControl,
    "content-length": Buffer.byteLength(json)
  }).end(json)
}

/**
 * Starts the bare server on `127.0.0.1:port`, on the database of `DATABASE_URL`; `extra` is
 * built into its runtime (`test/bench/ops.ts` adds its operation counter).
 */
export const startBare = (port: number, extra: Layer.Layer<never> = Layer.empty) => {
  const runtime = ManagedRuntime.make(
    Layer.merge(PgClient.layer({ url: Redacted.make(process.env["DATABASE_URL"]!), maxConnections: 20 }), extra)
  )
  return createServer((req, res) => {
    const [effect, cacheControl]: readonly [Effect.Effect<unknown, unknown, SqlClient.SqlClient> | undefined, string] =
      req.url === "/api/v1/protocols"
        ? [protocols, "public, max-age=300, stale-while-revalidate=60"]
        : req.url === "/api/v1/me/sessions"
        ? [sessions(/(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1]), "private, no-cache"]
        : [undefined, "no-store"]
    if (effect === undefined) return answer(res, 404, undefined, cacheControl)
    runtime.runFork(effect).addObserver((exit) => {
      if (exit._tag === "Failure") return answer(res, 500, undefined, "no-store")
      answer(res, exit.value === undefined ? 401 : 200, exit.value, cacheControl)
    })
  }).listen(port, "127.0.0.1")
}

if (isEntryPoint(import.meta.url)) startBare(Number(process.env["PORT"]))
