/**
 * The analytics export workflow (spec §2.17, §3 export states), started by
 * Social_CreateAnalyticsExport in its transaction, one execution per export:
 * 1. activity `build`: reads the agent's stored data in the export's range and stores
 *    the CSV (csv-stringify, RFC 4180, header row) or JSONL file in the export row, then
 *    marks it AVAILABLE with `rowCount` and `expiresAt`; a build that cannot finish marks
 *    it FAILED with `errorCode`. The whole build is one transaction, so a crash leaves the
 *    export as it was and the engine runs the activity again.
 * 2. a durable sleep of {@link ExportRetentionMs} (`DurableClock`: it survives restarts
 *    and moves with the test clock);
 * 3. activity `expire`: AVAILABLE → EXPIRED and the file removed. Reads already show an
 *    AVAILABLE export past `expiresAt` as EXPIRED and refuse its download (410), so the
 *    answer is right even before this step has run.
 *
 * Data per export type: TRAFFIC = the agent's ingested product events; REVENUE = the paid
 * orders for the agent (one row per order: amount, asset, state); SERVICE = the same orders as
 * service delivered (the entitlement each granted and its state); every other type = the
 * agent's public activity (§2.21).
 */
import { SqlClient } from "@effect/sql"
import { Activity, DurableClock, Workflow } from "@effect/workflow"
import { stringify } from "csv-stringify/sync"
import { Duration, Effect, Option, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { AnalyticsRepo } from "./Repo.js"

/** How long a built export file can be downloaded (ms, 7 days after completion). */
export const ExportRetentionMs = 7 * 24 * 3600 * 1000
/** Most rows one export holds; more → FAILED `TOO_MANY_ROWS` (narrow the range). */
export const MaxExportRows = 1_000_000

/** The workflow: build export `exportId`, keep it for its retention, expire it (execution id from `exportId`). */
export const AnalyticsExportWorkflow = Workflow.make({
  name: "AnalyticsExport",
  payload: { exportId: Schema.String },
  idempotencyKey: ({ exportId }) => exportId
})

/** Columns of each file kind, in order. */
const columns = {
  events: ["eventId", "name", "category", "occurredAt", "properties"],
  activity: ["publicId", "activityKey", "eventVersion", "summary", "sourceKind", "network", "transactionReference", "occurredAt"],
  revenue: [
    "orderId", "orderNumber", "paidAt", "state", "productCode", "productName", "quantity", "network", "assetId", "symbol",
    "decimals", "totalUnits"
  ],
  service: [
    "orderId", "orderNumber", "paidAt", "state", "productCode", "offerId", "entitlementCode", "entitlementState",
    "effectiveFrom", "effectiveUntil"
  ]
} as const

/** The columns of an export type's file. */
const columnsOf = (exportType: string) =>
  exportType === "TRAFFIC"
    ? columns.events
    : exportType === "REVENUE"
    ? columns.revenue
    : exportType === "SERVICE"
    ? columns.service
    : columns.activity

/** The file of `rows` in `format`: CSV with a header row (objects as JSON text), or one JSON object per line. */
export const renderExport = (format: string, header: ReadonlyArray<string>, rows: ReadonlyArray<Record<string, unknown>>) =>
  format === "JSONL"
    ? rows.map((r) => JSON.stringify(r) + "\n").join("")
    : stringify(
      rows.map((r) => header.map((c) => (typeof r[c] === "object" && r[c] !== null ? JSON.stringify(r[c]) : r[c]))),
      { header: true, columns: [...header], record_delimiter: "unix" }
    )

/** The workflow's implementation, registered on the engine. Requires `SqlClient` (plus the engine). */
export const AnalyticsExportLive = AnalyticsExportWorkflow.toLayer(({ exportId }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* AnalyticsRepo
    const available = yield* Activity.make({
      name: "build",
      success: Schema.Boolean,
      execute: sql.withTransaction(Effect.gen(function*() {
        const spec = yield* repo.exportSpec(exportId)
        if (Option.isNone(spec) || !(yield* repo.startBuilding(exportId))) return false
        const { agentId, exportType, from, to, format } = spec.value
        const header = columnsOf(exportType)
        const rows = exportType === "TRAFFIC"
          ? yield* repo.productEventRows(agentId, from, to)
          : exportType === "REVENUE" || exportType === "SERVICE"
          // a line holds the type's columns only
          ? (yield* repo.paidOrderRows(agentId, from, to)).map((r) => Object.fromEntries(header.map((c) => [c, r[c] ?? null])))
          : yield* repo.activityRows(agentId, from, to)
        const at = yield* now
        if (rows.length > MaxExportRows) {
          yield* repo.finishFailed(exportId, "TOO_MANY_ROWS", at)
          return false
        }
        const file = renderExport(format, header, rows)
        yield* repo.finishAvailable(exportId, Buffer.from(file, "utf8"), rows.length, at, new Date(at.getTime() + ExportRetentionMs))
        return true
      })).pipe(retryTransient, Effect.orDie)
    })
    if (!available) return
    yield* DurableClock.sleep({ name: "retention", duration: Duration.millis(ExportRetentionMs) })
    yield* Activity.make({
      name: "expire",
      execute: Effect.flatMap(now, (at) => repo.expire(exportId, at)).pipe(retryTransient, Effect.orDie)
    })
  }).pipe(survivingStorageErrors, Effect.provide(AnalyticsRepo.Default)))
