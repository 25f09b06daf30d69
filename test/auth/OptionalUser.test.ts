/**
 * Optional-user operations (x-auth-mode optional-user, spec §4.1): anonymous, a
 * session or an API key. The contract has none yet, so a test-only group serves one.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyOptional } from "../../schema/idempotency.js"
import { operation } from "../../src/api/operation.js"
import { CurrentPrincipal } from "../../src/api/security.js"
import { Envelope } from "../../src/http/Envelope.js"
import { call, expectProblem } from "../support/http.js"
import { serveTestApi } from "./testApi.js"
import { DemoAccounts, DemoApiKeys } from "../../demo/accounts/seed.js"

const Caller = Schema.Struct({ kind: Schema.String, id: Schema.NullOr(Schema.String) })

class OptionalTestGroup extends HttpApiGroup.make("OptionalTest")
  .add(
    HttpApiEndpoint.post("ingest", "/api/v1/test-optional/ingest")
      .setHeaders(IdempotencyKeyOptional)
      .addSuccess(Data(Caller))
      .pipe(operation({
        id: "OptionalTest_Ingest",
        auth: "optional-user",
        cache: "none",
        scopes: ["public:read"],
        statuses: [400, 401, 403, 500],
        description: "Test: who the caller is."
      }))
  )
{}

class OptionalTestApi extends HttpApi.make("OptionalTestApi").add(OptionalTestGroup) {}

const OptionalTestGroupLive = HttpApiBuilder.group(OptionalTestApi, "OptionalTest", (handlers) =>
  Effect.gen(function*() {
    const envelope = yield* Envelope
    return handlers.handle("ingest", () =>
      Effect.flatMap(CurrentPrincipal, (p) =>
        envelope.data({
          kind: p._tag,
          id: p._tag === "Session" ? p.accountId : p._tag === "ApiKey" ? p.apiKeyId : null
        })))
  }))

const server = serveTestApi(OptionalTestApi, HttpApiBuilder.api(OptionalTestApi).pipe(Layer.provide(OptionalTestGroupLive)))
const path = "/api/v1/test-optional/ingest"

layer(server.layer)("optional-user operations", (it) => {
  it.effect("run anonymously without credentials", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", path, { idempotencyKey: null })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({ kind: "Anonymous", id: null })
    }))

  it.effect("run as the session's account when a live session is sent, with the session rules", () =>
    Effect.gen(function*() {
      const owner = yield* server.sessionOf("owner")
      const reply = yield* call("POST", path, { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({ kind: "Session", id: DemoAccounts.owner.id })
      expectProblem(yield* call("POST", path, { session: owner, csrf: null }), 403, "csrf-token-invalid")
    }))

  it.effect("refuse a dead session cookie with the one 401 rather than run anonymously", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", path, { headers: { cookie: "session=not-a-live-session-token-000000000000" } })
      expectProblem(reply, 401, "unauthenticated")
    }))

  it.effect("run as the API key when one is sent, checking its scopes", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", path, { headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({ kind: "ApiKey", id: DemoApiKeys.public.id })
      expectProblem(yield* call("POST", path, { headers: { "x-api-key": DemoApiKeys.agentsOnly.key } }), 403, "insufficient-scope")
    }))
})
