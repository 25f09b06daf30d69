/**
 * Admin_ListJobRuns (GET /api/v1/admin/jobs, ours): the durable engine's workflow
 * executions, read from the engine's own storage, through the HTTP stack.
 */
import { Activity, Workflow } from "@effect/workflow"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { AgentRun } from "../../src/runtime/loop/AgentRunWorkflow.js"
import { DemoConversations } from "../../src/runtime/demo.js"
import { AnalyticsExportWorkflow } from "../../src/social/analytics/ExportWorkflow.js"
import { DemoAgents } from "../../src/agents/demo.js"
import { awaitRun } from "../runtime/support.js"
import { awaitExport } from "../social/analytics/support.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { awaitWorkflow } from "../support/workflows.js"
import { until, waitFor } from "../support/waitFor.js"

/** A workflow that always fails: its one activity dies (a defect, as an outage past the retries would). */
const Doomed = Workflow.make({ name: "TestDoomed", payload: { reason: Schema.String }, idempotencyKey: ({ reason }) => reason })
const DoomedLive = Doomed.toLayer(({ reason }) => Activity.make({ name: "explode", execute: Effect.dieMessage(reason) }))

const server = makeTestServer()
const TestLayer = DoomedLive.pipe(Layer.provideMerge(server.layer))
const Path = "/api/v1/admin/jobs"

layer(TestLayer)("Admin_ListJobRuns", (it) => {
  it.effect("an admin sees executions newest first: workflow, state, payload, activities, times, last error, runner", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      expect((yield* call("GET", Path, { session: admin })).body.data).toEqual([]) // nothing has run yet

      // SUCCEEDED: an agent run
      const member = yield* signIn("member")
      const sent = yield* call("POST", `/api/v1/conversations/${DemoConversations.chat.id}/messages`, {
        session: member,
        body: { content: "hello" }
      })
      expect(sent.status, sent.text).toBe(202)
      const runId: string = sent.body.data.run.id
      yield* awaitRun(runId)
      // SUSPENDED: an export waits durably for its expiry once built
      server.clock.advance(1_000)
      const owner = yield* signIn("owner")
      const exported = yield* call("POST", `/api/v1/agents/${DemoAgents[0].id}/analytics/exports`, {
        session: owner,
        body: { exportType: "TRAFFIC", from: "2026-05-01", to: "2026-05-31" }
      })
      expect(exported.status, exported.text).toBe(202)
      const exportId: string = exported.body.data.id
      yield* awaitExport(exportId)
      yield* awaitWorkflow(AnalyticsExportWorkflow, { exportId }, "Suspended")
      // FAILED
      server.clock.advance(1_000)
      yield* Doomed.execute({ reason: "doomed: nope" }, { discard: true })
      yield* awaitWorkflow(Doomed, { reason: "doomed: nope" })

      // the engine records each outcome just after the work's own last write: wait for all three
      const states = (data: ReadonlyArray<{ state: string }>) => data.map((e) => e.state).join(",")
      yield* waitFor(
        "the three outcomes recorded",
        until(Effect.map(call("GET", Path, { session: admin }), (reply) => states(reply.body.data)), (s) => s === "FAILED,SUSPENDED,SUCCEEDED"),
        10_000,
        25
      )

      const reply = yield* call("GET", Path, { session: admin })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(states(reply.body.data)).toBe("FAILED,SUSPENDED,SUCCEEDED")
      const [failed, suspended, succeeded] = reply.body.data
      expect(failed).toEqual({
        executionId: yield* Doomed.executionId({ reason: "doomed: nope" }),
        workflow: "TestDoomed",
        state: "FAILED",
        payload: { reason: "doomed: nope" },
        activities: 1,
        createdAt: "2026-06-01T00:00:02.000Z",
        finishedAt: "2026-06-01T00:00:02.000Z",
        lastError: expect.stringContaining("doomed: nope"),
        runner: failed.runner
      })
      expect(suspended).toMatchObject({
        executionId: yield* AnalyticsExportWorkflow.executionId({ exportId }),
        workflow: "AnalyticsExport",
        state: "SUSPENDED",
        payload: { exportId },
        activities: 1,
        createdAt: "2026-06-01T00:00:01.000Z",
        lastError: null
      })
      expect(succeeded).toEqual({
        executionId: yield* AgentRun.executionId({ runId }),
        workflow: "AgentRun",
        state: "SUCCEEDED",
        payload: { runId },
        activities: 2,
        createdAt: TestEpoch.toISOString(),
        finishedAt: TestEpoch.toISOString(),
        lastError: null,
        runner: succeeded.runner
      })
      expect(Number.isInteger(succeeded.runner)).toBe(true)

      const limited = yield* call("GET", `${Path}?state=SUCCEEDED&limit=1`, { session: admin })
      expect(limited.status, limited.text).toBe(200)
      expect(limited.body.data.map((e: { executionId: string }) => e.executionId)).toEqual([succeeded.executionId])

      expectProblem(yield* call("GET", `${Path}?limit=0`, { session: admin }), 400)
      expectProblem(yield* call("GET", `${Path}?limit=2.5`, { session: admin }), 400)
      expectProblem(yield* call("GET", `${Path}?state=exploded`, { session: admin }), 400)
    }))

  it.effect("a non-admin session gets 403, no session 401", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectProblem(yield* call("GET", Path, { session: owner }), 403, "admin-required")
      expectProblem(yield* call("GET", Path), 401, "unauthenticated")
    }))
})
