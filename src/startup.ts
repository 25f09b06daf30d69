/**
 * Start-up of the server (`npm start`): the warnings and the demo data before
 * serving, and the one line printed when start-up fails.
 */
import * as HttpServerError from "@effect/platform/HttpServerError"
import { SqlError } from "@effect/sql/SqlError"
import { Cause, ConfigError, Effect, Layer, Option } from "effect"
import { AppConfig } from "../layers/AppConfig.js"
import { AuthLive } from "../layers/Auth.js"
import { seedDemoData } from "../demo/seed.js"

/**
 * Warns about insecure settings and loads the demo data set (published passwords,
 * an admin) into an empty embedded database, only when `DEPLOYMENT_ENV` is
 * `development` (the default). Requires `AppConfig`, `SqlClient`, `Ids`.
 */
export const StartupLive = Layer.effectDiscard(Effect.gen(function*() {
  const config = yield* AppConfig
  if (config.insecureDevelopmentSecret) {
    yield* Effect.logWarning("APP_SECRET is not set: using the public development secret. Set APP_SECRET in production.")
  }
  if (Option.isNone(config.databaseUrl) && config.environment === "development" && (yield* seedDemoData)) {
    yield* Effect.logInfo("Loaded the demo data set into the new embedded database (see `npm run demo:manifest`).")
  }
})).pipe(Layer.provide(AuthLive))

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
