/**
 * Stats_GetDirectoryDailyStats, Stats_GetAgentDailyStats and their range lists
 * (spec §9 "/api/v1/stats/* immutable projections"): a closed day's figures from known evidence, projected once and served as stored
 * (same bytes, same ETag, 304), today live with a short max-age, the range rules, and
 * concurrent first reads storing one projection; on both databases, through the real HTTP
 * stack. Agents are registered with Agents_CreateAgent; the other evidence is inserted with
 * SQL (test/stats/support.ts says why).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { call, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import {
  insertActivity,
  insertBoundIdentity,
  insertBounty,
  insertFavorite,
  insertFeedback,
  insertProbe,
  insertProtocol,
  insertRun,
  storedAgentRows,
  storedDirectoryRows
} from "./support.js"

const server = makeTestServer()

/** The day the evidence is written on, and instants in it. */
const Day = "2026-06-10"
const at = (time: string) => new Date(`${Day}T${time}Z`)
const Next = "2026-06-11"

const directory = (date: string, headers: Record<string, string> = {}) => call("GET", `/api/v1/stats/directory/daily/${date}`, { headers })
const agentDay = (id: string, date: string, headers: Record<string, string> = {}) =>
  call("GET", `/api/v1/stats/agents/${id}/daily/${date}`, { headers })
const directoryRange = (from: string, to: string, headers: Record<string, string> = {}) =>
  call("GET", `/api/v1/stats/directory/daily?from=${from}&to=${to}`, { headers })
const agentRange = (id: string, from: string, to: string) => call("GET", `/api/v1/stats/agents/${id}/daily?from=${from}&to=${to}`)

/** The `data` part of a body exactly as sent (the bytes before `,"meta":`). */
const dataText = (reply: Reply) => reply.text.slice(0, reply.text.lastIndexOf(`,"meta":`))

const expectImmutable = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(200)
  expect(reply.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
  expect(reply.headers["etag"]).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
}
const expectLive = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(200)
  expect(reply.headers["cache-control"]).toBe("public, max-age=60")
  expect(reply.headers["etag"]).toBeUndefined()
}

/** The two agents registered on `Day`. */
const agents: { a: string; b: string } = { a: "", b: "" }

layer(server.layer, { timeout: 120_000 })("Daily statistics", (it) => {
  it.effect("a closed day's figures come from the day's evidence (directory and agent)", () =>
    Effect.gen(function*() {
      // the day before: the baseline of the directory (the demo data only)
      server.clock.set(at("09:00:00.000"))
      const before = yield* directory("2026-06-09")
      expectImmutable(before)

      const owner = yield* signIn("owner")
      for (const [key, slug] of [["a", "stats-agent-a"], ["b", "stats-agent-b"]] as const) {
        const reply = yield* call("POST", "/api/v1/agents", {
          session: owner,
          body: { workspaceId: DemoWorkspaces.acme.id, name: `Stats ${key}`, canonicalSlug: slug, links: [] }
        })
        expect(reply.status, reply.text).toBe(201)
        agents[key] = reply.body.data.entityId
      }
      const { a, b } = agents
      yield* insertRun(a, at("09:10:00.000"), "SUCCEEDED", 2_000)
      yield* insertRun(a, at("09:20:00.000"), "SUCCEEDED", 4_000)
      yield* insertRun(a, at("09:30:00.000"), "SUCCEEDED", 9_000)
      yield* insertRun(a, at("10:00:00.000"), "FAILED", 500)
      yield* insertRun(b, at("11:00:00.000"), "TIMED_OUT", 60_000)
      yield* insertRun(b, at("23:59:59.000"), "RUNNING")
      yield* insertRun(b, new Date("2026-06-09T23:59:00.000Z"), "SUCCEEDED", 120_000) // started the day before, ended in the day
      yield* insertFeedback(a, 800_000, at("12:00:00.000"))
      yield* insertFeedback(a, 600_000, at("12:30:00.000"), "VALUE")
      yield* insertFeedback(b, 1_000_000, at("13:00:00.000"))
      yield* insertFavorite("owner", a, at("14:00:00.000"))
      yield* insertFavorite("member", a, new Date(`${Next}T00:00:00.000Z`)) // the next day: not a star of the day
      yield* insertProbe(a, at("15:00:00.000"), true)
      yield* insertProbe(a, at("15:05:00.000"), true)
      yield* insertProbe(a, at("15:10:00.000"), false)
      yield* insertActivity(a, at("16:00:00.000"))
      yield* insertBoundIdentity(a, "base", "900001", at("17:00:00.000"))
      yield* insertProtocol(b, "mcp")
      // bounties: one posted, funded and paid in the day; one posted the day before, funded and disputed in the day;
      // one posted in the day, never funded; one paid the next day
      yield* insertBounty({ state: "RELEASED", createdAt: at("08:00:00.000"), fundedAt: at("08:30:00.000"), settledAt: at("18:00:00.000") })
      yield* insertBounty({
        state: "DISPUTED", createdAt: new Date("2026-06-09T12:00:00.000Z"), fundedAt: at("07:00:00.000"), disputedAt: at("19:00:00.000")
      })
      yield* insertBounty({ state: "FUNDING_PENDING", createdAt: at("20:00:00.000"), fundedAt: null })
      yield* insertBounty({
        state: "RELEASED", createdAt: new Date("2026-06-08T12:00:00.000Z"), fundedAt: new Date("2026-06-08T13:00:00.000Z"),
        settledAt: new Date(`${Next}T00:00:00.000Z`)
      })

      server.clock.set(new Date(`${Next}T01:00:00.000Z`))
      const reply = yield* directory(Day)
      expectImmutable(reply)
      const base = before.body.data
      const data = reply.body.data
      const plus = (s: string, n: number) => String(Number(s) + n)
      const count = (list: Array<{ listed: string }>, key: string, field: "network" | "protocol") =>
        (list as Array<Record<string, string>>).find((x) => x[field] === key)?.["listed"] ?? "0"
      expect(data).toMatchObject({
        date: Day,
        closed: true,
        agents: { listed: plus(base.agents.listed, 2), verified: base.agents.verified, new: "2" },
        runs: { started: "6", succeeded: "4", failed: "2" },
        feedback: { created: "3", meanRatingPpm: 800_000 },
        bounties: { posted: "2", funded: "2", paid: "1", disputed: "1" }
      })
      expect(count(data.networks, "base", "network")).toBe(plus(count(base.networks, "base", "network"), 1))
      expect(count(data.protocols, "mcp", "protocol")).toBe(plus(count(base.protocols, "mcp", "protocol"), 1))
      expect(reply.body.meta.freshness).toEqual({ projectedAt: `${Next}T01:00:00.000Z`, sourceWatermark: `${Next}T00:00:00.000Z` })
      // keys in ascending order
      const keys = data.networks.map((n: { network: string }) => n.network)
      expect(keys).toEqual([...keys].sort())

      const agentReply = yield* agentDay(a, Day)
      expectImmutable(agentReply)
      expect(agentReply.body.data).toEqual({
        date: Day,
        entityPublicId: a,
        closed: true,
        runs: { started: "4", succeeded: "3", failed: "1", latencyP50Ms: 4_000 },
        feedback: { created: "2", meanRatingPpm: 700_000 },
        stars: "1",
        endpointProbes: { ok: "2", total: "3" },
        activityItems: "2", // its registration (agent.registered, recorded by Agents_CreateAgent) and the inserted item
        orders: { paid: "0", revenue: [] }
      })
      const bReply = yield* agentDay(b, Day)
      expect(bReply.body.data.runs).toEqual({ started: "2", succeeded: "1", failed: "1", latencyP50Ms: 120_000 })
      // the agent's days before it existed: zeros
      expect((yield* agentDay(a, "2026-06-09")).body.data).toMatchObject({
        runs: { started: "0", succeeded: "0", failed: "0", latencyP50Ms: null },
        feedback: { created: "0", meanRatingPpm: null },
        stars: "0",
        endpointProbes: { ok: "0", total: "0" },
        activityItems: "0"
      })
    }))

  it.effect("a closed day is projected once: later evidence stamped in it changes nothing, same bytes and ETag; 304", () =>
    Effect.gen(function*() {
      const { a } = agents
      const first = yield* directory(Day)
      const firstAgent = yield* agentDay(a, Day)
      yield* insertFeedback(a, 0, at("18:00:00.000"), "SAFETY")
      yield* insertRun(a, at("18:30:00.000"), "FAILED", 100)
      server.clock.set(new Date(`${Next}T02:00:00.000Z`))
      const again = yield* directory(Day)
      const againAgent = yield* agentDay(a, Day)
      expectImmutable(again)
      expect(dataText(again)).toBe(dataText(first))
      expect(again.headers["etag"]).toBe(first.headers["etag"])
      expect(again.body.meta.freshness).toEqual(first.body.meta.freshness)
      expect(again.body.meta.requestId).not.toBe(first.body.meta.requestId)
      expect(dataText(againAgent)).toBe(dataText(firstAgent))
      expect(againAgent.headers["etag"]).toBe(firstAgent.headers["etag"])
      expect(againAgent.body.data.feedback).toEqual({ created: "2", meanRatingPpm: 700_000 })
      expect(yield* storedDirectoryRows(Day)).toBe(1)
      expect(yield* storedAgentRows(a, Day)).toBe(1)

      // If-None-Match: 304 with no body, the tag and the caching headers
      for (const tag of [first.headers["etag"]!, `W/${first.headers["etag"]}`, `"other", ${first.headers["etag"]}`]) {
        const notModified = yield* directory(Day, { "if-none-match": tag })
        expect(notModified.status).toBe(304)
        expect(notModified.text).toBe("")
        expect(notModified.headers["etag"]).toBe(first.headers["etag"])
        expect(notModified.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      }
      expect((yield* agentDay(a, Day, { "if-none-match": firstAgent.headers["etag"]! })).status).toBe(304)
      // another tag: the full answer
      expect((yield* directory(Day, { "if-none-match": "\"stale\"" })).status).toBe(200)
      // the directory's day and the agent's day have different tags
      expect(firstAgent.headers["etag"]).not.toBe(first.headers["etag"])
    }))

  it.effect("today is live: short max-age, no ETag, freshness now, and it changes with new evidence", () =>
    Effect.gen(function*() {
      const { a } = agents
      const now1 = new Date(`${Next}T08:00:00.000Z`)
      server.clock.set(now1)
      const first = yield* agentDay(a, Next)
      expectLive(first)
      expect(first.body.data).toMatchObject({ date: Next, closed: false, runs: { started: "0" }, stars: "2" })
      expect(first.body.meta.freshness).toEqual({ projectedAt: now1.toISOString(), sourceWatermark: now1.toISOString() })
      const dir1 = yield* directory(Next)
      expectLive(dir1)
      expect(dir1.body.data.closed).toBe(false)

      yield* insertRun(a, new Date(`${Next}T08:30:00.000Z`), "SUCCEEDED", 1_000)
      const now2 = new Date(`${Next}T09:00:00.000Z`)
      server.clock.set(now2)
      const second = yield* agentDay(a, Next)
      expectLive(second)
      expect(second.body.data.runs).toEqual({ started: "1", succeeded: "1", failed: "0", latencyP50Ms: 1_000 })
      expect(second.body.meta.freshness.projectedAt).toBe(now2.toISOString())
      const dir2 = yield* directory(Next)
      expect(dir2.body.data.runs.started).toBe(String(Number(dir1.body.data.runs.started) + 1))
      // never stored
      expect(yield* storedDirectoryRows(Next)).toBe(0)
      expect(yield* storedAgentRows(a, Next)).toBe(0)
    }))

  it.effect("a day after today is 404 stats-day-not-available; an unknown agent 404; a bad date 400 naming the field", () =>
    Effect.gen(function*() {
      expectProblem(yield* directory("2026-06-12"), 404, "stats-day-not-available")
      expectProblem(yield* agentDay(agents.a, "2027-01-01"), 404, "stats-day-not-available")
      expectProblem(yield* agentDay("01900000-0000-7000-8000-00000000dead", Day), 404, "agent-not-found")
      expectProblem(yield* agentRange("01900000-0000-7000-8000-00000000dead", Day, Day), 404, "agent-not-found")
      for (const bad of ["2026-02-30", "2026-6-1", "yesterday", "2026-13-01"]) {
        const reply = yield* directory(bad)
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors).toEqual([{ in: "path", pointer: "/date", detail: "must be a calendar day YYYY-MM-DD (UTC)" }])
      }
    }))

  it.effect("a day before the directory's first data: zeros, immutable", () =>
    Effect.gen(function*() {
      const reply = yield* directory("2020-01-01")
      expectImmutable(reply)
      expect(reply.body.data).toEqual({
        date: "2020-01-01",
        closed: true,
        agents: { listed: "0", verified: "0", new: "0" },
        networks: [],
        protocols: [],
        runs: { started: "0", succeeded: "0", failed: "0" },
        feedback: { created: "0", meanRatingPpm: null },
        orders: { paid: "0", revenue: [] },
        bounties: { posted: "0", funded: "0", paid: "0", disputed: "0" }
      })
    }))

  it.effect("range lists: the rules (400 naming the field), one item per day in order, caching by whether today is in", () =>
    Effect.gen(function*() {
      const problem = (reply: Reply, pointer: string) => {
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors).toMatchObject([{ in: "query", pointer }])
      }
      problem(yield* directoryRange("2026-06-01", "2026-06-12"), "/to")
      problem(yield* directoryRange("2026-06-05", "2026-06-04"), "/from")
      problem(yield* directoryRange("2026-03-11", "2026-06-11"), "/from") // 93 days
      problem(yield* agentRange(agents.a, "2026-06-05", "2026-06-04"), "/from")
      problem(yield* directoryRange("2026-06-01", "2026-02-30"), "/to")
      const missing = yield* call("GET", "/api/v1/stats/directory/daily?from=2026-06-01")
      expectProblem(missing, 400, "invalid-request")

      // 92 days ending today: every day, in order, today last and live
      const full = yield* directoryRange("2026-03-12", Next)
      expectLive(full)
      expect(full.body.data).toHaveLength(92)
      expect(full.body.data[0].date).toBe("2026-03-12")
      expect(full.body.data[91]).toMatchObject({ date: Next, closed: false })
      expect(full.body.data.slice(0, 91).every((d: { closed: boolean }) => d.closed)).toBe(true)
      const dates = full.body.data.map((d: { date: string }) => d.date)
      expect(dates).toEqual([...dates].sort())
      expect(new Set(dates).size).toBe(92)
      // the stored day inside the range is served as stored
      const single = yield* directory(Day)
      expect(JSON.stringify(full.body.data.find((d: { date: string }) => d.date === Day))).toBe(dataText(single).slice(8))

      // closed days only: immutable, a strong tag, 304
      const closed = yield* directoryRange("2026-06-08", Day)
      expectImmutable(closed)
      expect(closed.body.data.map((d: { date: string }) => d.date)).toEqual(["2026-06-08", "2026-06-09", Day])
      expect((yield* directoryRange("2026-06-08", Day, { "if-none-match": closed.headers["etag"]! })).status).toBe(304)

      const agentDays = yield* agentRange(agents.a, "2026-06-09", Next)
      expectLive(agentDays)
      expect(agentDays.body.data.map((d: { runs: { started: string } }) => d.runs.started)).toEqual(["0", "4", "1"])
      // an API key with agents:read reads it too
      const withKey = yield* call("GET", `/api/v1/stats/directory/daily?from=${Day}&to=${Day}`, {
        headers: { "x-api-key": DemoApiKeys.public.key }
      })
      expectImmutable(withKey)
      expect(withKey.headers["etag"]).toBe((yield* directoryRange(Day, Day)).headers["etag"])
    }))

  it.effect("concurrent first reads of a closed day store one projection and answer identical bytes", () =>
    Effect.gen(function*() {
      const { a } = agents
      const day = "2026-05-20"
      const replies = yield* Effect.all(Array.from({ length: 8 }, () => directory(day)), { concurrency: "unbounded" })
      const agentReplies = yield* Effect.all(Array.from({ length: 8 }, () => agentDay(a, day)), { concurrency: "unbounded" })
      for (const list of [replies, agentReplies]) {
        for (const reply of list) {
          expectImmutable(reply)
          expect(dataText(reply)).toBe(dataText(list[0]!))
          expect(reply.headers["etag"]).toBe(list[0]!.headers["etag"])
          expect(reply.body.meta.freshness).toEqual(list[0]!.body.meta.freshness)
        }
      }
      expect(yield* storedDirectoryRows(day)).toBe(1)
      expect(yield* storedAgentRows(a, day)).toBe(1)
    }))
})
