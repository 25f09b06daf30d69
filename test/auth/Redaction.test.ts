/**
 * Telemetry redaction (spec §5.4): passwords, API keys (created, used, replayed,
 * refused), Authorization headers, session cookies and CSRF tokens never appear in
 * the server's log output, at any log level.
 */
import { WorkflowEngine } from "@effect/workflow"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Layer, Logger, LogLevel } from "effect"
import { inspect } from "node:util"
import { ClockManual, makeManualClock } from "../../layers/Clock.js"
import { IdsSequence } from "../../layers/Ids.js"
import { randomUUID } from "node:crypto"
import { HttpLive } from "../../src/server.js"
import { call, signIn } from "../support/http.js"
import { testConfigLayer } from "../support/config.js"
import { TestDb, TestEpoch } from "../support/TestServer.js"
import { DemoAccounts, DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

/** Every log line the server wrote, in several renderings (logfmt, JSON, raw message and cause). */
const lines: Array<string> = []

const CapturingLogger = Logger.make<unknown, void>((options) => {
  lines.push(Logger.logfmtLogger.log(options))
  lines.push(Logger.jsonLogger.log(options))
  lines.push(inspect(options.message, { depth: 10 }))
  lines.push(inspect(options.annotations, { depth: 10 }))
  if (!Cause.isEmpty(options.cause)) lines.push(Cause.pretty(options.cause, { renderErrorCause: true }))
})

const TestLayer = HttpLive.pipe(
  Layer.provideMerge(NodeHttpServer.layerTest),
  // no background work here: an in-memory engine stands in for the durable one
  Layer.provide(WorkflowEngine.layerMemory),
  Layer.provideMerge(TestDb),
  Layer.provide(IdsSequence("0000000d")),
  Layer.provide(testConfigLayer()),
  Layer.provide(ClockManual(makeManualClock(TestEpoch))),
  Layer.provide(Logger.replace(Logger.defaultLogger, CapturingLogger)),
  Layer.provide(Logger.minimumLogLevel(LogLevel.All))
)

layer(TestLayer)("log redaction", (it) => {
  it.effect("no password, API key, session token or CSRF token reaches the logs", () =>
    Effect.gen(function*() {
      const { email, password } = DemoAccounts.owner
      const secrets: Array<string> = [password, DemoAccounts.member.password, DemoApiKeys.public.key, DemoApiKeys.revoked.key]

      // password sign-in (success and failure), and a malformed body carrying a password
      const session = yield* signIn("owner")
      const other = yield* signIn("owner")
      const failed = yield* call("POST", "/api/v1/auth/sign-in", { body: { email, password: DemoAccounts.member.password } })
      expect(failed.status).toBe(401)
      const extra = yield* call("POST", "/api/v1/auth/sign-in", { body: { email, password, extra: 1 } })
      expect(extra.status).toBe(400)

      // API keys: valid (X-API-Key and Bearer), invalid, and on a session-only operation
      const viaHeader = yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(viaHeader.status).toBe(200)
      const viaBearer = yield* call("GET", "/api/v1/protocols", {
        headers: { authorization: `Bearer ${DemoApiKeys.public.key}` }
      })
      expect(viaBearer.status).toBe(200)
      const revoked = yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": DemoApiKeys.revoked.key } })
      expect(revoked.status).toBe(401)
      const sessionOnly = yield* call("GET", "/api/v1/orders", { headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(sessionOnly.status).toBe(403)

      // the cookie and the CSRF token: a read, a command, and a command with a wrong token
      const list = yield* call("GET", "/api/v1/me/sessions", { session })
      expect(list.status).toBe(200)
      const revoke = yield* call("DELETE", `/api/v1/me/sessions/${other.sessionId}`, { session })
      expect(revoke.status, revoke.text).toBe(200)
      const wrongCsrf = yield* call("DELETE", `/api/v1/me/sessions/${other.sessionId}`, { session, csrf: other.csrf })
      expect(wrongCsrf.status).toBe(403)

      // a key creation (the plaintext is in the response), its use, its replay, and failed authentications
      const keysPath = `/api/v1/workspaces/${DemoWorkspaces.acme.id}/api-keys`
      const idempotencyKey = randomUUID()
      const createBody = { name: "redaction", scopes: ["public:read"], allowedOrigins: ["https://app.example.com"] }
      const created = yield* call("POST", keysPath, { session, idempotencyKey, body: createBody })
      expect(created.status, created.text).toBe(201)
      const newKey: string = created.body.data.key
      secrets.push(newKey, `Bearer ${newKey}`, `Bearer ${DemoApiKeys.public.key}`)
      expect((yield* call("POST", keysPath, { session, idempotencyKey, body: createBody })).status).toBe(201)
      expect((yield* call("GET", "/api/v1/protocols", { headers: { authorization: `Bearer ${newKey}` } })).status).toBe(200)
      const wrongOrigin = yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": newKey, origin: "https://evil.example.com" } })
      expect(wrongOrigin.status).toBe(401)
      const wrongSecret = newKey.slice(0, -4) + "AAAA"
      secrets.push(wrongSecret)
      expect((yield* call("GET", "/api/v1/protocols", { headers: { "x-api-key": wrongSecret } })).status).toBe(401)
      expect((yield* call("GET", keysPath, { session })).status).toBe(200)

      for (const s of [session, other]) secrets.push(s.cookie.slice("session=".length), s.csrf)
      for (const secret of secrets) expect(secret.length).toBeGreaterThanOrEqual(16)

      // the check must not pass vacuously: the requests above were logged
      expect(lines.length).toBeGreaterThan(0)
      const log = lines.join("\n")
      expect(log).toContain("/api/v1/auth/sign-in")
      expect(log).toContain("/api/v1/protocols")
      expect(log).toContain("/api/v1/me/sessions")
      expect(log).toContain("/api-keys")

      for (const secret of secrets) {
        const leaks = lines.filter((line) => line.includes(secret))
        expect(leaks, `a secret (${secret.slice(0, 6)}…) was logged`).toEqual([])
      }
      // nor a key's secret part alone
      for (const key of [DemoApiKeys.public.key, newKey]) {
        const keySecret = key.split("_").slice(2).join("_")
        expect(lines.filter((line) => line.includes(keySecret))).toEqual([])
      }
    }))
})
