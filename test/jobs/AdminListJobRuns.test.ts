/** Admin_ListJobRuns (GET /api/v1/admin/jobs, ours): the job runs view through the HTTP stack. */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { IdsSequence } from "../../layers/Ids.js"
import { jobHandler, JobRunner, JobRunnerLayer } from "../../layers/JobRunner.js"
import { jobKind, Jobs, JobsLive } from "../../layers/Jobs.js"
import { testConfig } from "../support/config.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const server = makeTestServer()
const TestLayer = JobsLive.pipe(Layer.provideMerge(server.layer), Layer.provideMerge(IdsSequence("0000000d")))

const Doomed = jobKind("test-doomed", Schema.Struct({ reason: Schema.String }))
const Later = jobKind("test-later", Schema.Struct({}))
const Path = "/api/v1/admin/jobs"

layer(TestLayer, { excludeTestServices: true })("Admin_ListJobRuns", (it) => {
  it.effect("an admin sees recent runs with kind, state, attempts, timestamps and last error", () =>
    Effect.gen(function*() {
      const jobs = yield* Jobs
      const failedId = Option.getOrThrow(yield* jobs.enqueue(Doomed, { reason: "nope" }, { maxAttempts: 1 }))
      yield* Effect.scoped(Effect.gen(function*() {
        const runner = Context.get(
          yield* Layer.build(JobRunnerLayer([jobHandler(Doomed, ({ reason }) => Effect.fail(new Error(reason)))], [], testConfig().jobs)),
          JobRunner
        )
        expect(yield* runner.runDue).toBe(1)
      }))
      server.clock.advance(1_000)
      const pendingId = Option.getOrThrow(yield* jobs.enqueue(Later, {}, { runAt: new Date(TestEpoch.getTime() + 86_400_000) }))

      const admin = yield* signIn("admin")
      const reply = yield* call("GET", Path, { session: admin })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(reply.body.data.slice(0, 2)).toEqual([
        {
          id: pendingId,
          kind: "test-later",
          state: "pending",
          attempts: 0,
          maxAttempts: 5,
          runAt: "2026-06-02T00:00:00.000Z",
          createdAt: "2026-06-01T00:00:01.000Z",
          startedAt: null,
          finishedAt: null,
          lastError: null
        },
        {
          id: failedId,
          kind: "test-doomed",
          state: "failed",
          attempts: 1,
          maxAttempts: 1,
          runAt: "2026-06-01T00:00:00.000Z",
          createdAt: "2026-06-01T00:00:00.000Z",
          startedAt: "2026-06-01T00:00:00.000Z",
          finishedAt: "2026-06-01T00:00:00.000Z",
          lastError: "Error: nope"
        }
      ])

      const failedOnly = yield* call("GET", `${Path}?state=failed&limit=1`, { session: admin })
      expect(failedOnly.status, failedOnly.text).toBe(200)
      expect(failedOnly.body.data.map((r: { id: string }) => r.id)).toEqual([failedId])

      expectProblem(yield* call("GET", `${Path}?limit=0`, { session: admin }), 400)
      expectProblem(yield* call("GET", `${Path}?state=exploded`, { session: admin }), 400)
    }).pipe(Effect.withClock(server.clock)))

  it.effect("a non-admin session gets 403, no session 401", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectProblem(yield* call("GET", Path, { session: owner }), 403, "admin-required")
      expectProblem(yield* call("GET", Path), 401, "unauthenticated")
    }))
})
