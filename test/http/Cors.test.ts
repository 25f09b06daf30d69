/**
 * CORS (spec §5.4): anonymous public reads from any origin; an API key only from an
 * origin on its allowlist (else the one 401 of §5.3); preflights grant transport
 * only; session operations never get cross-origin (credential) permission.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { withoutRequestFields } from "../auth/support.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"

const ProtocolsPath = "/api/v1/protocols"
const SessionsPath = "/api/v1/me/sessions"
const AllowedOrigin = DemoApiKeys.browser.allowedOrigins[0]
const OtherOrigin = "https://evil.example.com"

/** Sends a CORS preflight for a GET of `path` from `origin`. */
const preflight = (path: string, origin: string, headers = "x-api-key") =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.make("OPTIONS")(path).pipe(HttpClientRequest.setHeaders({
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": headers
      }))
    )
    return { status: response.status, headers: response.headers }
  }).pipe(Effect.scoped, Effect.orDie)

const server = makeTestServer()

layer(server.layer)("CORS", (it) => {
  it.effect("a preflight grants transport only, for any origin, and never credentials", () =>
    Effect.gen(function*() {
      for (const origin of [AllowedOrigin, OtherOrigin]) {
        const reply = yield* preflight(ProtocolsPath, origin)
        expect(reply.status).toBe(204)
        expect(reply.headers["access-control-allow-origin"]).toBe("*")
        expect(reply.headers["access-control-allow-methods"]).toBe("GET")
        expect(reply.headers["access-control-allow-headers"]).toContain("X-API-Key")
        expect(reply.headers["access-control-max-age"]).toBe("600")
        expect(reply.headers["access-control-allow-credentials"]).toBeUndefined()
      }
      // a session-only path gets no CORS permission at all
      const session = yield* preflight(SessionsPath, OtherOrigin, "x-csrf-token")
      expect(session.status).toBe(204)
      expect(session.headers["access-control-allow-origin"]).toBeUndefined()
      expect(session.headers["access-control-allow-credentials"]).toBeUndefined()
    }))

  it.effect("anonymous public reads are allowed from any origin, without credentials", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", ProtocolsPath, { headers: { origin: OtherOrigin } })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["access-control-allow-origin"]).toBe("*")
      expect(reply.headers["access-control-expose-headers"]).toContain("RateLimit")
      expect(reply.headers["access-control-allow-credentials"]).toBeUndefined()
    }))

  it.effect("an API key works from an origin on its allowlist, and from no browser at all", () =>
    Effect.gen(function*() {
      const allowed = yield* call("GET", ProtocolsPath, { headers: { origin: AllowedOrigin, "x-api-key": DemoApiKeys.browser.key } })
      expect(allowed.status, allowed.text).toBe(200)
      expect(allowed.headers["access-control-allow-origin"]).toBe("*")
      expect(allowed.headers["access-control-allow-credentials"]).toBeUndefined()
      const server = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": DemoApiKeys.browser.key } })
      expect(server.status).toBe(200)
    }))

  it.effect("an API key from another origin, an origin with a path, or a key without allowlist: the one identical 401", () =>
    Effect.gen(function*() {
      const unknown = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": `adk_ffffffffffff_${"Z".repeat(43)}` } })
      expectProblem(unknown, 401, "unauthenticated")
      const cases: ReadonlyArray<Record<string, string>> = [
        { origin: OtherOrigin, "x-api-key": DemoApiKeys.browser.key },
        { origin: `${AllowedOrigin}/app`, "x-api-key": DemoApiKeys.browser.key },
        { origin: AllowedOrigin.replace("https:", "http:"), "x-api-key": DemoApiKeys.browser.key },
        { origin: AllowedOrigin, "x-api-key": DemoApiKeys.public.key }, // the public key lists no origin
        { origin: AllowedOrigin, authorization: `Bearer ${DemoApiKeys.public.key}` }
      ]
      for (const headers of cases) {
        const reply = yield* call("GET", ProtocolsPath, { headers })
        expectProblem(reply, 401, "unauthenticated")
        expect(withoutRequestFields(reply.body), JSON.stringify(headers)).toEqual(withoutRequestFields(unknown.body))
        expect(reply.text).not.toMatch(/origin/i)
      }
    }))

  it.effect("a session call from another origin gets no CORS permission; a command is refused", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const read = yield* call("GET", SessionsPath, { session, headers: { origin: OtherOrigin } })
      expect(read.headers["access-control-allow-origin"]).toBeUndefined()
      expect(read.headers["access-control-allow-credentials"]).toBeUndefined()
      const command = yield* call("DELETE", `${SessionsPath}/${session.sessionId}`, { session, headers: { origin: OtherOrigin } })
      expectProblem(command, 403, "origin-not-allowed")
      expect(command.headers["access-control-allow-origin"]).toBeUndefined()
      expect(command.headers["access-control-allow-credentials"]).toBeUndefined()
      // sign-in from another origin: refused, and never a cross-origin cookie permission
      const signInReply = yield* call("POST", "/api/v1/auth/sign-in", {
        headers: { origin: OtherOrigin },
        body: { email: "owner@demo.agent-directory.dev", password: "x" }
      })
      expect(signInReply.headers["access-control-allow-credentials"]).toBeUndefined()
    }))
})
