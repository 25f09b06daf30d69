/**
 * Upstream syncs on the durable engine: an `UpstreamSync` workflow per (source, version, due instant,
 * full) (started by Partners_SyncUpstreamSource in its transaction, or by the every-minute
 * `UpstreamSyncDue` cron for sources whose `nextSyncAt` has come) reads the source (MCP registry pages,
 * ERC-8004 logs and registration files, well-known agent cards) through the polite fetcher and ingests
 * it in batches (one transaction each), in one activity. The outcome is recorded on the source
 * (watermark, failure count, DEGRADED/ACTIVE, next sync = now + `syncIntervalSeconds`); the workflow
 * succeeds either way, so the interval, not retries, paces a failing upstream. Bulk ingestion runs in
 * batches, never one workflow per entry.
 */
import { ClusterCron } from "@effect/cluster"
import { Activity, Workflow } from "@effect/workflow"
import { Cron, Effect, Either, Layer, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { syncErc8004 } from "./Erc8004Feed.js"
import { Ingest } from "./Ingest.js"
import { syncMcpRegistry } from "./McpRegistryFeed.js"
import { type FetchFailure, makePoliteFetch } from "./PoliteFetch.js"
import type { SqlError } from "@effect/sql/SqlError"
import type { Outbound } from "../../../layers/Outbound.js"
import { UpstreamRepo } from "./Repo.js"
import { syncWellKnown } from "./WellKnownFeed.js"

/** Syncs source `sourceId` (at `version`) for its sync due at `dueAt` (ISO 8601); `full` reads everything again. */
export const UpstreamSync = Workflow.make({
  name: "UpstreamSync",
  payload: { sourceId: Schema.String, version: Schema.Number, dueAt: Schema.String, full: Schema.Boolean },
  idempotencyKey: ({ dueAt, full, sourceId, version }) => `${sourceId}@${version}@${dueAt}${full ? "@full" : ""}`
})

/**
 * Runs one sync of `sourceId` now and records its outcome; the counts, or the failure code.
 * Requires `SqlClient`, `Ids`, `Outbound` (and `Chain` when there is one).
 */
export const runSync = (sourceId: string, full: boolean) =>
  Effect.gen(function*() {
    const repo = yield* UpstreamRepo
    const ingest = yield* Ingest
    const target = yield* repo.syncTarget(sourceId)
    if (target === undefined) return undefined
    const fetcher = yield* makePoliteFetch
    const at = yield* now
    const known = target.kind === "MCP_REGISTRY" ? new Map() : new Map((yield* repo.allKnown(sourceId)).map((k) => [k.key, k] as const))
    type Outcome = { readonly watermark: string | null; readonly totals: Readonly<Record<string, number>> }
    const read: Effect.Effect<Outcome, FetchFailure | SqlError, Outbound> = target.kind === "MCP_REGISTRY"
      ? syncMcpRegistry({ sourceId, baseUrl: target.baseUrl!, watermark: target.watermark, full, at, fetcher, ingest })
      : target.kind === "ERC8004"
      ? syncErc8004({
        sourceId, network: target.network!, registryAddress: target.registryAddress!, rpcUrl: target.rpcUrl,
        watermark: target.watermark, full, at, fetcher, ingest, known
      })
      : syncWellKnown({ sourceId, domains: target.domains, at, fetcher, ingest, known })
    const outcome = yield* read.pipe(
      Effect.map((o) => Either.right<Outcome>(o)),
      Effect.catchTag("FetchFailure", (failure) => Effect.succeed(Either.left(failure)))
    )
    const done = yield* now
    const nextSyncAt = new Date(done.getTime() + target.syncIntervalSeconds * 1000)
    if (Either.isLeft(outcome)) {
      yield* repo.recordFailure({ id: sourceId, failure: outcome.left.code, at: done, nextSyncAt })
      return { failure: outcome.left.code } as const
    }
    yield* repo.recordSuccess({ id: sourceId, watermark: outcome.right.watermark, at: done, nextSyncAt })
    return outcome.right.totals
  })

/** What a sync uses besides `SqlClient`, `Ids`, `Outbound`, `Chain`. */
export const SyncDependencies = Layer.mergeAll(UpstreamRepo.Default, Ingest.Default)

const UpstreamSyncLive = UpstreamSync.toLayer(({ full, sourceId }) =>
  Activity.make({
    name: "sync",
    execute: runSync(sourceId, full).pipe(
      Effect.asVoid,
      retryTransient,
      Effect.orDie,
      Effect.provide(SyncDependencies)
    )
  }).pipe(survivingStorageErrors))

/** Every minute (UTC), start the syncs that are due (each source then follows its own `syncIntervalSeconds`). */
const UpstreamSyncDue = ClusterCron.make({
  name: "UpstreamSyncDue",
  cron: Cron.unsafeParse("* * * * *"),
  skipIfOlderThan: "3650 days",
  execute: Effect.gen(function*() {
    const repo = yield* UpstreamRepo
    const due = yield* repo.due(yield* now)
    yield* Effect.forEach(due, ({ id, nextSyncAt, version }) =>
      UpstreamSync.execute({ sourceId: id, version, dueAt: nextSyncAt.toISOString(), full: false }, { discard: true }), {
      discard: true
    })
  }).pipe(Effect.provide(UpstreamRepo.Default))
})

/** The upstream sync workflow and its cron, registered on the engine. */
export const UpstreamSyncWorkflows = Layer.mergeAll(UpstreamSyncLive, UpstreamSyncDue)
