/**
 * Agent schedules end to end through the real cron: a schedule set to fire
 * in the next minute is fired once by the `AgentSchedulesDue` ClusterCron on the test
 * server's engine, and its run reaches SUCCEEDED with the deterministic runtime. The
 * server's manual clock is moved past the minute (the engine delivers the cron's
 * occurrence by that clock), so the test does not wait a real minute.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { pause } from "../support/time.js"
import { until, waitFor } from "../support/waitFor.js"
import { awaitCronScheduled } from "../support/workflows.js"
import { awaitRun, messageRows } from "./support.js"

const server = makeTestServer()

/** The runs of the schedule, oldest first. */
const scheduleRuns = (scheduleId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string; triggerType: string }>`SELECT id, trigger_type AS "triggerType" FROM runs
      WHERE schedule_id = ${scheduleId} ORDER BY created_at, id`).pipe(Effect.orDie)

/** Waits (real time, at most `timeoutMs`) until the schedule has `count` runs; returns them. */
const awaitRuns = (scheduleId: string, count: number, timeoutMs = 70_000) =>
  Effect.gen(function*() {
    return yield* waitFor(
      `${count} runs of schedule ${scheduleId}`,
      until(scheduleRuns(scheduleId), (runs) => runs.length >= count, (runs) => `${runs.length} runs`),
      timeoutMs,
      50
    )
  })


layer(server.layer, { timeout: 180_000 })("Agent schedules through the real cron", (it) => {
  it.effect("a schedule set for the next minute fires once, and its run reaches SUCCEEDED; the next minute fires again", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", `/api/v1/agents/${DemoRuntimeAgents.configured}/schedules`, {
        body: { cronExpression: "* * * * *", timezone: "UTC", message: "Anything new?", title: "Every minute" },
        session: yield* signIn("owner")
      })
      expect(reply.status, reply.text).toBe(201)
      const schedule = reply.body.data as { id: string; conversationId: string; nextOccurrenceAt: string }
      const firstMinute = new Date(TestEpoch.getTime() + 60_000)
      expect(schedule.nextOccurrenceAt).toBe(firstMinute.toISOString())

      yield* awaitCronScheduled("AgentSchedulesDue")
      server.clock.set(new Date(firstMinute.getTime() + 500))
      const [run] = yield* awaitRuns(schedule.id, 1)
      expect(run!.triggerType).toBe("SCHEDULE")
      expect((yield* awaitRun(run!.id)).state).toBe("SUCCEEDED")
      const messages = yield* messageRows(schedule.conversationId)
      expect(messages.map((m) => [m.role, m.state])).toEqual([["user", "COMPLETE"], ["assistant", "COMPLETE"]])
      expect(messages[0]!.contentText).toBe("Anything new?")
      expect(messages[1]!.contentText).toContain("Anything new?")

      // once: more polls of the engine start nothing more for this minute
      yield* pause(1_500)
      expect(yield* scheduleRuns(schedule.id)).toHaveLength(1)
      const listed = yield* call("GET", `/api/v1/agents/${DemoRuntimeAgents.configured}/schedules`, { session: yield* signIn("member") })
      expect(listed.body.data.find((s: { id: string }) => s.id === schedule.id)).toMatchObject({
        lastRunId: run!.id,
        lastFiredAt: new Date(firstMinute.getTime() + 500).toISOString(),
        nextOccurrenceAt: new Date(firstMinute.getTime() + 60_000).toISOString()
      })

      // the next minute: one more run
      server.clock.set(new Date(firstMinute.getTime() + 60_500))
      const runs = yield* awaitRuns(schedule.id, 2)
      expect((yield* awaitRun(runs[1]!.id)).state).toBe("SUCCEEDED")
      yield* pause(1_000)
      expect(yield* scheduleRuns(schedule.id)).toHaveLength(2)
    }))
})
