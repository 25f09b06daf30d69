/**
 * The durable engine of all background work: `@effect/workflow` workflows run by
 * `@effect/cluster`'s `ClusterWorkflowEngine`, with the engine's message storage
 * (`SqlMessageStorage`: tables `cluster_messages` and `cluster_replies`, created by the
 * engine's own migrations) in the service's database.
 *
 * - **single** runner (`ENGINE_RUNNER=single`, the default): this process owns every
 *   shard (`SingleRunner`). On the embedded database the runner registry is kept in
 *   memory (PGlite is one session, and the SQL registry would hold it for good); on a
 *   PostgreSQL server it is the SQL registry (`cluster_runners`).
 * - **socket** runner (`ENGINE_RUNNER=socket`, PostgreSQL only): this process is one of
 *   N runners on one database; it listens for the other runners on
 *   `ENGINE_RUNNER_HOST:ENGINE_RUNNER_PORT` and the shards are spread over the live
 *   runners (`NodeClusterSocket`, SQL runner registry with advisory locks).
 *
 * Starting work: a workflow's `execute(payload, { discard: true })` inside the caller's
 * `sql.withTransaction` writes the engine's request row in that transaction, so a
 * rolled-back request starts nothing and a committed one is never lost (the runner
 * reads committed requests every `ENGINE_POLL_INTERVAL_MS`). Time comes from Effect's
 * `Clock` (durable clocks and cron included), so a test clock drives it.
 */
import {
  ClusterCron,
  ClusterWorkflowEngine,
  type MessageStorage,
  RunnerAddress,
  type Sharding,
  type ShardingConfig,
  SingleRunner
} from "@effect/cluster"
import { NodeClusterSocket } from "@effect/platform-node"
import type { SqlClient } from "@effect/sql"
import { DurableClock, type WorkflowEngine } from "@effect/workflow"
import { Cause, Cron, Duration, Effect, Layer, Metric, Option, Schedule } from "effect"
import { now } from "./Clock.js"

/** Engine settings (`ENGINE_*`, docs/configuration.md). */
export interface EngineOptions {
  /** `single`: this process runs all work; `socket`: one runner of several on one PostgreSQL server. */
  readonly runner: "single" | "socket"
  /** Socket runner: the address the other runners reach this one at. */
  readonly runnerHost: string
  /** Socket runner: the port it listens on. */
  readonly runnerPort: number
  /** How often a runner reads committed, unprocessed requests from storage (ms). */
  readonly pollIntervalMs: number
  /** How soon the shards of a runner that died move to the live runners (socket runners). */
  readonly takeover: EngineTakeover
  /**
   * Further `@effect/cluster` sharding settings, over the library's defaults and
   * `takeover`, under the other fields above (the engine's own fault tests and bench).
   * Every runner of one database must agree on `shardsPerGroup`.
   */
  readonly shardingConfig?: Partial<ShardingConfig.ShardingConfig["Type"]> | undefined
}

/**
 * The timings of `@effect/cluster`'s shard locks and runner health (`ShardingConfig`),
 * in milliseconds (`ENGINE_*` in the README). A runner holds one lock per shard (on
 * PostgreSQL a session advisory lock, freed as soon as its process dies, and a row of
 * `cluster_locks`) and a row of `cluster_runners` whose `last_heartbeat` it renews with
 * its locks. The others drop it from the shard assignments, and take its shards, once
 * that heartbeat is older than `shardLockExpirationMs` or once their health check finds
 * it not answering pings, whichever comes first; each runner re-reads the registry every
 * `refreshAssignmentsMs`. Every runner of one database should use the same values.
 */
export interface EngineTakeover {
  /** How often a runner renews its shard locks and heartbeat (`shardLockRefreshInterval`; library default 10 s; the library uses at most a third of the expiration). */
  readonly shardLockRefreshMs: number
  /** A runner whose heartbeat is older than this is dropped, and its locks may be taken (`shardLockExpiration`; library default 35 s; whole seconds, rounded up). */
  readonly shardLockExpirationMs: number
  /** How often a runner re-reads the runner registry and recomputes the shard assignments (`refreshAssignmentsInterval`; library default 3 s). */
  readonly refreshAssignmentsMs: number
  /** How often a runner pings the others and marks one that does not answer (five tries, 0.5 s apart) unhealthy (`runnerHealthCheckInterval`; library default 1 min). */
  readonly runnerHealthCheckMs: number
  /** How long a runner giving up a shard waits for the shard's entities (running workflows) to stop (`entityTerminationTimeout`; library default 15 s). */
  readonly entityTerminationTimeoutMs: number
}

/** The library's defaults of {@link EngineTakeover} (`@effect/cluster` `ShardingConfig.defaults`). */
export const DefaultEngineTakeover: EngineTakeover = {
  shardLockRefreshMs: 10_000,
  shardLockExpirationMs: 35_000,
  refreshAssignmentsMs: 3_000,
  runnerHealthCheckMs: 60_000,
  entityTerminationTimeoutMs: 15_000
}

/** Defaults of {@link EngineOptions}. */
export const DefaultEngineOptions: EngineOptions = {
  runner: "single",
  runnerHost: "127.0.0.1",
  runnerPort: 34431,
  pollIntervalMs: 1000,
  takeover: DefaultEngineTakeover
}

/** {@link EngineTakeover} as `ShardingConfig` settings. */
const takeoverSharding = (takeover: EngineTakeover): Partial<ShardingConfig.ShardingConfig["Type"]> => ({
  shardLockRefreshInterval: Duration.millis(takeover.shardLockRefreshMs),
  shardLockExpiration: Duration.millis(takeover.shardLockExpirationMs),
  refreshAssignmentsInterval: Duration.millis(takeover.refreshAssignmentsMs),
  runnerHealthCheckInterval: Duration.millis(takeover.runnerHealthCheckMs),
  entityTerminationTimeout: Duration.millis(takeover.entityTerminationTimeoutMs)
})

/**
 * The `WorkflowEngine` (and the `Sharding` that entities and `ClusterCron` need, and the
 * engine's `MessageStorage`) on
 * the database's `SqlClient`. `embedded` selects the in-memory runner registry.
 * Workflows and cron jobs are registered by providing this layer to their layers.
 * Fails (at build) with a `ConfigError` or, for a socket runner, a `SocketServerError`
 * when its port is taken.
 */
export const EngineLive = (
  options: EngineOptions,
  embedded: boolean
): Layer.Layer<
  WorkflowEngine.WorkflowEngine | Sharding.Sharding | MessageStorage.MessageStorage,
  unknown,
  SqlClient.SqlClient
> => {
  const shardingConfig = {
    ...takeoverSharding(options.takeover),
    ...options.shardingConfig,
    entityMessagePollInterval: Duration.millis(options.pollIntervalMs)
  }
  const cluster = options.runner === "socket"
    ? NodeClusterSocket.layer({
      storage: "sql",
      shardingConfig: {
        ...shardingConfig,
        runnerAddress: Option.some(RunnerAddress.make(options.runnerHost, options.runnerPort))
      }
    })
    : SingleRunner.layer({ runnerStorage: embedded ? "memory" : "sql", shardingConfig })
  return ClusterWorkflowEngine.layer.pipe(Layer.provideMerge(cluster))
}

/**
 * How long an activity keeps retrying a database failure before it gives up (ms): an
 * outage shorter than this delays the work instead of failing it.
 */
export const TransientRetryMs = 120_000

/**
 * A workflow's durable sleep until the instant `deadline` (epoch milliseconds), named `name`:
 * the duration is taken when the workflow first reaches it, so a workflow that starts late
 * (the engine was busy, or the clock moved meanwhile) still wakes at the deadline; a deadline
 * already past does not sleep. For deadlines fixed by the request that started the workflow
 * (an invitation's expiry, the end of a grace period).
 */
export const sleepUntil = (name: string, deadline: number): Effect.Effect<void, never, WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance> =>
  Effect.flatMap(now, (at) =>
    deadline <= at.getTime()
      ? Effect.void
      : DurableClock.sleep({ name, duration: Duration.millis(deadline - at.getTime()), inMemoryThreshold: Duration.zero }))

/**
 * `self`, retried while it fails with an `SqlError` (a database that is down or a
 * connection that broke), 0.2 s doubling to 5 s between tries, for at most
 * {@link TransientRetryMs}; other failures pass through. Wrap the effect of every
 * activity that touches the database: an activity's failure is stored by the engine as
 * its final outcome, so a transient one must not reach it.
 */
export const retryTransient = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(Effect.tapError(self, (e) => isSqlError(e) ? Metric.increment(ActivityRetries) : Effect.void), {
    schedule: Schedule.exponential("200 millis").pipe(
      Schedule.either(Schedule.spaced("5 seconds")),
      Schedule.upTo(Duration.millis(TransientRetryMs))
    ),
    while: isSqlError
  })

const isSqlError = (e: unknown) => typeof e === "object" && e !== null && "_tag" in e && e._tag === "SqlError"

/** Database failures retried by {@link retryTransient} in this process (a counter). */
export const ActivityRetries = Metric.counter("agent_directory_engine_activity_retries_total", {
  description: "Database failures retried inside workflow activities (retryTransient), in this process",
  incremental: true
})

/**
 * A workflow's body that survives the engine's own storage failures: run again (0.2 s
 * doubling to 5 s between tries, for as long as it takes) while it dies with the
 * engine's `PersistenceError`; any other outcome passes through. Wrap the body of every
 * workflow (`X.toLayer((payload) => survivingStorageErrors(…))`).
 *
 * Why: `@effect/cluster` 0.60's `ClusterWorkflowEngine` sends each activity with
 * `Effect.orDie(client.activity(…))` (also its durable clocks and deferred results), so a
 * storage error while it saves an activity's request (a broken or busy connection, a
 * statement timeout) is a defect of the workflow body, and `Workflow.intoResult` (with
 * the default `CaptureDefects`) stores that defect as the execution's final outcome,
 * `Complete` with `Die(PersistenceError)`: a failed workflow that no runner retries.
 * Running the body again is what the engine itself does after a restart (a replay):
 * activities whose completion is stored return it without running again, an activity
 * whose request was saved is joined (its request is a duplicate of the stored one), so
 * nothing runs twice that had completed. Interruptions (suspending, a runner giving up
 * the shard) are never retried.
 */
export const survivingStorageErrors = <A, E, R>(body: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  body.pipe(
    Effect.sandbox,
    Effect.tapError((cause) =>
      isStorageDefect(cause)
        ? Effect.zipRight(
          Metric.increment(WorkflowStorageRetries),
          Effect.logWarning(`${StorageRetryLog}: ${String(Cause.squash(cause)).slice(0, 300)}`)
        )
        : Effect.void
    ),
    Effect.retry({
      schedule: Schedule.exponential("200 millis").pipe(Schedule.either(Schedule.spaced("5 seconds"))),
      while: isStorageDefect
    }),
    Effect.unsandbox
  )

/** The warning logged each time {@link survivingStorageErrors} runs a body again (tests count it). */
export const StorageRetryLog = "workflow body run again after an engine storage error"

/** A cause that is only the engine's `PersistenceError` defect(s): no failure, no interruption. */
const isStorageDefect = (cause: Cause.Cause<unknown>): boolean => {
  if (Cause.isInterrupted(cause) || Option.isSome(Cause.failureOption(cause))) return false
  const defects = [...Cause.defects(cause)]
  return defects.length > 0 && defects.every((d) => typeof d === "object" && d !== null && "_tag" in d && d._tag === "PersistenceError")
}

/** Workflow bodies run again after the engine's storage failed under them ({@link survivingStorageErrors}), in this process. */
export const WorkflowStorageRetries = Metric.counter("agent_directory_engine_workflow_storage_retries_total", {
  description: "Workflow bodies run again after a storage error of the engine (survivingStorageErrors), in this process",
  incremental: true
})

/**
 * A `ClusterCron` (`name`) that deletes what expired by its now (Effect's `Clock`) every 15
 * minutes (UTC) with `purge(now)`, an idempotent delete returning how many rows went, and
 * logs that count (`what` names them) when it is not 0. A late occurrence still runs (it
 * only catches up). Requires the engine's `Sharding` and what `purge` needs.
 */
export const expiredRowsPurge = <E, R>(options: {
  readonly name: string
  readonly what: string
  readonly purge: (at: Date) => Effect.Effect<number, E, R>
}) =>
  ClusterCron.make({
    name: options.name,
    cron: Cron.unsafeParse("*/15 * * * *", "UTC"),
    skipIfOlderThan: Duration.days(3650),
    execute: Effect.flatMap(now, options.purge).pipe(
      Effect.tap((deleted) =>
        deleted === 0 ? Effect.void : Effect.logInfo(`${options.what} purged`).pipe(Effect.annotateLogs({ deleted }))
      ),
      Effect.asVoid
    )
  })
