/**
 * Admin_RetryJobRun (POST /api/v1/admin/jobs/{executionId}/retry, ours): a FAILED
 * execution of the durable engine starts again from its failed step, through the HTTP
 * stack, on both databases. The workflow here fails once, then succeeds: its first
 * activity always succeeds (and must not run again on the retry), its second dies on its
 * first run only.
 */
import { Activity, Workflow } from "@effect/workflow"
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitWorkflow } from "../support/workflows.js"
import { until, waitFor } from "../support/waitFor.js"

/** How many times each activity of `Flaky` ran, by key. */
const runs = { first: new Map<string, number>(), flaky: new Map<string, number>() }
const count = (map: Map<string, number>, key: string) => {
  const n = (map.get(key) ?? 0) + 1
  map.set(key, n)
  return n
}

const Flaky = Workflow.make({ name: "TestFlaky", payload: { key: Schema.String }, idempotencyKey: ({ key }) => key })
const FlakyLive = Flaky.toLayer(({ key }) =>
  Effect.gen(function*() {
    yield* Activity.make({ name: "first", execute: Effect.sync(() => void count(runs.first, key)) })
    yield* Activity.make({
      name: "flaky",
      execute: Effect.suspend(() => count(runs.flaky, key) === 1 ? Effect.dieMessage("flaky: first run fails") : Effect.void)
    })
  })
)

const server = makeTestServer()
const TestLayer = FlakyLive.pipe(Layer.provideMerge(server.layer))
const retryPath = (executionId: string) => `/api/v1/admin/jobs/${executionId}/retry`

/** The execution as Admin_ListJobRuns shows it, once it is in `state` (real time, at most 20 s). */
const awaitListed = (admin: Session, executionId: string, state: string) =>
  Effect.gen(function*() {
    const listed = Effect.map(
      call("GET", "/api/v1/admin/jobs?limit=100", { session: admin }),
      (listed) => listed.body.data.find((e: { executionId: string }) => e.executionId === executionId)
    )
    return yield* waitFor(`${executionId} ${state}`, until(listed, (found) => found?.state === state), 20_000, 25)
  })

layer(TestLayer)("Admin_RetryJobRun", (it) => {
  it.effect("a FAILED execution starts again from its failed step and succeeds; completed steps do not run again", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      yield* Flaky.execute({ key: "once" }, { discard: true })
      yield* awaitWorkflow(Flaky, { key: "once" })
      const executionId = yield* Flaky.executionId({ key: "once" })
      const failed = yield* awaitListed(admin, executionId, "FAILED")
      expect(failed.lastError).toContain("flaky: first run fails")

      const retryKey = randomUUID()
      const retried = yield* call("POST", retryPath(executionId), { session: admin, idempotencyKey: retryKey })
      expect(retried.status, retried.text).toBe(202)
      expect(retried.body.data).toEqual({
        ...failed,
        state: "RUNNING",
        finishedAt: null,
        lastError: null
      })
      // the same request again replays the answer
      const replayed = yield* call("POST", retryPath(executionId), { session: admin, idempotencyKey: retryKey })
      expect(replayed.status, replayed.text).toBe(202)
      expect(replayed.body.data).toEqual(retried.body.data)

      const succeeded = yield* awaitListed(admin, executionId, "SUCCEEDED")
      expect(succeeded).toMatchObject({ executionId, workflow: "TestFlaky", payload: { key: "once" }, activities: 2, lastError: null })
      // the first step ran once; the failed one ran again
      expect(runs.first.get("once")).toBe(1)
      expect(runs.flaky.get("once")).toBe(2)

      // SUCCEEDED now: nothing to retry
      expectProblem(yield* call("POST", retryPath(executionId), { session: admin }), 409, "invalid-state")
    }))

  it.effect("404 for an unknown execution, 400 for a malformed id, 409 for one that did not fail", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      expectProblem(yield* call("POST", retryPath("0123456789abcdef0123456789abcdef"), { session: admin }), 404, "workflow-execution-not-found")
      expectProblem(yield* call("POST", retryPath("not-an-execution"), { session: admin }), 400)
      // the second run of this key succeeds at once: make its first run happen elsewhere
      count(runs.flaky, "fine")
      yield* Flaky.execute({ key: "fine" }, { discard: true })
      yield* awaitWorkflow(Flaky, { key: "fine" })
      const executionId = yield* Flaky.executionId({ key: "fine" })
      yield* awaitListed(admin, executionId, "SUCCEEDED")
      expectProblem(yield* call("POST", retryPath(executionId), { session: admin }), 409, "invalid-state")
    }))

  it.effect("a non-admin session gets 403, no session 401, no Idempotency-Key 400", () =>
    Effect.gen(function*() {
      const executionId = yield* Flaky.executionId({ key: "once" })
      const owner = yield* signIn("owner")
      expectProblem(yield* call("POST", retryPath(executionId), { session: owner }), 403, "admin-required")
      expectProblem(yield* call("POST", retryPath(executionId)), 401, "unauthenticated")
      const admin = yield* signIn("admin")
      expectProblem(yield* call("POST", retryPath(executionId), { session: admin, idempotencyKey: null }), 400)
    }))
})
