/**
 * The Prometheus endpoint (src/admin/Metrics.ts): on its own listener, the engine's
 * executions by workflow and state and its queue depth, read from the engine's storage.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { WorkflowExecutions } from "../../src/admin/Executions.js"
import { MetricsServer, MetricsServerLive } from "../../src/admin/Metrics.js"
import { DemoConversations } from "../../demo/runtime/data.js"
import { awaitRun } from "../runtime/support.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { testConfigLayer } from "../support/config.js"
import { until, waitFor } from "../support/waitFor.js"

const server = makeTestServer()
const TestLayer = MetricsServerLive.pipe(
  Layer.provide(testConfigLayer({ metrics: Option.some({ host: "127.0.0.1", port: 0 }) })),
  Layer.provide(WorkflowExecutions.Default),
  Layer.provideMerge(server.layer)
)

const scrape = (path = "/metrics") =>
  Effect.gen(function*() {
    const port = Option.getOrThrow((yield* MetricsServer).port)
    return yield* Effect.promise(async () => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`)
      return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
    })
  })

layer(TestLayer)("GET /metrics", (it) => {
  it.effect("counts executions by workflow and state, and the engine's queue depth", () =>
    Effect.gen(function*() {
      const before = yield* scrape()
      expect(before.status).toBe(200)
      expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/)
      expect(before.text).toContain("# TYPE agent_directory_workflow_executions gauge")
      expect(before.text).not.toContain('agent_directory_workflow_executions{workflow="AgentRun"')
      expect(before.text).toMatch(/^agent_directory_engine_queue_depth \d+$/m)
      // a process-wide counter (Effect's metric registry): other servers of this process may have counted before
      expect(before.text).toMatch(/^agent_directory_engine_activity_retries_total \d+$/m)
      expect(before.text).toContain("process_cpu_user_seconds_total")

      const sent = yield* call("POST", `/api/v1/conversations/${DemoConversations.chat.id}/messages`, {
        session: yield* signIn("member"),
        body: { content: "count me" }
      })
      expect(sent.status, sent.text).toBe(202)
      yield* awaitRun(sent.body.data.run.id)
      const after = yield* waitFor("the SUCCEEDED execution counted", until(scrape(), (s) => s.text.includes('state="SUCCEEDED"'), (s) => s.text), 5_000, 25)
      expect(after.text).toMatch(/^agent_directory_workflow_executions\{workflow="AgentRun",state="SUCCEEDED"\} 1$/m)
      expect(after.text).toMatch(/^agent_directory_engine_queue_depth \d+$/m)
    }))

  it.effect("answers only GET /metrics; the API's own port does not serve it", () =>
    Effect.gen(function*() {
      expect((yield* scrape("/")).status).toBe(404)
      expect((yield* call("GET", "/metrics")).status).toBe(404)
    }))
})
