/**
 * The analytics export build job (spec §2.17, §3 export states; issue 11): runs on the
 * durable job runner (layers/Jobs.ts), reads the agent's stored data in the export's
 * range and stores the CSV (csv-stringify, RFC 4180, header row) or JSONL file in the
 * export row, then marks it AVAILABLE with `rowCount`; a build that cannot finish
 * marks it FAILED with `errorCode`.
 *
 * Data per export type: TRAFFIC = the agent's ingested product events; every other
 * type = the agent's public activity (§2.21), the only other per-agent data stored so far.
 */
import { SqlClient } from "@effect/sql"
import { stringify } from "csv-stringify/sync"
import { Effect, Option, Schema } from "effect"
import { now } from "../../layers/Clock.js"
import { jobHandler } from "../../layers/JobRunner.js"
import { jobKind } from "../../layers/Jobs.js"
import { AnalyticsRepo } from "./Repo.js"

/** How long a built export file can be downloaded (ms, 7 days after completion). */
export const ExportRetentionMs = 7 * 24 * 3600 * 1000
/** Most rows one export holds; more → FAILED `TOO_MANY_ROWS` (narrow the range). */
export const MaxExportRows = 1_000_000

/** Builds one export's file. */
export const BuildAnalyticsExport = jobKind("build-analytics-export", Schema.Struct({ exportId: Schema.String }))

/** Columns of each file kind, in order. */
const columns = {
  events: ["eventId", "name", "category", "occurredAt", "properties"],
  activity: ["publicId", "activityKey", "eventVersion", "summary", "sourceKind", "network", "transactionReference", "occurredAt"]
} as const

/** The file of `rows` in `format`: CSV with a header row (objects as JSON text), or one JSON object per line. */
export const renderExport = (format: string, header: ReadonlyArray<string>, rows: ReadonlyArray<Record<string, unknown>>) =>
  format === "JSONL"
    ? rows.map((r) => JSON.stringify(r) + "\n").join("")
    : stringify(
      rows.map((r) => header.map((c) => (typeof r[c] === "object" && r[c] !== null ? JSON.stringify(r[c]) : r[c]))),
      { header: true, columns: [...header], record_delimiter: "unix" }
    )

/**
 * Handler: idempotent (a finished export is left alone; the whole build is one
 * transaction, so a crash leaves the export as it was and the retry starts over).
 */
export const exportHandlers = [
  jobHandler(BuildAnalyticsExport, ({ exportId }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* AnalyticsRepo
      yield* sql.withTransaction(Effect.gen(function*() {
        const spec = yield* repo.exportSpec(exportId)
        if (Option.isNone(spec) || !(yield* repo.startBuilding(exportId))) return
        const { agentId, exportType, from, to, format } = spec.value
        const traffic = exportType === "TRAFFIC"
        const rows = traffic ? yield* repo.productEventRows(agentId, from, to) : yield* repo.activityRows(agentId, from, to)
        const at = yield* now
        if (rows.length > MaxExportRows) return yield* repo.finishFailed(exportId, "TOO_MANY_ROWS", at)
        const file = renderExport(format, traffic ? columns.events : columns.activity, rows)
        yield* repo.finishAvailable(exportId, Buffer.from(file, "utf8"), rows.length, at, new Date(at.getTime() + ExportRetentionMs))
      }))
    }).pipe(Effect.provide(AnalyticsRepo.Default)))
]
