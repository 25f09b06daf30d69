/**
 * What the engine's fault tests and `bench:engine` run, shared by the runner process
 * (`engineRunner.ts`) and the processes that start the work (`engineCluster.ts`):
 *
 * - `ThreeSteps` {key}: three activities, each inserting one row (key, step, runner pid)
 *   into `engine_test_effects` (no unique constraint, so a repeated step shows as a second
 *   row). Step 2 first records its attempt in `engine_test_attempts`, then sleeps
 *   (`step2Ms`, long enough to SIGKILL its runner in the middle), then inserts its row.
 * - `Noop2` {key}: two no-op activities (the bench); its start and completion times are
 *   the engine's own (the timestamps of its request's and its reply's snowflake ids).
 * - a `ClusterCron` every `cronEverySeconds` seconds inserting one row per occurrence
 *   (occurrence time, runner pid) into `engine_test_cron`.
 */
import { ClusterCron, Entity } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Activity, Workflow } from "@effect/workflow"
import { survivingStorageErrors } from "../../layers/Engine.js"
import { Cron, DateTime, Duration, Effect, Either, Layer, Option, Schedule, Schema } from "effect"

/** The test tables (created by whoever makes the scratch database, before any runner starts). */
export const EngineTestTables = `
CREATE TABLE IF NOT EXISTS engine_test_effects (
  key text NOT NULL, step int NOT NULL, pid int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE IF NOT EXISTS engine_test_attempts (
  key text NOT NULL, step int NOT NULL, pid int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE IF NOT EXISTS engine_test_cron (
  occurrence timestamptz NOT NULL, pid int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp());
`

/**
 * Sharding settings of the fault tests' processes: a killed runner's shards move to the
 * others within seconds (library defaults: up to a minute). The health check pings every
 * runner each second and marks one unhealthy after 5 failed pings 0.5 s apart; and a
 * runner whose heartbeat (`cluster_runners.last_heartbeat`, every 2 s) stops leaves the
 * runner list after `shardLockExpiration`. Its shards' advisory locks went with its
 * database session. Not shorter: a runner gives up all its shards when refreshing its
 * locks takes longer than min(`shardLockRefreshInterval`, `shardLockExpiration` / 3)
 * (then "Shard lock storage is unhealthy"), which a loaded 2-core machine reaches at 1 s,
 * and at 2 s under a load average of 16 (seen: the runners kept giving up their shards).
 */
export const FastTakeover = {
  shardLockRefreshInterval: Duration.seconds(3),
  shardLockExpiration: Duration.seconds(9),
  refreshAssignmentsInterval: Duration.millis(500),
  runnerHealthCheckInterval: Duration.seconds(1),
  entityTerminationTimeout: Duration.seconds(5)
} as const

/** The key of one workflow execution (also its idempotency key). */
const Key = { key: Schema.String }

export const ThreeSteps = Workflow.make({ name: "ThreeSteps", payload: Key, idempotencyKey: ({ key }) => key })

export const Noop2 = Workflow.make({ name: "Noop2", payload: Key, idempotencyKey: ({ key }) => key })

/**
 * A database write of an activity, retried while the database is unreachable (at most
 * `retryForMs`): a real handler would do the same, and a failed activity would end its
 * workflow (not what an outage should do).
 */
const write = <A, E, R>(effect: Effect.Effect<A, E, R>, retryForMs = 60_000) =>
  effect.pipe(
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo(Duration.millis(retryForMs)))),
    Effect.orDie
  )

/** `ThreeSteps` registered on the engine; step 2 sleeps `step2Ms` before its row. */
export const ThreeStepsLive = (step2Ms: number) =>
  ThreeSteps.toLayer(({ key }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const effect = (step: number) => write(sql`INSERT INTO engine_test_effects (key, step, pid) VALUES (${key}, ${step}, ${process.pid})`)
      yield* Activity.make({ name: "step1", execute: effect(1) })
      yield* Activity.make({
        name: "step2",
        execute: Effect.gen(function*() {
          yield* write(sql`INSERT INTO engine_test_attempts (key, step, pid) VALUES (${key}, 2, ${process.pid})`)
          yield* Effect.sleep(Duration.millis(step2Ms))
          yield* effect(2)
        })
      })
      yield* Activity.make({ name: "step3", execute: effect(3) })
    }).pipe(survivingStorageErrors)
  )

/** `Noop2` registered on the engine. */
export const Noop2Live = Noop2.toLayer(() =>
  Effect.gen(function*() {
    yield* Activity.make({ name: "first", execute: Effect.void })
    yield* Activity.make({ name: "second", execute: Effect.void })
  }).pipe(survivingStorageErrors)
)

/**
 * The cron job: one row per occurrence. The occurrence is the cron entity's id (the
 * engine schedules each occurrence as a message to the entity named by its ISO time);
 * should that not be in context, the time rounded down to the period.
 */
export const CronLive = (everySeconds: number) => {
  const cron = Either.getOrThrow(Cron.parse(`*/${everySeconds} * * * * *`, "UTC"))
  return ClusterCron.make({
    name: "EngineTestCron",
    cron,
    execute: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const address = yield* Effect.serviceOption(Entity.CurrentAddress)
      const now = yield* DateTime.now
      const occurrence = Option.match(address, {
        onSome: (a) => new Date(a.entityId),
        onNone: () => new Date(Math.floor(DateTime.toEpochMillis(now) / (everySeconds * 1000)) * everySeconds * 1000)
      })
      yield* write(sql`INSERT INTO engine_test_cron (occurrence, pid) VALUES (${occurrence}, ${process.pid})`)
    })
  })
}

/** What one runner process registers. */
export interface Workload {
  readonly threeSteps: boolean
  readonly noop2: boolean
  /** Seconds between cron occurrences; 0: no cron job. */
  readonly cronEverySeconds: number
  readonly step2Ms: number
}

/** The layers of `workload` (they need the engine and `SqlClient`). */
export const workloadLive = (workload: Workload) =>
  Layer.mergeAll(
    workload.threeSteps ? ThreeStepsLive(workload.step2Ms) : Layer.empty,
    workload.noop2 ? Noop2Live : Layer.empty,
    workload.cronEverySeconds > 0 ? CronLive(workload.cronEverySeconds) : Layer.empty
  )
