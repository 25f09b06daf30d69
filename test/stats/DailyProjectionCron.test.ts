/**
 * The `DailyStatsProjection` ClusterCron on the test server's engine: after
 * 00:05 UTC it projects the day that closed, the directory and every agent with evidence
 * that day, before anyone reads it; the stored day is then what the reads serve. The
 * server's manual clock is moved past the occurrence (the engine delivers it by that clock).
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAgents } from "../../demo/agents/seed.js"
import { call } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"
import { awaitCronScheduled } from "../support/workflows.js"
import { insertFeedback, storedAgentRows, storedDirectoryRows } from "./support.js"

const server = makeTestServer()

/** Waits (real time, at most 60 s) until `check` holds. */
const awaitTrue = (what: string, check: Effect.Effect<boolean, never, SqlClient.SqlClient>) =>
  waitFor(what, until(check, (held) => held), 60_000)

layer(server.layer, { timeout: 120_000 })("The daily statistics cron", (it) => {
  it.effect("after 00:05 UTC the day that closed is projected for the directory and the agents with evidence", () =>
    Effect.gen(function*() {
      const day = TestEpoch.toISOString().slice(0, 10) // 2026-06-01
      const [atlas, beacon] = [DemoAgents[0].id, DemoAgents[1].id]
      yield* insertFeedback(atlas, 900_000, new Date(`${day}T10:00:00.000Z`))
      yield* awaitCronScheduled("DailyStatsProjection")
      expect(yield* storedDirectoryRows(day)).toBe(0)

      const tick = new Date(TestEpoch.getTime() + 86_400_000 + 5 * 60_000 + 30_000) // 2026-06-02T00:05:30Z
      server.clock.set(tick)
      yield* awaitTrue("the directory's day projected", Effect.map(storedDirectoryRows(day), (n) => n === 1))
      yield* awaitTrue("atlas's day projected", Effect.map(storedAgentRows(atlas, day), (n) => n === 1))
      // an agent with no evidence that day is left to its first read
      expect(yield* storedAgentRows(beacon, day)).toBe(0)

      // what the reads serve is the cron's projection
      const reply = yield* call("GET", `/api/v1/stats/agents/${atlas}/daily/${day}`)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(reply.body.data.feedback).toEqual({ created: "1", meanRatingPpm: 900_000 })
      expect(reply.body.meta.freshness).toEqual({ projectedAt: tick.toISOString(), sourceWatermark: "2026-06-02T00:00:00.000Z" })
      const directory = yield* call("GET", `/api/v1/stats/directory/daily/${day}`)
      expect(directory.body.meta.freshness.projectedAt).toBe(tick.toISOString())
      expect(directory.body.data.feedback.created).toBe("1")
    }))
})
