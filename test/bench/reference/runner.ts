/**
 * REFERENCE ONLY: one process of the project's earlier job queue (`./JobRunner.ts`, kept
 * for `npm run bench:engine`), running the bench's work: a job of kind `noop2` whose
 * handler takes two no-op steps (what the engine's `Noop2` workflow does with two
 * activities). Started by test/bench/engine.ts through `spawnNode` (exits when its stdin
 * closes).
 *
 * Environment: `REF_DATABASE_URL` (the scratch database, its `jobs` tables made),
 * `REF_POLL_MS` (default 100), `REF_CONCURRENCY` (jobs at once, default 100: the
 * original's maximum), `REF_POOL_MAX` (default the service's 20). Prints `ready`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { DefaultDbLimits } from "../../../layers/AppConfig.js"
import { DbServer } from "../../../layers/Db.js"
import { IdsLive } from "../../../layers/Ids.js"
import { jobHandler, JobRunnerLayer } from "./JobRunner.js"
import { JobsLive } from "./Jobs.js"
import { Noop2Job } from "./work.js"

if (process.env["ENGINE_TEST_EXIT_WITH_PARENT"] === "1") {
  process.stdin.on("end", () => process.exit(0))
  process.stdin.on("close", () => process.exit(0))
  process.stdin.resume()
}

const env = (name: string, fallback: string) => process.env[name] ?? fallback

const Db = DbServer(Redacted.make(env("REF_DATABASE_URL", "")), Effect.void, {
  ...DefaultDbLimits,
  poolMax: Number(env("REF_POOL_MAX", String(DefaultDbLimits.poolMax)))
})

const handler = jobHandler(Noop2Job, () => Effect.void.pipe(Effect.zipRight(Effect.void)))

const Runner = Layer.effectDiscard(Effect.sync(() => process.stdout.write(`reference-runner ready pid=${process.pid}\n`))).pipe(
  Layer.provide(JobRunnerLayer([handler], [], {
    enabled: true,
    pollIntervalMs: Number(env("REF_POLL_MS", "100")),
    concurrency: Number(env("REF_CONCURRENCY", "100")),
    leaseMs: 60_000,
    backoffBaseMs: 10_000,
    backoffMaxMs: 3_600_000
  })),
  Layer.provide(JobsLive),
  Layer.provide(IdsLive),
  Layer.provide(Db),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

NodeRuntime.runMain(Layer.launch(Runner), { disableErrorReporting: false })
