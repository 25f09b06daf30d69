/**
 * Runtime_ListRuntimeTools and Runtime_PreviewAgentSchedule (spec §2.15, §4.4, §8)
 * through the HTTP stack, on the demo data.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoRuntimeAgents, DemoRuntimeTools } from "../../demo/runtime/data.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"

const server = makeTestServer()
const toolsPath = (agent: string) => `/api/v1/agents/${agent}/tools`
const previewPath = (agent: string) => `/api/v1/agents/${agent}/schedules/preview`

const preview = (body: unknown, options: CallOptions = {}, agent: string = DemoRuntimeAgents.configured) =>
  Effect.gen(function*() {
    const session = options.session ?? (yield* signIn("member"))
    return yield* call("POST", previewPath(agent), { body, ...options, session })
  })

/** Asserts a successful preview and returns its occurrences. */
const occurrences = (body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const reply = yield* preview(body)
    expect(reply.status, reply.text).toBe(200)
    expectMeta(reply)
    expect(Object.keys(reply.body.data).sort()).toEqual(["occurrences", "timezone"])
    return reply.body.data as { timezone: string; occurrences: Array<string> }
  })

layer(server.layer)("Runtime_ListRuntimeTools", (it) => {
  it.effect("200: the agent's tools in every state, by stableName then version, each exactly §2.15", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", toolsPath(DemoRuntimeAgents.configured), { session: yield* signIn("member") })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(reply)
      const tools = reply.body.data as Array<Record<string, unknown>>
      const expected = DemoRuntimeTools.filter((t) => t.agent === DemoRuntimeAgents.configured)
      expect(tools.map((t) => t["stableName"])).toEqual(["docs.search", "email.send", "web.fetch"])
      for (const tool of tools) {
        expect(Object.keys(tool).sort()).toEqual([
          "available", "createdAt", "definitionDigest", "description", "executionClass", "executorKind", "grantState",
          "id", "implementationVersion", "inputSchema", "outputSchema", "remoteDefinition", "riskClass", "sourceKind",
          "sourceReference", "stableName", "state", "unavailableAt", "version"
        ])
        const demo = expected.find((t) => t.id === tool["id"])!
        expect(tool).toEqual({
          id: demo.id,
          stableName: demo.stableName,
          version: demo.version,
          description: demo.description,
          inputSchema: demo.inputSchema,
          outputSchema: demo.outputSchema,
          riskClass: demo.riskClass,
          executorKind: demo.executorKind,
          executionClass: demo.executionClass,
          sourceKind: demo.sourceKind,
          sourceReference: demo.sourceReference,
          implementationVersion: demo.implementationVersion,
          available: demo.available,
          unavailableAt: demo.unavailableAt === null ? null : demo.unavailableAt.toISOString(),
          state: demo.state,
          grantState: demo.grantState,
          definitionDigest: demo.definitionDigest,
          remoteDefinition: demo.remoteDefinition,
          createdAt: new Date(Date.UTC(2026, 0, 1) + demo.day * 86_400_000).toISOString()
        })
      }
    }))

  it.effect("200 for every role: the VIEWER admin reads them too", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", toolsPath(DemoRuntimeAgents.configured), { session: yield* signIn("admin") })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toHaveLength(3)
    }))

  it.effect("404 agent-not-found: another workspace's agent, a directory-only agent, an unknown id", () =>
    Effect.gen(function*() {
      const session = yield* signIn("member")
      for (const agent of [DemoRuntimeAgents.foreign, DemoRuntimeAgents.unoperated, randomUUID()]) {
        expectProblem(yield* call("GET", toolsPath(agent), { session }), 404, "agent-not-found")
      }
      // the outsider sees its own agent's tools, but not Acme's
      const outsider = yield* signIn("outsider")
      const own = yield* call("GET", toolsPath(DemoRuntimeAgents.foreign), { session: outsider })
      expect(own.status, own.text).toBe(200)
      expect(own.body.data.map((t: { stableName: string }) => t.stableName)).toEqual(["market.quote"])
      expectProblem(yield* call("GET", toolsPath(DemoRuntimeAgents.configured), { session: outsider }), 404, "agent-not-found")
    }))

  it.effect("422 configuration-missing: an agent without a runtime", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", toolsPath(DemoRuntimeAgents.unconfigured), { session: yield* signIn("owner") })
      expectProblem(reply, 422, "configuration-missing")
    }))

  it.effect("400 for a path id that is not a uuid; 401 without a session; 403 with an API key", () =>
    Effect.gen(function*() {
      const bad = yield* call("GET", toolsPath("not-a-uuid"), { session: yield* signIn("member") })
      expectProblem(bad, 400, "invalid-request")
      expect(bad.body.errors[0]).toMatchObject({ in: "path", pointer: "/entityPublicId" })
      expectProblem(yield* call("GET", toolsPath(DemoRuntimeAgents.configured)), 401, "unauthenticated")
      const key = yield* call("GET", toolsPath(DemoRuntimeAgents.configured), { headers: { "x-api-key": DemoApiKeys.public.key } })
      expectProblem(key, 403, "session-required")
    }))
})

layer(server.layer)("Runtime_PreviewAgentSchedule", (it) => {
  it.effect("Europe/Berlin, spring forward (2026-03-29): 09:00 local moves from 08:00Z to 07:00Z", () =>
    Effect.gen(function*() {
      const data = yield* occurrences({
        cronExpression: "0 9 * * *", timezone: "Europe/Berlin", count: 4, from: "2026-03-27T12:00:00Z"
      })
      expect(data).toEqual({
        timezone: "Europe/Berlin",
        occurrences: ["2026-03-28T08:00:00.000Z", "2026-03-29T07:00:00.000Z", "2026-03-30T07:00:00.000Z", "2026-03-31T07:00:00.000Z"]
      })
    }))

  it.effect("Europe/Berlin: 02:30 does not exist on 2026-03-29; it fires once at 03:30 CEST", () =>
    Effect.gen(function*() {
      const data = yield* occurrences({
        cronExpression: "30 2 * * *", timezone: "Europe/Berlin", count: 3, from: "2026-03-28T00:00:00Z"
      })
      expect(data.occurrences).toEqual(["2026-03-28T01:30:00.000Z", "2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z"])
    }))

  it.effect("Europe/Berlin, fall back (2026-10-25): 09:00 local moves from 07:00Z to 08:00Z", () =>
    Effect.gen(function*() {
      const data = yield* occurrences({
        cronExpression: "0 9 * * *", timezone: "Europe/Berlin", count: 3, from: "2026-10-24T00:00:00Z"
      })
      expect(data.occurrences).toEqual(["2026-10-24T07:00:00.000Z", "2026-10-25T08:00:00.000Z", "2026-10-26T08:00:00.000Z"])
    }))

  it.effect("America/New_York, spring forward (2026-03-08): 09:00 local moves from 14:00Z to 13:00Z", () =>
    Effect.gen(function*() {
      const data = yield* occurrences({
        cronExpression: "0 9 * * *", timezone: "America/New_York", count: 4, from: "2026-03-06T12:00:00Z"
      })
      expect(data).toEqual({
        timezone: "America/New_York",
        occurrences: ["2026-03-06T14:00:00.000Z", "2026-03-07T14:00:00.000Z", "2026-03-08T13:00:00.000Z", "2026-03-09T13:00:00.000Z"]
      })
    }))

  it.effect("America/New_York, fall back (2026-11-01): the repeated 01:30 fires once, at its first (EDT) occurrence", () =>
    Effect.gen(function*() {
      const data = yield* occurrences({
        cronExpression: "30 1 * * *", timezone: "America/New_York", count: 4, from: "2026-10-30T12:00:00Z"
      })
      expect(data.occurrences).toEqual([
        "2026-10-31T05:30:00.000Z", "2026-11-01T05:30:00.000Z", "2026-11-02T06:30:00.000Z", "2026-11-03T06:30:00.000Z"
      ])
    }))

  it.effect("defaults: count 8, from = now (the clock); occurrences strictly after from", () =>
    Effect.gen(function*() {
      const data = yield* occurrences({ cronExpression: "0 0 * * *", timezone: "UTC" })
      expect(TestEpoch.toISOString()).toBe("2026-06-01T00:00:00.000Z")
      expect(data.occurrences).toEqual(Array.from({ length: 8 }, (_, i) => new Date(Date.UTC(2026, 5, 2 + i)).toISOString()))
    }))

  it.effect("weekday schedule and a macro; the zone's canonical name is returned", () =>
    Effect.gen(function*() {
      const weekdays = yield* occurrences({
        cronExpression: "30 9 * * 1-5", timezone: "Europe/Berlin", count: 3, from: "2026-03-27T00:00:00Z"
      })
      // Friday 27 (CET), then Monday 30 and Tuesday 31 (CEST)
      expect(weekdays.occurrences).toEqual(["2026-03-27T08:30:00.000Z", "2026-03-30T07:30:00.000Z", "2026-03-31T07:30:00.000Z"])
      const daily = yield* occurrences({ cronExpression: "@daily", timezone: "utc", count: 1, from: "2026-03-27T10:00:00Z" })
      expect(daily).toEqual({ timezone: "UTC", occurrences: ["2026-03-28T00:00:00.000Z"] })
    }))

  it.effect("400 naming /cronExpression: out of range, six fields, never fires, too short", () =>
    Effect.gen(function*() {
      for (const cronExpression of ["61 9 * * *", "0 0 9 * * *", "0 0 30 2 *", "* *"]) {
        const reply = yield* preview({ cronExpression, timezone: "UTC" })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), cronExpression).toEqual(["/cronExpression"])
        expect(reply.text).not.toContain(cronExpression)
      }
    }))

  it.effect("the crontab(5) macros, each as its five-field expression; every minute is at most once a minute", () =>
    Effect.gen(function*() {
      const from = "2026-03-27T10:00:00Z" // a Friday
      const expected: Record<string, Array<string>> = {
        "@yearly": ["2027-01-01T00:00:00.000Z", "2028-01-01T00:00:00.000Z"],
        "@annually": ["2027-01-01T00:00:00.000Z", "2028-01-01T00:00:00.000Z"],
        "@monthly": ["2026-04-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z"],
        "@weekly": ["2026-03-29T00:00:00.000Z", "2026-04-05T00:00:00.000Z"],
        "@daily": ["2026-03-28T00:00:00.000Z", "2026-03-29T00:00:00.000Z"],
        "@midnight": ["2026-03-28T00:00:00.000Z", "2026-03-29T00:00:00.000Z"],
        "@hourly": ["2026-03-27T11:00:00.000Z", "2026-03-27T12:00:00.000Z"]
      }
      for (const [cronExpression, instants] of Object.entries(expected)) {
        const data = yield* occurrences({ cronExpression, timezone: "UTC", count: 2, from })
        expect(data.occurrences, cronExpression).toEqual(instants)
      }
      const everyMinute = yield* occurrences({ cronExpression: "* * * * *", timezone: "UTC", count: 3, from: "2026-03-27T10:00:30Z" })
      expect(everyMinute.occurrences).toEqual(["2026-03-27T10:01:00.000Z", "2026-03-27T10:02:00.000Z", "2026-03-27T10:03:00.000Z"])
    }))

  it.effect("400 naming /cronExpression: sub-minute and non-crontab forms (seconds fields, @every, cron-parser's own macros)", () =>
    Effect.gen(function*() {
      const refused = [
        "@secondly", "@minutely", "@weekdays", "@weekends", "@every 1s", "@every 1m", "@every", "@reboot", "@DAILY",
        "@daily *", "* * * * * *", "*/5 * * * * *", "0 * * * * *", "0 0 9 * * *", "0 0 0 1 1 * 2027"
      ]
      for (const cronExpression of refused) {
        const reply = yield* preview({ cronExpression, timezone: "UTC" })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors, cronExpression).toEqual([{
          in: "body",
          pointer: "/cronExpression",
          detail: "must be a five-field cron expression (minute hour day-of-month month day-of-week) or one of the " +
            "macros @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly"
        }])
      }
    }))

  it.effect("400 naming /timezone: unknown zone; /count out of 1-25; unknown body key", () =>
    Effect.gen(function*() {
      const zone = yield* preview({ cronExpression: "0 9 * * *", timezone: "Mars/Olympus_Mons" })
      expectProblem(zone, 400, "invalid-request")
      expect(zone.body.errors).toEqual([{ in: "body", pointer: "/timezone", detail: expect.any(String) }])
      expect(zone.text).not.toContain("Olympus")
      for (const count of [0, 26, 2.5]) {
        const reply = yield* preview({ cronExpression: "0 9 * * *", timezone: "UTC", count })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors[0].pointer).toBe("/count")
      }
      const extra = yield* preview({ cronExpression: "0 9 * * *", timezone: "UTC", repeat: true })
      expectProblem(extra, 400, "invalid-request")
      const missing = yield* preview({ timezone: "UTC" })
      expectProblem(missing, 400, "invalid-request")
      expect(missing.body.errors[0].pointer).toBe("/cronExpression")
      const noKey = yield* preview({ cronExpression: "0 9 * * *", timezone: "UTC" }, { idempotencyKey: null })
      expectProblem(noKey, 400, "idempotency-key-required")
    }))

  it.effect("404 agent-not-found; 401 without a session; 403 without the CSRF token", () =>
    Effect.gen(function*() {
      const body = { cronExpression: "0 9 * * *", timezone: "UTC" }
      expectProblem(yield* preview(body, {}, DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* call("POST", previewPath(DemoRuntimeAgents.configured), { body }), 401, "unauthenticated")
      expectProblem(yield* preview(body, { csrf: null }), 403, "csrf-token-invalid")
    }))

  it.effect("409 idempotency-key-reuse: the same key with another body; the same body replays", () =>
    Effect.gen(function*() {
      const session = yield* signIn("member")
      const key = randomUUID()
      const body = { cronExpression: "0 9 * * *", timezone: "UTC", count: 2, from: "2026-01-01T00:00:00Z" }
      const first = yield* preview(body, { session, idempotencyKey: key })
      expect(first.status, first.text).toBe(200)
      const replay = yield* preview(body, { session, idempotencyKey: key })
      expect(replay.body.data).toEqual(first.body.data)
      expectProblem(yield* preview({ ...body, count: 3 }, { session, idempotencyKey: key }), 409, "idempotency-key-reuse")
    }))
})
