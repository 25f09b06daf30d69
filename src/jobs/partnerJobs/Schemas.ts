/** Partner job sources (spec §2.18, §3, §4.2) and the partner feed format they serve (ours). */
import { Schema } from "effect"
import { DateTimeZ, HttpUrl, rule, StrictStruct, Uuid, Version, WireString } from "../../../schema/common.js"

/** Partner job source states (spec §3). */
export const PartnerJobSourceState = Schema.Literal("ACTIVE", "DEGRADED", "PAUSED", "DISABLED")
export type PartnerJobSourceState = typeof PartnerJobSourceState.Type

/** The partner feed versions a source may serve (see {@link PartnerFeed}). */
export const PartnerFeedVersion = Schema.Literal(1, 2)
export type PartnerFeedVersion = typeof PartnerFeedVersion.Type

/**
 * One job its last successful sync skipped: its index in the feed's `jobs`, its `externalId` when it had a
 * valid one, and the rule it broke at `pointer` (JSON Pointer into the job), never the value.
 */
export const SkippedFeedJob = Schema.Struct({
  index: Schema.Int.pipe(Schema.nonNegative()),
  externalId: Schema.NullOr(Schema.String),
  pointer: Schema.String,
  detail: Schema.String
}).annotations({ identifier: "SkippedFeedJob" })
export type SkippedFeedJob = typeof SkippedFeedJob.Type

/**
 * Partner job source (spec §2.18), with its sync record: `lastFailure` (why the last sync failed, null after a
 * success: `timeout`, `http-<status>`, `invalid-feed`, `network-error`, `target-refused`, `response-too-large`),
 * `lastSyncJobCount` and `lastSyncSkippedCount` (jobs stored and skipped by the last successful sync, null before
 * one) and `lastSyncSkipped` (the first 20 skipped jobs and why).
 */
export const PartnerJobSource = Schema.Struct({
  id: Uuid,
  code: Schema.String.pipe(Schema.minLength(2), Schema.maxLength(100)),
  displayName: Schema.String.pipe(Schema.maxLength(200)),
  websiteUrl: Schema.String.pipe(Schema.maxLength(2000)),
  endpointUrl: Schema.String.pipe(Schema.maxLength(2000)),
  adapterVersion: Schema.String.pipe(Schema.maxLength(100)),
  responseSchemaVersion: PartnerFeedVersion,
  pollIntervalSeconds: Schema.Int.pipe(Schema.between(60, 86400)),
  requestTimeoutMs: Schema.Int.pipe(Schema.between(1000, 60000)),
  state: PartnerJobSourceState,
  nextSyncAt: Schema.NullOr(DateTimeZ),
  lastSuccessfulSyncAt: Schema.NullOr(DateTimeZ),
  failureCount: Schema.Int.pipe(Schema.nonNegative()),
  lastFailure: Schema.NullOr(Schema.String),
  lastSyncJobCount: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative())),
  lastSyncSkippedCount: Schema.NullOr(Schema.Int.pipe(Schema.nonNegative())),
  lastSyncSkipped: Schema.Array(SkippedFeedJob),
  version: Version,
  configurationVersion: Schema.String.pipe(Schema.pattern(/^[1-9][0-9]*$/)),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "PartnerJobSource" })
export type PartnerJobSource = typeof PartnerJobSource.Type

/** Body of Jobs_SyncPartnerJobSource (spec §4.2). */
export const SyncPartnerJobSourceRequest = StrictStruct({
  expectedVersion: Version,
  reason: WireString(3, 1000),
  dryRun: Schema.optionalWith(Schema.Boolean, { default: () => true, exact: true }),
  confirmation: Schema.optionalWith(WireString(0, 200), { exact: true })
}).annotations({ identifier: "SyncPartnerJobSourceRequest" })
export type SyncPartnerJobSourceRequest = typeof SyncPartnerJobSourceRequest.Type

const KeyText = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
  Schema.annotations(rule("must be a key of 1-100 letters, digits, '.', '_' or '-'"))
)

/**
 * One job of a partner feed, version 1. `externalId` is the partner's stable id: a
 * job seen again is updated in place.
 */
export const PartnerFeedJobV1 = Schema.Struct({
  externalId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  title: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)),
  url: Schema.String.pipe(Schema.maxLength(2000), Schema.pattern(/^https?:\/\/[^\s]+$/)),
  description: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(10000))), { default: () => null }),
  postedAt: DateTimeZ,
  closesAt: Schema.optionalWith(Schema.NullOr(DateTimeZ), { default: () => null })
})

/**
 * A job's reward in a partner feed (version 2): `units`, the integer amount in the asset's smallest unit as a
 * decimal string; `asset`, its symbol (`USDC`, 1-20 letters, digits or `.`); `network`, a CAIP-2 chain id
 * (`eip155:8453`) or a network key of the directory (`base`).
 */
export const PartnerFeedReward = Schema.Struct({
  units: Schema.String.pipe(Schema.pattern(/^(?:0|[1-9][0-9]{0,77})$/), Schema.annotations(rule("must be a decimal string of at most 78 digits"))),
  asset: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9.]{1,20}$/), Schema.annotations(rule("must be an asset symbol of 1-20 letters, digits or '.'"))),
  network: Schema.String.pipe(
    Schema.pattern(/^(?:[a-z0-9][a-z0-9._-]{0,99}|[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32})$/),
    Schema.annotations(rule("must be a network key or a CAIP-2 chain id"))
  )
})

/**
 * One job of a partner feed, version 2: version 1's fields and, all optional, `skills` (at most 50 keys) and
 * `protocols` (at most 20 protocol keys such as `mcp`, `a2a`), stored lower case, and `reward` ({@link PartnerFeedReward}).
 */
export const PartnerFeedJobV2 = Schema.Struct({
  ...PartnerFeedJobV1.fields,
  skills: Schema.optionalWith(Schema.Array(KeyText).pipe(Schema.maxItems(50)), { default: () => [] }),
  protocols: Schema.optionalWith(Schema.Array(KeyText).pipe(Schema.maxItems(20)), { default: () => [] }),
  reward: Schema.optionalWith(Schema.NullOr(PartnerFeedReward), { default: () => null })
})

/** One job of a partner feed as stored: version 1 jobs have no skills, protocols or reward. */
export type PartnerFeedJob = typeof PartnerFeedJobV2.Type

/**
 * The partner feed document: what a source's `endpointUrl` answers to `GET` with `Accept: application/json`,
 * `{"schemaVersion": 1 | 2, "jobs": [...]}`, at most 1000 jobs, unknown keys ignored (partners may add fields).
 * `schemaVersion` must be the source's `responseSchemaVersion` (else the feed is invalid). Each job is then
 * validated on its own ({@link PartnerFeedJobV1}, {@link PartnerFeedJobV2}): one that fails, or repeats an
 * `externalId` already seen in the document, is skipped and counted, and the others are stored. A feed is
 * the partner's whole list: a job it no longer lists leaves the board.
 */
export const PartnerFeed = Schema.Struct({
  schemaVersion: PartnerFeedVersion,
  jobs: Schema.Array(Schema.Unknown).pipe(Schema.maxItems(1000))
})
export type PartnerFeed = typeof PartnerFeed.Type

const SourceCode = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9-]{1,99}$/),
  Schema.annotations(rule("must be 2-100 lower-case letters, digits or '-', starting with a letter or digit"))
)
const PollInterval = Schema.Int.pipe(Schema.between(60, 86400), Schema.annotations(rule("must be an integer 60-86400")))
const RequestTimeout = Schema.Int.pipe(Schema.between(1000, 60000), Schema.annotations(rule("must be an integer 1000-60000")))
const FeedVersionField = PartnerFeedVersion.annotations(rule("must be 1 or 2"))

/**
 * Body of Jobs_CreatePartnerJobSource: `code` (unique, 2-100 lower-case letters, digits, `-`), `displayName`,
 * `websiteUrl` and `endpointUrl` (absolute http(s) URLs; the endpoint must pass the outbound rules),
 * `responseSchemaVersion` (the feed version served, default 2), `pollIntervalSeconds` (60-86400, default 900),
 * `requestTimeoutMs` (1000-60000, default 10000).
 */
export const CreatePartnerJobSourceRequest = StrictStruct({
  code: SourceCode,
  displayName: WireString(1, 200),
  websiteUrl: HttpUrl(2000),
  endpointUrl: HttpUrl(2000),
  responseSchemaVersion: Schema.optionalWith(FeedVersionField, { default: () => 2 as const, exact: true }),
  pollIntervalSeconds: Schema.optionalWith(PollInterval, { default: () => 900, exact: true }),
  requestTimeoutMs: Schema.optionalWith(RequestTimeout, { default: () => 10000, exact: true })
}).annotations({ identifier: "CreatePartnerJobSourceRequest" })
export type CreatePartnerJobSourceRequest = typeof CreatePartnerJobSourceRequest.Type

/** The states an admin may set (DEGRADED is the sync's to set and clear). */
export const PartnerJobSourceTargetState = Schema.Literal("ACTIVE", "PAUSED", "DISABLED").annotations(
  rule("must be one of ACTIVE, PAUSED, DISABLED")
)

/**
 * Body of Jobs_UpdatePartnerJobSource: `expectedVersion` and at least one of the configuration fields of
 * {@link CreatePartnerJobSourceRequest} (but `code`) or `state` (ACTIVE: resume a PAUSED source; PAUSED; DISABLED).
 */
export const UpdatePartnerJobSourceRequest = StrictStruct({
  expectedVersion: Version,
  displayName: Schema.optionalWith(WireString(1, 200), { exact: true }),
  websiteUrl: Schema.optionalWith(HttpUrl(2000), { exact: true }),
  endpointUrl: Schema.optionalWith(HttpUrl(2000), { exact: true }),
  responseSchemaVersion: Schema.optionalWith(FeedVersionField, { exact: true }),
  pollIntervalSeconds: Schema.optionalWith(PollInterval, { exact: true }),
  requestTimeoutMs: Schema.optionalWith(RequestTimeout, { exact: true }),
  state: Schema.optionalWith(PartnerJobSourceTargetState, { exact: true })
}).annotations({ identifier: "UpdatePartnerJobSourceRequest" })
export type UpdatePartnerJobSourceRequest = typeof UpdatePartnerJobSourceRequest.Type

/** Path of the operations on one source. */
export const PartnerJobSourcePath = Schema.Struct({ sourceId: Uuid })
