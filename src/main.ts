/**
 * Entry point (`npm start`): configuration → logger (LOG_FORMAT, LOG_LEVEL) →
 * database (migrated; demo data loaded on first start of an embedded database) →
 * HTTP server on HOST:PORT.
 */
import { HttpMiddleware } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { AppConfig, loadAppConfig } from "../layers/AppConfig.js"
import { AuthLive } from "../layers/Auth.js"
import { DbLive } from "../layers/Db.js"
import { IdsLive } from "../layers/Ids.js"
import { seedDemoData } from "./db/seed.js"
import { LoggingLive } from "../layers/Logging.js"
import { HttpLive } from "./server.js"

/** Warns about insecure settings and seeds an empty embedded database. */
const StartupLive = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (config.insecureDevelopmentSecret) {
    yield* Effect.logWarning("APP_SECRET is not set: using the public development secret. Set APP_SECRET in production.")
  }
  if (Option.isNone(config.databaseUrl) && (yield* seedDemoData)) {
    yield* Effect.logInfo("Loaded the demo data set into the new embedded database (see `npm run demo:manifest`).")
  }
})).pipe(Layer.provide(AuthLive))

const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
)

const MainLive = HttpLive.pipe(
  Layer.provide(ServerLive),
  Layer.provide(StartupLive),
  Layer.provideMerge(DbLive),
  Layer.provideMerge(IdsLive)
)

const main = Effect.gen(function*() {
  const config = yield* loadAppConfig
  return yield* Layer.launch(MainLive).pipe(
    Effect.provideService(AppConfig, config),
    Effect.provide(LoggingLive(config)),
    // no span exporter is configured in the server, so request spans would be built and dropped
    Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
    Effect.withTracerEnabled(false)
  )
})

main.pipe(NodeRuntime.runMain({ disablePrettyLogger: true }))
