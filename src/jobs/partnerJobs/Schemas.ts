/** Partner job sources (spec §2.18, §3, §4.2) and the partner feed format they serve (ours). */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, Version, WireString } from "../../../schema/common.js"

/** Partner job source states (spec §3). */
export const PartnerJobSourceState = Schema.Literal("ACTIVE", "DEGRADED", "PAUSED", "DISABLED")
export type PartnerJobSourceState = typeof PartnerJobSourceState.Type

/** Partner job source (spec §2.18). */
export const PartnerJobSource = Schema.Struct({
  id: Uuid,
  code: Schema.String.pipe(Schema.minLength(2), Schema.maxLength(100)),
  displayName: Schema.String.pipe(Schema.maxLength(200)),
  websiteUrl: Schema.String.pipe(Schema.maxLength(2000)),
  endpointUrl: Schema.String.pipe(Schema.maxLength(2000)),
  adapterVersion: Schema.String.pipe(Schema.maxLength(100)),
  responseSchemaVersion: Schema.Literal(1),
  pollIntervalSeconds: Schema.Int.pipe(Schema.between(60, 86400)),
  requestTimeoutMs: Schema.Int.pipe(Schema.between(1000, 60000)),
  state: PartnerJobSourceState,
  nextSyncAt: Schema.NullOr(DateTimeZ),
  lastSuccessfulSyncAt: Schema.NullOr(DateTimeZ),
  failureCount: Schema.Int.pipe(Schema.nonNegative()),
  version: Version,
  configurationVersion: Schema.String.pipe(Schema.pattern(/^[1-9][0-9]*$/)),
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

/**
 * One job of a partner feed (version 1). `externalId` is the partner's stable id: a
 * job seen again is updated in place.
 */
export const PartnerFeedJob = Schema.Struct({
  externalId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  title: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(300)),
  url: Schema.String.pipe(Schema.maxLength(2000), Schema.pattern(/^https?:\/\/[^\s]+$/)),
  description: Schema.optionalWith(Schema.NullOr(Schema.String.pipe(Schema.maxLength(10000))), { default: () => null }),
  postedAt: DateTimeZ,
  closesAt: Schema.optionalWith(Schema.NullOr(DateTimeZ), { default: () => null })
})
export type PartnerFeedJob = typeof PartnerFeedJob.Type

/**
 * The partner feed, version 1: what a source's `endpointUrl` answers to
 * `GET` with `Accept: application/json` — `{"schemaVersion": 1, "jobs": [...]}`,
 * at most 1000 jobs, unknown keys ignored (partners may add fields).
 */
export const PartnerFeed = Schema.Struct({
  schemaVersion: Schema.Literal(1),
  jobs: Schema.Array(PartnerFeedJob).pipe(Schema.maxItems(1000))
})
export type PartnerFeed = typeof PartnerFeed.Type
