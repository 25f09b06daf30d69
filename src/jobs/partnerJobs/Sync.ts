/**
 * The partner feed sync on the durable engine (spec §2.18): a `PartnerJobSync` workflow
 * per source and due instant (started by Jobs_SyncPartnerJobSource in its transaction,
 * or by the every-minute `PartnerJobSyncDue` cron for sources whose `nextSyncAt` has
 * come) fetches the source's `endpointUrl` through the guarded outbound client
 * (layers/Outbound.ts: public addresses only unless `OUTBOUND_ALLOWED_HOSTS` names the
 * host, a size cap) within `requestTimeoutMs`, validates the body as a {@link PartnerFeed} of the source's
 * `responseSchemaVersion`, validates each job on its own (one that fails is skipped and counted:
 * {@link validateFeedJobs}) and upserts the valid ones, in one activity. The outcome is recorded on the source (failure count,
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
import { Cron, Data, Duration, Effect, Either, Layer, Option, ParseResult, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { Outbound, outboundFailureCodes, outboundFailureOf } from "../../../layers/Outbound.js"
import { issueDetail } from "../../http/RequestMiddleware.js"
import { PartnerFeed, type PartnerFeedJob, PartnerFeedJobV1, PartnerFeedJobV2, type PartnerFeedVersion, type SkippedFeedJob } from "./Schemas.js"
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

/** How many skipped jobs a source records (their count is exact). */
export const MaxRecordedSkips = 20

const decodeJob = {
  1: Schema.decodeUnknownEither(PartnerFeedJobV1, { errors: "first" }),
  2: Schema.decodeUnknownEither(PartnerFeedJobV2, { errors: "first" })
} as const

/**
 * The jobs of a feed document of version `version`, each validated on its own: the valid ones (version 1 jobs
 * with no skills, protocols or reward), and the skipped ones (a job breaking its schema, or repeating an
 * `externalId` of an earlier job of the document) with their count and the first {@link MaxRecordedSkips}
 * of them (index, `externalId` when valid, the pointer and rule that failed, never a value). Pure.
 */
export const validateFeedJobs = (version: PartnerFeedVersion, jobs: ReadonlyArray<unknown>): {
  readonly valid: ReadonlyArray<PartnerFeedJob>
  readonly skippedCount: number
  readonly skipped: ReadonlyArray<SkippedFeedJob>
} => {
  const valid: Array<PartnerFeedJob> = []
  const skipped: Array<SkippedFeedJob> = []
  let skippedCount = 0
  const seen = new Set<string>()
  const skip = (entry: SkippedFeedJob) => {
    skippedCount++
    if (skipped.length < MaxRecordedSkips) skipped.push(entry)
  }
  jobs.forEach((raw, index) => {
    const decoded = decodeJob[version](raw)
    if (Either.isLeft(decoded)) {
      const [issue] = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
      const id = typeof raw === "object" && raw !== null ? (raw as { externalId?: unknown }).externalId : undefined
      return skip({
        index,
        externalId: typeof id === "string" && id.length > 0 && id.length <= 200 ? id : null,
        pointer: issue === undefined || issue.path.length === 0 ? "" : "/" + issue.path.join("/"),
        detail: issue === undefined ? "is not valid" : issueDetail(issue)
      })
    }
    const job: PartnerFeedJob = { skills: [], protocols: [], reward: null, ...decoded.right }
    if (seen.has(job.externalId)) {
      return skip({ index, externalId: job.externalId, pointer: "/externalId", detail: "repeats an earlier job's externalId" })
    }
    seen.add(job.externalId)
    valid.push(job)
  })
  return { valid, skippedCount, skipped }
}

/**
 * Fetches a partner feed and validates the document as a {@link PartnerFeed} of `version` (its jobs are
 * validated by {@link validateFeedJobs}). Fails with {@link FeedFailure}.
 */
export const fetchFeed = (endpointUrl: string, timeoutMs: number, version: PartnerFeedVersion = 1) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(endpointUrl).pipe(HttpClientRequest.acceptJson)).pipe(
      Effect.mapError(feedFailure("network-error"))
    )
    if (response.status < 200 || response.status > 299) return yield* new FeedFailure({ code: `http-${response.status}` })
    const feed = yield* HttpClientResponse.schemaBodyJson(PartnerFeed)(response).pipe(
      Effect.mapError((error) =>
        outboundFailureOf(error) === undefined ? new FeedFailure({ code: "invalid-feed" }) : feedFailure("invalid-feed")(error)
      )
    )
    if (feed.schemaVersion !== version) return yield* new FeedFailure({ code: "invalid-feed" })
    return feed
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
      const { endpointUrl, pollIntervalSeconds, requestTimeoutMs, responseSchemaVersion } = target.value
      const outcome = yield* Effect.either(fetchFeed(endpointUrl, requestTimeoutMs, responseSchemaVersion))
      const at = yield* now
      const nextSyncAt = new Date(at.getTime() + pollIntervalSeconds * 1000)
      yield* Either.match(outcome, {
        onLeft: (failure) => repo.recordFailure({ id: sourceId, failure: failure.code, at, nextSyncAt }),
        onRight: (feed) => {
          const { skipped, skippedCount, valid } = validateFeedJobs(responseSchemaVersion, feed.jobs)
          return repo.recordSuccess({ id: sourceId, jobs: valid, skippedCount, skipped, at, nextSyncAt })
        }
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
