/**
 * Analytics contract (spec §2.17, §4.3): product-event ingestion and analytics
 * exports, plus two extensions of ours that make exports usable (reading an export,
 * downloading its file). The spec puts these under the Social tag; the group has its
 * own identifier ("Analytics") and `OpenApi.Title` names its OpenAPI tag "Social",
 * like the Mesh group.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  AnalyticsExport,
  CreateAnalyticsExportRequest,
  ExportDownloadHeaders,
  IngestProductEventsRequest,
  IngestProductEventsResult,
  IssueContextTokenRequest,
  IssuedContextToken
} from "../../../schema/analytics.js"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyOptional, IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { AgentNotFound, RoleRequired } from "../../../schema/errors.js"
import { ContextTokenExpired, ExportExpired, ExportNotFound, ExportNotReady, InvalidContextToken, InvalidDateRange } from "./Errors.js"

const AgentPath = Schema.Struct({ entityPublicId: Uuid })

/** The export file: CSV (`text/csv`) or JSONL (`application/x-ndjson`), by the export's format. */
const ExportFile = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })).annotations({
  description: "The file: `text/csv` (header row, RFC 4180) for CSV exports, `application/x-ndjson` for JSONL exports"
})

export class AnalyticsApi extends HttpApiGroup.make("Analytics")
  .add(
    HttpApiEndpoint.post("ingestProductEvents", "/api/v1/analytics/events")
      .setHeaders(IdempotencyKeyOptional)
      .setPayload(IngestProductEventsRequest)
      .addSuccess(Data(IngestProductEventsResult), { status: 202 })
      .pipe(
        operation({
          id: "Social_IngestProductEvent",
          auth: "optional-user",
          cache: "none",
          scopes: ["public:read"],
          cost: 10,
          statuses: [400, 401, 403, 404, 409, 429, 500, 503],
          summary: "Ingest a batch of 1-25 product events under a signed context token",
          description: [
            "`contextToken` is a context token signed by this service (`v1.<claims>.<signature>`: the visitor's opaque",
            "`sub`, the default `agent`, the consented event categories and an expiry). A token that is malformed or not",
            "ours is a 400 (`invalid-context-token`); an expired one is a 401 (`context-token-expired`: fetch a fresh token).",
            "",
            "Each of the 1-25 events is judged on its own and the batch still succeeds (202). An event is",
            "`{eventId: uuid, name, occurredAt: date-time, entityPublicId?: uuid, properties?: object}`: `name` is",
            "dotted lower case (max 100, e.g. `traffic.page_view`) and its first word is its consent category;",
            "`entityPublicId` defaults to the token's agent; `properties` is at most 8192 characters as JSON. Rejections, in",
            "the order checked: `INVALID_EVENT` (not that shape, or no agent), `TIMESTAMP_SKEW` (`occurredAt` more than",
            "7 days before or 5 minutes after the server's time), `CONSENT_REQUIRED` (category not consented in the token),",
            "`SUBJECT_UNAVAILABLE` (the agent does not exist or is not listed), `EVENT_ID_CONFLICT` (the eventId was",
            "stored before with other content). An eventId stored before with the same content is accepted with",
            "`duplicate: true` (also within one batch). The receipt (`durable: true`) is sent only after the accepted",
            "events are committed. Idempotency-Key is optional: with one, a retry replays the first answer."
          ].join("\n"),
          errors: [InvalidContextToken, ContextTokenExpired]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("issueAnalyticsContextToken", "/api/v1/analytics/context-tokens")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(IssueContextTokenRequest)
      .addSuccess(Data(IssuedContextToken), { status: 201 })
      .pipe(
        operation({
          id: "Social_IssueAnalyticsContextToken",
          auth: "public",
          cache: "none",
          scopes: ["public:read"],
          cost: 1,
          statuses: [400, 401, 403, 404, 429, 500, 503],
          summary: "Issue the context token that product-event ingestion needs",
          description: [
            "Issues a context token for Social_IngestProductEvent, to whoever renders a page: anyone may get one",
            "(anonymous, or an API key with `public:read`), as ingestion itself is anonymous. The token names the",
            "visitor, the agent events are about by default (`agentPublicId`, optional: null lets every event name its",
            "own), the event categories the visitor consented to (`consent`, at most 20 lowercase words: the first word",
            "of an event's name, e.g. `traffic` for `traffic.page_view`; an event of another category is rejected",
            "CONSENT_REQUIRED) and an expiry one hour after issue (then ingestion answers 401 `context-token-expired`:",
            "issue a new one).",
            "",
            "`visitor` is the caller's opaque id of the viewer (1-200 of letters, digits, `_.:-`; never an account id);",
            "without one a new id is made and returned. `agentPublicId` must name a listed agent (else 404",
            "`agent-not-found`). Nothing else is stored; Idempotency-Key is required (spec §4.1): a retry with it replays the token."
          ].join("\n"),
          errors: [AgentNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createAnalyticsExport", "/api/v1/agents/:entityPublicId/analytics/exports")
      .setPath(AgentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateAnalyticsExportRequest)
      .addSuccess(Data(AnalyticsExport), { status: 202 })
      .pipe(
        operation({
          id: "Social_CreateAnalyticsExport",
          permission: "analytics.export",
          auth: "required-user",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 429, 500, 503],
          summary: "Request an export of an agent's analytics over a date range (CSV or JSONL)",
          description: [
            "Records the export in state REQUESTED (202) and starts its build on the durable engine. The build",
            "moves it to BUILDING, then AVAILABLE with `rowCount`, `downloadToken` and `expiresAt` (7 days after",
            "completion), or FAILED with `errorCode` (`TOO_MANY_ROWS` beyond 1,000,000 rows). TRAFFIC exports hold the",
            "agent's ingested product events; REVENUE exports the paid orders for the agent (`orderId`, `orderNumber`,",
            "`paidAt`, `state`, `productCode`, `productName`, `quantity`, `network`, `assetId`, `symbol`, `decimals`,",
            "`totalUnits` in minor units); SERVICE exports the same orders as service delivered (`orderId`, `orderNumber`,",
            "`paidAt`, `state`, `productCode`, `offerId`, and the entitlement granted: `entitlementCode`, `entitlementState`,",
            "`effectiveFrom`, `effectiveUntil`); the other types hold its public activity. Rows are those that occurred",
            "(orders: were paid) on the days `from`..`to` (UTC, inclusive).",
            "",
            "Rules: `from` <= `to` and the range is at most 366 days, both real dates (else 400 `invalid-date-range`);",
            "`format` defaults to CSV. The caller needs a recent sign-in (sensitive action) and the OWNER, ADMIN, EDITOR,",
            "OPERATOR or ANALYST role in the workspace operating the agent (VIEWER and other roles: 403); an agent not",
            "operated by one of the caller's workspaces is not found (404). Read it with `GET …/analytics/exports/{exportId}`",
            "and fetch the file with `GET /api/v1/analytics/exports/download` and its token in `X-Download-Token`."
          ].join("\n"),
          errors: [InvalidDateRange, RoleRequired, AgentNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAnalyticsExport", "/api/v1/agents/:entityPublicId/analytics/exports/:exportId")
      .setPath(Schema.Struct({ entityPublicId: Uuid, exportId: Uuid }))
      .addSuccess(Data(AnalyticsExport))
      .pipe(
        operation({
          id: "Social_GetAnalyticsExport",
          permission: "analytics.export",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "Read an analytics export (extension): its state and, once AVAILABLE, its download token",
          description: "Extension of ours (not in the spec): poll an export after Social_CreateAnalyticsExport. " +
            "`downloadToken` is set while the export is AVAILABLE and not expired (then the state reads EXPIRED). " +
            "Same access rules as creating an export (404 outside the caller's workspaces, 403 by role).",
          errors: [RoleRequired, AgentNotFound, ExportNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("downloadAnalyticsExport", "/api/v1/analytics/exports/download")
      .setHeaders(ExportDownloadHeaders)
      .addSuccess(ExportFile)
      .pipe(
        operation({
          id: "Social_DownloadAnalyticsExport",
          auth: "public",
          cache: "none",
          // a presented API key that is not valid is refused (401), as on every public operation
          statuses: [400, 401, 403, 404, 409, 410, 500, 503],
          summary: "Download an export's file (extension) with its token in the X-Download-Token header",
          description: "Extension of ours (not in the spec): streams the file of an AVAILABLE export. The token is " +
            "sent in the `X-Download-Token` header, never in the URL (spec §5.1.6: secrets stay out of URLs and logs); " +
            "the token alone grants the download, so no session is needed. The response is `text/csv` or " +
            "`application/x-ndjson` with a `Content-Disposition: attachment` file name.",
          errors: [ExportNotFound, ExportNotReady, ExportExpired]
        })
      )
  )
  .annotate(OpenApi.Title, "Social")
  .annotate(OpenApi.Description, "Social: product analytics and analytics exports")
{}
