/**
 * The partner feed sync on the durable engine (spec §2.18): a `PartnerJobSync` workflow
 * per source and due instant (started by Jobs_SyncPartnerJobSource in its transaction,
 * or by the every-minute `PartnerJobSyncDue` cron for sources whose `nextSyncAt` has
 * come) fetches the source's `endpointUrl` through the guarded outbound client
 * (layers/Outbound.ts: public addresses only unless `OUTBOUND_ALLOWED_HOSTS` names the
 * host, a size cap) within `requestTimeoutMs`, validates the body as {@link PartnerFeed} v1 and upserts its jobs,
 * in one activity. The outcome is recorded on the source (failure count,
 * DEGRADED/ACTIVE, next sync = now + pollIntervalSeconds); the workflow succeeds either
 * way, so the poll interval, not retries, paces a failing partner.
 *
 * The execution id comes from (source, version, due instant): a sync asked for twice for
 * the same `nextSyncAt` of the same version (by hand and then by the cron, or by two cron
 * ticks before it finished) is one execution; each sync asked by hand moves the version,
 * so it is a new one. The cron fires once per occurrence across runners (`ClusterCron`).
 */
import { ClusterCron } from "@effect/cluster"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Activity, Workflow } from "@effect/workflow"
import { Cron, Data, Duration, Effect, Either, Layer, Option, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { Outbound, outboundFailureCodes, outboundFailureOf } from "../../../layers/Outbound.js"
import { PartnerFeed } from "./Schemas.js"
import { PartnerJobsRepo } from "./Repo.js"

/**
 * Syncs source `sourceId` (at `version`) for its sync due at `dueAt` (ISO 8601). The
 * execution id comes from all three: each sync asked by hand is a new version.
 */
export const PartnerJobSync = Workflow.make({
  name: "PartnerJobSync",
  payload: { sourceId: Schema.String, version: Schema.Number, dueAt: Schema.String },
  idempotencyKey: ({ dueAt, sourceId, version }) => `${sourceId}@${version}@${dueAt}`
})

/**
 * Why a fetch failed, stored as the source's `last_failure`: `timeout`, `http-<status>`,
 * `invalid-feed`, `network-error`, `target-refused` (the outbound rules refuse the URL:
 * scheme, credentials, a non-public address, too many redirects) or `response-too-large`.
 */
class FeedFailure extends Data.TaggedError("FeedFailure")<{ readonly code: string }> {}

/** The failure code of an error of the HTTP client, `fallback` unless the outbound rules said why. */
const feedFailure = (fallback: string) => (error: unknown) =>
  new FeedFailure({ code: outboundFailureCodes[outboundFailureOf(error)?.reason ?? "network"] ?? fallback })

/** Fetches and validates a partner feed. Fails with {@link FeedFailure}. */
export const fetchFeed = (endpointUrl: string, timeoutMs: number) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(endpointUrl).pipe(HttpClientRequest.acceptJson)).pipe(
      Effect.mapError(feedFailure("network-error"))
    )
    if (response.status < 200 || response.status > 299) return yield* new FeedFailure({ code: `http-${response.status}` })
    return yield* HttpClientResponse.schemaBodyJson(PartnerFeed)(response).pipe(
      Effect.mapError((error) =>
        outboundFailureOf(error) === undefined ? new FeedFailure({ code: "invalid-feed" }) : feedFailure("invalid-feed")(error)
      )
    )
  }).pipe(
    Effect.scoped,
    Effect.timeoutFail({ duration: Duration.millis(timeoutMs), onTimeout: () => new FeedFailure({ code: "timeout" }) })
  )

/** What the sync uses besides `SqlClient`: the repository and the guarded HTTP client. */
const SyncDependencies = Layer.mergeAll(
  PartnerJobsRepo.Default,
  Layer.unwrapEffect(Effect.map(Outbound, (outbound) => outbound.httpClient))
)

/** The sync workflow's implementation (needs `SqlClient` and the engine). */
const PartnerJobSyncLive = PartnerJobSync.toLayer(({ sourceId }) =>
  Activity.make({
    name: "sync",
    execute: Effect.gen(function*() {
      const repo = yield* PartnerJobsRepo
      const target = yield* repo.syncTarget(sourceId)
      if (Option.isNone(target) || !["ACTIVE", "DEGRADED"].includes(target.value.state)) return
      const { endpointUrl, pollIntervalSeconds, requestTimeoutMs } = target.value
      const outcome = yield* Effect.either(fetchFeed(endpointUrl, requestTimeoutMs))
      const at = yield* now
      const nextSyncAt = new Date(at.getTime() + pollIntervalSeconds * 1000)
      yield* Either.match(outcome, {
        onLeft: (failure) => repo.recordFailure({ id: sourceId, failure: failure.code, at, nextSyncAt }),
        onRight: (feed) => repo.recordSuccess({ id: sourceId, jobs: feed.jobs, at, nextSyncAt })
      })
    }).pipe(retryTransient, Effect.orDie, Effect.provide(SyncDependencies))
  }).pipe(survivingStorageErrors))

/** Every minute (UTC), start the syncs that are due (each source then follows its own `pollIntervalSeconds`). */
const PartnerJobSyncDue = ClusterCron.make({
  name: "PartnerJobSyncDue",
  cron: Cron.unsafeParse("* * * * *"),
  // a late check still runs (it starts what is due then); the next one is counted from then
  skipIfOlderThan: "3650 days",
  execute: Effect.gen(function*() {
    const repo = yield* PartnerJobsRepo
    const due = yield* repo.due(yield* now)
    yield* Effect.forEach(due, ({ id, nextSyncAt, version }) =>
      PartnerJobSync.execute({ sourceId: id, version, dueAt: nextSyncAt.toISOString() }, { discard: true }), {
      discard: true
    })
  }).pipe(Effect.provide(PartnerJobsRepo.Default))
})

/** The partner sync workflow and its cron, registered on the engine (need `SqlClient` and the engine). */
export const PartnerJobSyncWorkflows = Layer.mergeAll(PartnerJobSyncLive, PartnerJobSyncDue)
