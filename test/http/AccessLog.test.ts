/**
 * The access log (src/http/AccessLog.ts, layers/Logging.ts): one event per request,
 * from the pipeline and from the edge cache alike, and the JSON line the server writes
 * for it carries the same fields the JSON logger writes for an `Effect.logInfo`.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { HttpServer } from "@effect/platform"
import { Effect, Logger, LogLevel } from "effect"
import { connect } from "node:net"
import { type AccessEvent, accessJson, jsonLine } from "../../layers/Logging.js"
import { EdgeCache } from "../../src/http/EdgeCache.js"
import { call } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"

const events: Array<AccessEvent> = []
const server = makeTestServer({}, { edge: true, accessLog: (e) => events.push(e) })

/** The events written while `f` ran. */
const logged = <A, E, R>(f: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const from = events.length
    const a = yield* f
    return { a, events: events.slice(from) }
  })

layer(server.layer)("the access log", (it) => {
  it.effect("writes one event per pipeline request: method, path without query, status, requestId", () =>
    Effect.gen(function*() {
      const { a: reply, events } = yield* logged(call("GET", "/api/v1/agents?limit=2"))
      expect(reply.status).toBe(200)
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ method: "GET", path: "/api/v1/agents", status: 200, requestId: reply.headers["x-request-id"] })
      expect(events[0]!.ms).toBeGreaterThanOrEqual(0)
      const { a: problem, events: failed } = yield* logged(call("GET", "/api/v1/me"))
      expect(problem.status).toBe(401)
      expect(failed).toEqual([expect.objectContaining({ path: "/api/v1/me", status: 401, requestId: problem.headers["x-request-id"] })])
    }))

  it.effect("logs 499 for a request whose client went away before the answer, not a 500", () =>
    Effect.gen(function*() {
      const address = (yield* HttpServer.HttpServer).address
      if (address._tag !== "TcpAddress") throw new Error("the test server listens on TCP")
      const from = events.length
      // a body announced but never sent: the request waits in its body read until the socket closes.
      // `Expect: 100-continue` makes the server say when it has taken the request (Node answers
      // 100 Continue as it hands the request to its listener), so the close comes after that
      yield* Effect.promise(() =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(address.port, "127.0.0.1", () => {
            socket.write(
              "POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n" +
                "Content-Length: 100\r\nExpect: 100-continue\r\n\r\n"
            )
          })
          socket.once("data", (chunk) => {
            if (!String(chunk).startsWith("HTTP/1.1 100")) return reject(new Error(`unexpected answer: ${String(chunk)}`))
            socket.write(`{"email"`)
            setTimeout(() => {
              socket.destroy()
              resolve()
            }, 50)
          })
          socket.on("error", reject)
        })
      )
      // the event is written once the server has seen the close (real time: the test clock is manual)
      yield* waitFor("the access log event", Effect.sync(() => events.length > from ? true : undefined), 2_000, 20)
      expect(events.slice(from)).toEqual([expect.objectContaining({ method: "POST", path: "/api/v1/auth/sign-in", status: 499 })])
    }))

  it.effect("writes one event for a request the edge cache answers", () =>
    Effect.gen(function*() {
      const edge = yield* EdgeCache
      yield* edge.invalidate
      yield* call("GET", "/api/v1/protocols")
      const before = yield* edge.hits
      const { a: reply, events } = yield* logged(call("GET", "/api/v1/protocols"))
      expect(yield* edge.hits).toBe(before + 1)
      expect(events).toEqual([
        expect.objectContaining({ method: "GET", path: "/api/v1/protocols", status: 200, requestId: reply.headers["x-request-id"] })
      ])
    }))
})

describe("the access log's JSON line", () => {
  it.effect("has the fields and values the JSON logger writes for the same event", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const event: AccessEvent = { method: "GET", path: "/api/v1/a\"b", status: 304, ms: 1.5, requestId: "0190-x" }
      yield* Effect.logInfo("http").pipe(
        Effect.annotateLogs({ ...event }),
        Logger.withMinimumLogLevel(LogLevel.Info),
        Effect.provide(Logger.replace(Logger.defaultLogger, jsonLine({ write: (s: string) => lines.push(s) > 0 })))
      )
      const { time: _, ...viaLogger } = JSON.parse(lines[0]!)
      const { time, ...direct } = JSON.parse(accessJson(event, new Date(0)))
      expect(direct).toEqual(viaLogger)
      expect(time).toBe("1970-01-01T00:00:00.000Z")
      expect(accessJson(event, new Date(0)).endsWith("}\n")).toBe(true)
      expect(JSON.parse(accessJson({ ...event, requestId: undefined }, new Date(0)))).not.toHaveProperty("requestId")
    }))
})
