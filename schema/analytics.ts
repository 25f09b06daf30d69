/**
 * Analytics and public activity (spec §2.17, §2.21, §4.3): product-event ingestion,
 * analytics exports and the public activity feed of an agent.
 */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, IsoDate, QueryInt, QueryList, rule, StrictStruct, Uuid, WireString } from "./common.js"

/** Rejection codes of one product event (spec §4.3). */
export const EventRejectionCode = Schema.Literal(
  "INVALID_EVENT",
  "TIMESTAMP_SKEW",
  "EVENT_ID_CONFLICT",
  "CONSENT_REQUIRED",
  "SUBJECT_UNAVAILABLE"
)
export type EventRejectionCode = typeof EventRejectionCode.Type

/**
 * Body of Social_IngestProductEvent (spec §4.3): a signed context token and 1-25
 * events. Each event is any JSON here: it is validated on its own against
 * {@link ProductEvent}, and a bad one is rejected (INVALID_EVENT) without failing the batch.
 * The items are the shared {@link AnyJson} (a `$ref`): an inline `Schema.Unknown` would
 * bring Effect's `"$id": "/schemas/unknown"` into the document (see {@link AnyJson}).
 */
export const IngestProductEventsRequest = StrictStruct({
  contextToken: WireString(32, 2048),
  events: Schema.Array(AnyJson).pipe(
    Schema.minItems(1),
    Schema.maxItems(25),
    Schema.annotations(rule("must be an array of 1-25 events"))
  )
}).annotations({ identifier: "IngestProductEventsRequest" })

/** Event names: dotted lower-case words, the first word is the consent category (`traffic.page_view`). */
export const EventNamePattern = /^[a-z][a-z0-9_]{0,39}(?:\.[a-z0-9_]{1,40}){1,3}$/

/**
 * One product event (our shape; the spec leaves each item free-form JSON):
 * `eventId` uuid chosen by the client (dedupe key); `name` dotted lower case, max 100,
 * whose first word is its consent category; `occurredAt` date-time; `entityPublicId`
 * the agent it is about (default: the context token's agent); `properties` a JSON
 * object (default `{}`, at most 8 KiB as JSON).
 */
export const ProductEvent = StrictStruct({
  eventId: Uuid,
  name: Schema.String.pipe(Schema.maxLength(100), Schema.pattern(EventNamePattern)),
  occurredAt: DateTimeZ,
  entityPublicId: Schema.optionalWith(Uuid, { exact: true }),
  properties: Schema.optionalWith(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
      Schema.filter((p) => JSON.stringify(p).length <= 8192, rule("must be at most 8192 characters as JSON"))
    ),
    { exact: true, default: () => ({}) }
  )
}).annotations({ identifier: "ProductEvent" })
export type ProductEvent = typeof ProductEvent.Type

/** 202 data of Social_IngestProductEvent (spec §4.3). */
export const IngestProductEventsResult = Schema.Struct({
  accepted: Schema.Array(Schema.Struct({
    index: Schema.Int.pipe(Schema.nonNegative()),
    eventId: Uuid,
    duplicate: Schema.Boolean
  })).pipe(Schema.maxItems(25)),
  rejected: Schema.Array(Schema.Struct({
    index: Schema.Int.pipe(Schema.nonNegative()),
    eventId: Schema.NullOr(Uuid),
    code: EventRejectionCode
  })).pipe(Schema.maxItems(25)),
  receipt: Schema.Struct({ id: Uuid, durable: Schema.Literal(true), receivedAt: DateTimeZ })
}).annotations({ identifier: "ProductEventIngestionResult" })
export type IngestProductEventsResult = typeof IngestProductEventsResult.Type

/** Analytics export types (spec §2.17). */
export const AnalyticsExportType = Schema.Literal("TRAFFIC", "PERFORMANCE", "REVENUE", "RANKING", "TRUST", "SERVICE")
export type AnalyticsExportType = typeof AnalyticsExportType.Type
/** Analytics export formats (spec §2.17). */
export const AnalyticsExportFormat = Schema.Literal("CSV", "JSONL")
export type AnalyticsExportFormat = typeof AnalyticsExportFormat.Type
/** Analytics export states (spec §3). */
export const AnalyticsExportState = Schema.Literal(
  "REQUESTED",
  "QUEUED",
  "BUILDING",
  "AVAILABLE",
  "EXPIRED",
  "FAILED",
  "CANCELLED"
)
export type AnalyticsExportState = typeof AnalyticsExportState.Type

/** Analytics export (spec §2.17). `rowCount` is a digit string. */
export const AnalyticsExport = Schema.Struct({
  id: Uuid,
  entityPublicId: Uuid,
  exportType: AnalyticsExportType,
  range: Schema.Struct({ from: IsoDate, to: IsoDate }),
  format: AnalyticsExportFormat,
  state: AnalyticsExportState,
  rowCount: Schema.NullOr(Schema.String),
  expiresAt: DateTimeZ,
  downloadToken: Schema.NullOr(Schema.String),
  errorCode: Schema.NullOr(Schema.String),
  createdAt: DateTimeZ,
  completedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "AnalyticsExport" })
export type AnalyticsExport = typeof AnalyticsExport.Type

/** Longest export range, in days counted inclusively (spec §4.3). */
export const MaxExportRangeDays = 366

/** Body of Social_CreateAnalyticsExport (spec §4.3). */
export const CreateAnalyticsExportRequest = StrictStruct({
  exportType: AnalyticsExportType,
  from: IsoDate,
  to: IsoDate,
  format: Schema.optionalWith(AnalyticsExportFormat, { exact: true, default: () => "CSV" as const })
}).annotations({ identifier: "CreateAnalyticsExportRequest" })

/** Download header of an export file (our extension): the export's `downloadToken`. */
export const ExportDownloadHeaders = Schema.Struct({
  "x-download-token": WireString(1, 512).annotations({ description: "the export's downloadToken" })
})

/** Source kinds of public activity (spec §2.21). */
export const ActivitySourceKind = Schema.Literal("DOMAIN_EVENT", "CHAIN_OBSERVATION", "PROVIDER_OBSERVATION", "PRODUCT_EVIDENCE")

/** Public agent activity item (spec §2.21). */
export const ActivityItem = Schema.Struct({
  publicId: Uuid,
  activityKey: Schema.String,
  eventVersion: Schema.Int.pipe(Schema.positive()),
  summary: Schema.NullOr(Schema.String),
  sourceKind: ActivitySourceKind,
  network: Schema.NullOr(Schema.Struct({ key: Schema.String, displayName: Schema.String })),
  transactionReference: Schema.NullOr(Schema.String),
  explorerUrl: Schema.NullOr(Schema.String.annotations({ jsonSchema: { format: "uri" } })),
  evidencePublicId: Schema.NullOr(Uuid),
  occurredAt: DateTimeZ
}).annotations({ identifier: "ActivityItem" })
export type ActivityItem = typeof ActivityItem.Type

/** Query of Agents_GetPublicAgentActivity (spec §4.3). */
export const GetPublicAgentActivityQuery = Schema.Struct({
  cursor: Schema.optionalWith(WireString(1, 4096), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  sourceKinds: QueryList(ActivitySourceKind, 4),
  networks: QueryList(WireString(1, 100), 20),
  activityKeys: QueryList(WireString(1, 150), 20)
})

/** How long an issued context token is good (seconds, 1 hour). */
export const ContextTokenTtlSeconds = 3600

/** A consent category: the first word of event names (`traffic` of `traffic.page_view`). */
export const ConsentCategory = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9_]{0,39}$/),
  Schema.annotations(rule("must be a lowercase word of 1-40 letters, digits or underscores, starting with a letter"))
)

/** Body of Social_IssueAnalyticsContextToken: the agent the page is about, the consented categories, the visitor. */
export const IssueContextTokenRequest = StrictStruct({
  agentPublicId: Schema.optionalWith(Schema.NullOr(Uuid), { default: () => null, exact: true }),
  consent: Schema.Array(ConsentCategory).pipe(Schema.maxItems(20)),
  visitor: Schema.optional(
    Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9_.:-]{1,200}$/),
      Schema.annotations(rule("must be 1-200 letters, digits, '_', '.', ':' or '-'"))
    )
  )
}).annotations({ identifier: "IssueContextTokenRequest" })
export type IssueContextTokenRequest = typeof IssueContextTokenRequest.Type

/** 201 data of Social_IssueAnalyticsContextToken. */
export const IssuedContextToken = Schema.Struct({
  contextToken: Schema.String,
  expiresAt: DateTimeZ,
  agentPublicId: Schema.NullOr(Uuid),
  consent: Schema.Array(Schema.String),
  visitor: Schema.String
}).annotations({ identifier: "IssuedContextToken" })
export type IssuedContextToken = typeof IssuedContextToken.Type
