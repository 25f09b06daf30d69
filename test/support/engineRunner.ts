/**
 * One runner process of the durable engine, for the fault tests and `bench:engine`:
 * `EngineLive` with a socket runner on PostgreSQL (layers/Engine.ts) and the test
 * workflows of `engineWorkloads.ts`, until it is stopped (SIGTERM/SIGINT: a graceful
 * shutdown) or killed.
 *
 *   node --import tsx test/support/engineRunner.ts
 *
 * Environment:
 * - `ENGINE_TEST_DATABASE_URL` (required): the database (its test tables already made);
 * - `ENGINE_TEST_RUNNER_PORT` (required): the port it listens on for the other runners
 *   (its address is 127.0.0.1:port);
 * - `ENGINE_TEST_WORKLOAD`: comma-separated `three-steps`, `noop2`, `cron` (default: all);
 * - `ENGINE_TEST_POLL_MS` (default 100), `ENGINE_TEST_STEP2_MS` (default 2000),
 *   `ENGINE_TEST_CRON_SECONDS` (default 2), `ENGINE_TEST_POOL_MAX` and
 *   `ENGINE_TEST_CONNECT_TIMEOUT_MS` (default: the service's, `DB_POOL_MAX` 20 and
 *   `DB_CONNECT_TIMEOUT_MS` 5000);
 * - `ENGINE_TEST_FAST_TAKEOVER` (default 1): the `FastTakeover` sharding settings; 0: the
 *   library's defaults (the bench).
 *
 * - `ENGINE_TEST_SHARDING`: further sharding settings as JSON, over the above (the bench's
 *   knobs, e.g. `{"entityMailboxCapacity":8192,"sendRetryInterval":50}`; a number for a
 *   `Duration` setting is milliseconds).
 *
 * - `ENGINE_TEST_EXIT_WITH_PARENT=1`: exit when stdin closes (the starting process died).
 *
 * Prints `engine-runner ready pid=<pid> port=<port>` once the engine is built; warnings
 * and errors go to stderr.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Duration, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { DefaultDbLimits } from "../../layers/AppConfig.js"
import { DbServer } from "../../layers/Db.js"
import { DefaultEngineOptions, EngineLive } from "../../layers/Engine.js"
import { FastTakeover, workloadLive } from "./engineWorkloads.js"

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback
  if (value === undefined || value === "") {
    process.stderr.write(`engine-runner: ${name} is required\n`)
    process.exit(2)
  }
  return value
}

// started by a test or bench (stdin a pipe from it): never outlive it
if (process.env["ENGINE_TEST_EXIT_WITH_PARENT"] === "1") {
  process.stdin.on("end", () => process.exit(0))
  process.stdin.on("close", () => process.exit(0))
  process.stdin.resume()
}

const url = env("ENGINE_TEST_DATABASE_URL")
const port = Number(env("ENGINE_TEST_RUNNER_PORT"))
const workload = new Set(env("ENGINE_TEST_WORKLOAD", "three-steps,noop2,cron").split(","))
const pollIntervalMs = Number(env("ENGINE_TEST_POLL_MS", "100"))

// the service's own database limits (pool of 20, 5 s to get a connection, 5 s a statement)
const Db = DbServer(Redacted.make(url), Effect.void, {
  ...DefaultDbLimits,
  poolMax: Number(env("ENGINE_TEST_POOL_MAX", String(DefaultDbLimits.poolMax))),
  connectTimeoutMs: Number(env("ENGINE_TEST_CONNECT_TIMEOUT_MS", String(DefaultDbLimits.connectTimeoutMs)))
})

// the `Duration` settings of `ShardingConfig`, given in ms by ENGINE_TEST_SHARDING
const durationSettings = new Set([
  "shardLockRefreshInterval",
  "shardLockExpiration",
  "entityMaxIdleTime",
  "entityRegistrationTimeout",
  "entityTerminationTimeout",
  "entityReplyPollInterval",
  "sendRetryInterval",
  "refreshAssignmentsInterval",
  "runnerHealthCheckInterval"
])
const extraSharding = Object.fromEntries(
  Object.entries(JSON.parse(env("ENGINE_TEST_SHARDING", "{}")) as Record<string, unknown>).map(([k, v]) =>
    [k, durationSettings.has(k) && typeof v === "number" ? Duration.millis(v) : v]
  )
)

const Engine = EngineLive({
  ...DefaultEngineOptions,
  runner: "socket",
  runnerHost: "127.0.0.1",
  runnerPort: port,
  pollIntervalMs,
  shardingConfig: { ...(env("ENGINE_TEST_FAST_TAKEOVER", "1") === "1" ? FastTakeover : {}), ...extraSharding }
}, false)

const Ready = Layer.effectDiscard(Effect.sync(() => {
  process.stdout.write(`engine-runner ready pid=${process.pid} port=${port}\n`)
}))

const Runner = Ready.pipe(
  Layer.provide(workloadLive({
    threeSteps: workload.has("three-steps"),
    noop2: workload.has("noop2"),
    cronEverySeconds: workload.has("cron") ? Number(env("ENGINE_TEST_CRON_SECONDS", "2")) : 0,
    step2Ms: Number(env("ENGINE_TEST_STEP2_MS", "2000"))
  })),
  Layer.provideMerge(Engine),
  Layer.provide(Db),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

NodeRuntime.runMain(Layer.launch(Runner), { disableErrorReporting: false })
