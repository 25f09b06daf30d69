/**
 * Admin operations (x-auth-mode required-admin, spec §5.2). The contract has no
 * admin operation yet, so this file serves a test-only group built with the
 * project's `operation` helper and middleware: a read and a sensitive command.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { operation } from "../../src/api/operation.js"
import { currentSession } from "../../src/api/security.js"
import { Envelope } from "../../src/http/Envelope.js"
import { call, expectMeta, expectProblem } from "../support/http.js"
import { serveTestApi } from "./testApi.js"
import { withoutRequestFields } from "./support.js"
import { DemoAccounts, DemoApiKeys } from "../../demo/accounts/seed.js"

const WhoAmI = Schema.Struct({ accountId: Schema.String, isAdmin: Schema.Boolean })

class AdminTestGroup extends HttpApiGroup.make("AdminTest")
  .add(
    HttpApiEndpoint.get("inspect", "/api/v1/test-admin/inspect")
      .addSuccess(Data(WhoAmI))
      .pipe(operation({ id: "AdminTest_Inspect", auth: "required-admin", cache: "private", statuses: [401, 403, 500], description: "Test: who the admin is." }))
  )
  .add(
    HttpApiEndpoint.post("purge", "/api/v1/test-admin/purge")
      .addSuccess(Data(WhoAmI))
      .pipe(operation({
        id: "AdminTest_Purge",
        auth: "required-admin",
        cache: "none",
        sensitive: true,
        statuses: [400, 401, 403, 500],
        description: "Test: a sensitive admin command."
      }))
  )
{}

class AdminTestApi extends HttpApi.make("AdminTestApi").add(AdminTestGroup) {}


const AdminTestGroupLive = HttpApiBuilder.group(AdminTestApi, "AdminTest", (handlers) =>
  Effect.gen(function*() {
    const envelope = yield* Envelope
    const whoAmI = Effect.flatMap(currentSession, (s) => envelope.data({ accountId: s.accountId, isAdmin: s.isAdmin }))
    return handlers.handle("inspect", () => whoAmI).handle("purge", () => whoAmI)
  }))

const { clock, layer: TestLayer, sessionOf } = serveTestApi(
  AdminTestApi,
  HttpApiBuilder.api(AdminTestApi).pipe(Layer.provide(AdminTestGroupLive))
)

const InspectPath = "/api/v1/test-admin/inspect"
const PurgePath = "/api/v1/test-admin/purge"

layer(TestLayer)("required-admin operations", (it) => {
  it.effect("an admin session gets 200", () =>
    Effect.gen(function*() {
      const admin = yield* sessionOf("admin")
      const inspect = yield* call("GET", InspectPath, { session: admin })
      expect(inspect.status, inspect.text).toBe(200)
      expect(inspect.body.data).toEqual({ accountId: DemoAccounts.admin.id, isAdmin: true })
      expect(inspect.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(inspect)

      const purge = yield* call("POST", PurgePath, { session: admin })
      expect(purge.status, purge.text).toBe(200)
      expect(purge.body.data).toEqual({ accountId: DemoAccounts.admin.id, isAdmin: true })
    }))

  it.effect("a non-admin session gets 403 admin-required", () =>
    Effect.gen(function*() {
      for (const account of ["owner", "member", "outsider"] as const) {
        const session = yield* sessionOf(account)
        const inspect = yield* call("GET", InspectPath, { session })
        expectProblem(inspect, 403, "admin-required")
        const purge = yield* call("POST", PurgePath, { session })
        expectProblem(purge, 403, "admin-required")
      }
    }))

  it.effect("no session gets 401; an API key gets 403 session-required", () =>
    Effect.gen(function*() {
      const none = yield* call("GET", InspectPath)
      expectProblem(none, 401, "unauthenticated")
      const garbage = yield* call("GET", InspectPath, { headers: { cookie: "session=garbage" } })
      expectProblem(garbage, 401, "unauthenticated")
      expect(withoutRequestFields(garbage.body)).toEqual(withoutRequestFields(none.body))
      const command = yield* call("POST", PurgePath)
      expectProblem(command, 401, "unauthenticated")

      const key = yield* call("GET", InspectPath, { headers: { "x-api-key": DemoApiKeys.public.key } })
      expectProblem(key, 403, "session-required")
    }))

  it.effect("admin commands still need the CSRF token and an allowed origin", () =>
    Effect.gen(function*() {
      const admin = yield* sessionOf("admin")
      expectProblem(yield* call("POST", PurgePath, { session: admin, csrf: null }), 403, "csrf-token-invalid")
      expectProblem(
        yield* call("POST", PurgePath, { session: admin, headers: { origin: "https://evil.example" } }),
        403,
        "origin-not-allowed"
      )
      expectProblem(
        yield* call("POST", PurgePath, { session: admin, headers: { "sec-fetch-site": "cross-site" } }),
        403,
        "cross-site-request"
      )
    }))

  // last: moves the shared clock
  it.effect("a sensitive admin command needs a recent authentication; admin reads do not", () =>
    Effect.gen(function*() {
      const admin = yield* sessionOf("admin")
      clock.advance(16 * 60 * 1000)
      expectProblem(yield* call("POST", PurgePath, { session: admin }), 403, "reauthentication-required")
      const inspect = yield* call("GET", InspectPath, { session: admin })
      expect(inspect.status, inspect.text).toBe(200)

      const fresh = yield* sessionOf("admin")
      const purge = yield* call("POST", PurgePath, { session: fresh })
      expect(purge.status, purge.text).toBe(200)

      // not an admin: the admin check answers first
      const owner = yield* sessionOf("owner")
      clock.advance(16 * 60 * 1000)
      expectProblem(yield* call("POST", PurgePath, { session: owner }), 403, "admin-required")
    }))
})
