/**
 * Start-up of the server (`npm start`, whose entry point `bin/main.ts` calls {@link runServer}):
 * configuration → logger (LOG_FORMAT, LOG_LEVEL) → database (migrated, waiting for a PostgreSQL
 * server up to DB_STARTUP_TIMEOUT_MS; a development data set loaded on first start of an
 * embedded database in development) → HTTP server on HOST:PORT, the durable engine with every
 * area's workflows and cron jobs (`ENGINE_*`), and the Prometheus metrics when `METRICS_PORT` is
 * set; the warnings before serving, and the one line printed when start-up fails.
 */
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerError from "@effect/platform/HttpServerError"
import { NodeRuntime } from "@effect/platform-node"
import type { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Cause, ConfigError, Effect, Layer, Option } from "effect"
import { AppConfig, loadAppConfig } from "../layers/AppConfig.js"
import { type Auth, AuthLive } from "../layers/Auth.js"
import { DbLive } from "../layers/Db.js"
import { IdsLive } from "../layers/Ids.js"
import { LoggingLive } from "../layers/Logging.js"
import { WorkflowExecutions } from "./admin/Executions.js"
import { MetricsServerLive } from "./admin/Metrics.js"
import { AreaSettingsLive } from "./config.js"
import { migrate } from "./db/migrate.js"
import * as EdgeServer from "./http/EdgeServer.js"
import { type DescribeApi, EdgeCacheLive, makeApiLive, makeHttpLive } from "./server.js"
import { BackgroundLive } from "./workflows.js"

/**
 * Loads a development data set (`seedDemoData` of `demo/seed.ts`) unless present; succeeds with
 * whether it loaded. Fails with `SqlError`.
 */
export type DevelopmentSeed = Effect.Effect<boolean, SqlError, SqlClient.SqlClient | Auth | AppConfig>

/**
 * Warns about insecure settings and, given `developmentSeed`, loads that data set (the demo's
 * has published passwords and an admin) into an empty embedded database, only when
 * `DEPLOYMENT_ENV` is `development` (the default). Requires `AppConfig`, `SqlClient`, `Ids`.
 */
export const startupLive = (developmentSeed?: DevelopmentSeed) => Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (config.insecureDevelopmentSecret) {
    yield* Effect.logWarning("APP_SECRET is not set: using the public development secret. Set APP_SECRET in production.")
  }
  if (
    developmentSeed !== undefined && Option.isNone(config.databaseUrl) && config.environment === "development" &&
    (yield* developmentSeed)
  ) {
    yield* Effect.logInfo("Loaded the demo data set into the new embedded database (see `npm run demo:manifest`).")
  }
})).pipe(Layer.provide(AuthLive))

/** What the entry point adds to the server. */
export interface ServerOptions {
  /** Transforms the served api's description (`documentedApi` of `demo/DocumentedApi.ts`); none: the contract's. */
  readonly describe?: DescribeApi
  /** Loaded into a new embedded database in development ({@link startupLive}); none: nothing is loaded. */
  readonly developmentSeed?: DevelopmentSeed
}

/**
 * The whole server as one layer, built from the configuration (read first: it chooses the
 * logger everything else logs through): the HTTP app on the edge server, the metrics server,
 * the durable engine, the start-up checks, the database and the logger.
 */
export const serverLive = (options: ServerOptions = {}) => {
  const httpLive = makeHttpLive(options.describe === undefined ? undefined : makeApiLive(options.describe))
  // the edge server shares the HTTP app's edge cache (the same layer value is built once)
  const edgeServerLive = Layer.unwrapEffect(
    Effect.map(AppConfig, (config) => EdgeServer.layer({ port: config.port, host: config.host }))
  ).pipe(Layer.provide(EdgeCacheLive))
  return Layer.unwrapEffect(Effect.map(loadAppConfig, (config) =>
    Layer.merge(httpLive, MetricsServerLive.pipe(Layer.provide(WorkflowExecutions.Default))).pipe(
      Layer.provide(edgeServerLive),
      Layer.provide(BackgroundLive),
      Layer.provide(startupLive(options.developmentSeed)),
      Layer.provideMerge(DbLive(migrate)),
      Layer.provideMerge(IdsLive),
      Layer.provideMerge(AreaSettingsLive),
      Layer.provideMerge(Layer.succeed(AppConfig, config)),
      Layer.provide(LoggingLive(config))
    )))
}

/**
 * Runs the server ({@link serverLive}) as the process's main program until interrupted; a failed
 * start prints {@link startupFailureLine} and exits with 1.
 */
export const runServer = (options: ServerOptions = {}): void =>
  launch(serverLive(options)).pipe(
    // no span exporter is configured in the server, so request spans would be built and dropped
    Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
    Effect.withTracerEnabled(false),
    NodeRuntime.runMain({ disablePrettyLogger: true })
  )

const codeOf = (u: unknown) => (u as { readonly code?: unknown } | undefined)?.code

/** The one line (no stack) saying why start-up failed: busy port, unreachable database, bad configuration. */
export const startupFailureLine = (cause: Cause.Cause<unknown>): string => {
  const error = Option.getOrElse(Cause.failureOption(cause), () => Cause.squash(cause))
  if (HttpServerError.isServerError(error) && error._tag === "ServeError" && codeOf(error.cause) === "EADDRINUSE") {
    const { port, address } = error.cause as { readonly port?: unknown; readonly address?: unknown }
    return `Cannot start: port ${String(port)} on ${String(address)} is already in use; set PORT to a free port (e.g. PORT=3001 npm start).`
  }
  if (error instanceof SqlError) return `Cannot start: ${error.message}`
  if (ConfigError.isConfigError(error)) return `Cannot start: invalid configuration: ${String(error).replace(/\s+/g, " ")}`
  const message = error instanceof Error ? error.message : String(error)
  return `Cannot start: ${message.split("\n")[0]}`
}

/** Runs the server layer; a failed start prints {@link startupFailureLine} on stderr and exits with 1. */
export const launch = <ROut, E>(live: Layer.Layer<ROut, E>) =>
  Layer.launch(live).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.void : Effect.sync(() => {
        process.stderr.write(startupFailureLine(cause) + "\n")
        process.exit(1)
      })
    )
  )
