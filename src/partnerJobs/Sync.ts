/**
 * The partner feed sync on the durable job runner (spec §2.18): a `partner-job-sync`
 * job per source (queued by Jobs_SyncPartnerJobSource or by the every-minute
 * `partner-job-sync-due` schedule for sources whose `nextSyncAt` has come) fetches the
 * source's `endpointUrl` with Effect's `HttpClient` within `requestTimeoutMs`,
 * validates the body as {@link PartnerFeed} v1 and upserts its jobs. The outcome is
 * recorded on the source (failure count, DEGRADED/ACTIVE, next sync =
 * now + pollIntervalSeconds); the job itself succeeds either way, so the poll
 * interval, not the runner's retries, paces a failing partner.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, Either, Layer, Option, Schema } from "effect"
import { now } from "../../layers/Clock.js"
import { jobHandler, jobSchedule } from "../../layers/JobRunner.js"
import { jobKind, Jobs } from "../../layers/Jobs.js"
import { PartnerFeed } from "../../schema/partnerJobs.js"
import { PartnerJobsRepo } from "./Repo.js"

/** Syncs one source now. */
export const PartnerJobSync = jobKind("partner-job-sync", Schema.Struct({ sourceId: Schema.String }))
/** Queues a sync of every source that is due. */
export const PartnerJobSyncDue = jobKind("partner-job-sync-due", Schema.Struct({}))

/** At most one unfinished sync job per source. */
export const syncDedupeKey = (sourceId: string) => `partner-job-sync:${sourceId}`

/** Why a fetch failed, stored as the source's `last_failure` (`timeout`, `http-<status>`, `invalid-feed`, `network-error`). */
class FeedFailure extends Data.TaggedError("FeedFailure")<{ readonly code: string }> {}

/** Fetches and validates a partner feed. Fails with {@link FeedFailure}. */
export const fetchFeed = (endpointUrl: string, timeoutMs: number) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(endpointUrl).pipe(HttpClientRequest.acceptJson)).pipe(
      Effect.mapError(() => new FeedFailure({ code: "network-error" }))
    )
    if (response.status < 200 || response.status > 299) return yield* new FeedFailure({ code: `http-${response.status}` })
    return yield* HttpClientResponse.schemaBodyJson(PartnerFeed)(response).pipe(
      Effect.mapError(() => new FeedFailure({ code: "invalid-feed" }))
    )
  }).pipe(
    Effect.scoped,
    Effect.timeoutFail({ duration: Duration.millis(timeoutMs), onTimeout: () => new FeedFailure({ code: "timeout" }) })
  )

/** What the sync handlers use besides `SqlClient` and `Jobs`: the repository and an HTTP client (fetch). */
const SyncDependencies = Layer.mergeAll(PartnerJobsRepo.Default, FetchHttpClient.layer)

/** Handlers of the partner sync jobs (need `SqlClient` and `Jobs`). */
export const partnerJobHandlers = [
  jobHandler(PartnerJobSync, ({ sourceId }) =>
    Effect.gen(function*() {
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
    }).pipe(Effect.provide(SyncDependencies))),
  jobHandler(PartnerJobSyncDue, () =>
    Effect.gen(function*() {
      const repo = yield* PartnerJobsRepo
      const jobs = yield* Jobs
      const due = yield* repo.due(yield* now)
      yield* Effect.forEach(due, (sourceId) =>
        jobs.enqueue(PartnerJobSync, { sourceId }, { dedupeKey: syncDedupeKey(sourceId) }), { discard: true })
    }).pipe(Effect.provide(PartnerJobsRepo.Default)))
]

/** Every minute, queue the syncs that are due (each source then follows its own `pollIntervalSeconds`). */
export const partnerJobSchedules = [jobSchedule("partner-job-sync-due", "* * * * *", PartnerJobSyncDue, {})]
