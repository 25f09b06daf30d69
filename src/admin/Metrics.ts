/**
 * Prometheus metrics of the durable engine (`GET /metrics`, text exposition format, with
 * `prom-client`), served on their own listener, `METRICS_HOST:METRICS_PORT` (default host
 * 127.0.0.1; not served unless `METRICS_PORT` is set), apart from the public API: bind it
 * to an address only the operator's scraper reaches.
 *
 * - `agent_directory_workflow_executions{workflow,state}` (gauge, all runners): executions
 *   started, by state (QUEUED, RUNNING, SUSPENDED, SUCCEEDED, FAILED), from the engine's
 *   storage (`src/admin/Executions.ts`);
 * - `agent_directory_engine_queue_depth` (gauge, all runners): engine requests due and not
 *   yet processed;
 * - `agent_directory_engine_activity_retries_total` (counter, this process): database
 *   failures retried inside activities (`retryTransient`);
 * - `agent_directory_engine_workflow_storage_retries_total` (counter, this process):
 *   workflow bodies run again after a storage error of the engine (`survivingStorageErrors`);
 * - the Node process's default metrics (`process_*`, `nodejs_*`).
 * A scrape whose database read fails answers 503 (the scraper records the target down).
 */
import { Context, Effect, Layer, Metric, Option, Runtime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client"
import { AppConfig } from "../../layers/AppConfig.js"
import { now } from "../../layers/Clock.js"
import { ActivityRetries, WorkflowStorageRetries } from "../../layers/Engine.js"
import { WorkflowExecutions } from "./Executions.js"

/** The metrics listener, when one is served: the port it listens on. */
export class MetricsServer extends Context.Tag("agent-directory/MetricsServer")<MetricsServer, {
  readonly port: Option.Option<number>
}>() {}

/** The registry of the metrics above, read through `runtime` (which provides `WorkflowExecutions`). */
const makeRegistry = (runtime: Runtime.Runtime<WorkflowExecutions>) => {
  const run = Runtime.runPromise(runtime)
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  new Gauge({
    name: "agent_directory_workflow_executions",
    help: "Workflow executions of the durable engine by workflow and state (all runners)",
    labelNames: ["workflow", "state"] as const,
    registers: [registry],
    async collect() {
      const counts = await run(Effect.flatMap(WorkflowExecutions, (e) => e.counts))
      this.reset()
      for (const c of counts) this.set({ workflow: c.workflow, state: c.state }, c.count)
    }
  })
  new Gauge({
    name: "agent_directory_engine_queue_depth",
    help: "Engine requests (workflow runs, activities, timers) due and not yet processed (all runners)",
    registers: [registry],
    async collect() {
      this.set(await run(Effect.flatMap(WorkflowExecutions, (e) => Effect.flatMap(now, e.queueDepth))))
    }
  })
  // Effect counters of this process, mirrored into prom-client counters
  const mirror = (name: string, help: string, counter: typeof ActivityRetries) => {
    let reported = 0
    new Counter({
      name,
      help,
      registers: [registry],
      async collect() {
        const total = (await run(Metric.value(counter))).count
        if (total > reported) this.inc(total - reported)
        reported = total
      }
    })
  }
  mirror(
    "agent_directory_engine_activity_retries_total",
    "Database failures retried inside workflow activities (retryTransient), in this process",
    ActivityRetries
  )
  mirror(
    "agent_directory_engine_workflow_storage_retries_total",
    "Workflow bodies run again after a storage error of the engine (survivingStorageErrors), in this process",
    WorkflowStorageRetries
  )
  return registry
}

/**
 * Serves `GET /metrics` when `AppConfig.metrics` is set (closed with the layer's scope).
 * Requires `AppConfig` and `WorkflowExecutions`. Fails to build when the port is taken.
 */
export const MetricsServerLive = Layer.scoped(
  MetricsServer,
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isNone(config.metrics)) return { port: Option.none() }
    const { host, port } = config.metrics.value
    const registry = makeRegistry(yield* Effect.runtime<WorkflowExecutions>())
    const server = createServer((req, res) => {
      if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found: the metrics are at GET /metrics\n")
        return
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
        () => res.writeHead(503, { "content-type": "text/plain", "retry-after": "5" }).end("metrics unavailable\n")
      )
    })
    const bound = yield* Effect.acquireRelease(
      Effect.async<number, Error>((resume) => {
        server.once("error", (e) => resume(Effect.fail(e)))
        server.listen(port, host, () => resume(Effect.succeed((server.address() as AddressInfo).port)))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    yield* Effect.logInfo(`metrics on http://${host}:${bound}/metrics`)
    return { port: Option.some(bound) }
  })
)
