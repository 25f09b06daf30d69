/**
 * Entry point (`npm start`): configuration → logger (LOG_FORMAT, LOG_LEVEL) →
 * database (migrated, waiting for a PostgreSQL server up to DB_STARTUP_TIMEOUT_MS;
 * demo data loaded on first start of an embedded database in development) → HTTP
 * server on HOST:PORT, the durable engine with every area's workflows and cron jobs (`ENGINE_*`), and the
 * Prometheus metrics when `METRICS_PORT` is set. A failed start prints one line and exits with 1.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig, loadAppConfig } from "../layers/AppConfig.js"
import { DbLive } from "../layers/Db.js"
import { IdsLive } from "../layers/Ids.js"
import { LoggingLive } from "../layers/Logging.js"
import { AreaSettingsLive } from "./config.js"
import { migrate } from "./db/migrate.js"
import { BackgroundLive } from "./workflows.js"
import { WorkflowExecutions } from "./admin/Executions.js"
import { MetricsServerLive } from "./admin/Metrics.js"
import * as EdgeServer from "./http/EdgeServer.js"
import { EdgeCacheLive, HttpLive } from "./server.js"
import { launch, StartupLive } from "./startup.js"

// the edge server shares HttpLive's edge cache (the same layer value is built once)
const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => EdgeServer.layer({ port: config.port, host: config.host }))
).pipe(Layer.provide(EdgeCacheLive))

// the configuration is read first: it chooses the logger everything else logs through
const MainLive = Layer.unwrapEffect(Effect.map(loadAppConfig, (config) =>
  Layer.merge(HttpLive, MetricsServerLive.pipe(Layer.provide(WorkflowExecutions.Default))).pipe(
    Layer.provide(ServerLive),
    Layer.provide(BackgroundLive),
    Layer.provide(StartupLive),
    Layer.provideMerge(DbLive(migrate)),
    Layer.provideMerge(IdsLive),
    Layer.provideMerge(AreaSettingsLive),
    Layer.provideMerge(Layer.succeed(AppConfig, config)),
    Layer.provide(LoggingLive(config))
  )))

launch(MainLive).pipe(
  // no span exporter is configured in the server, so request spans would be built and dropped
  Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
  Effect.withTracerEnabled(false),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
