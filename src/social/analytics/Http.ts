/** HTTP handlers of the Analytics group (tag Social): ingestion, exports, download. */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Analytics } from "./Analytics.js"

const contentTypes = { CSV: "text/csv; charset=utf-8", JSONL: "application/x-ndjson; charset=utf-8" } as const
const extensions = { CSV: "csv", JSONL: "jsonl" } as const

export const AnalyticsHttpLive = group(Api, "Analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    const envelope = yield* Envelope
    return handlers
      .handle("ingestProductEvents", ({ payload }) => analytics.ingest(payload).pipe(Effect.flatMap(envelope.data)))
      .handle("issueAnalyticsContextToken", ({ payload }) => analytics.issueContextToken(payload).pipe(Effect.flatMap(envelope.data)))
      .handle("createAnalyticsExport", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          analytics.createExport({ ...payload, agentId: path.entityPublicId.toLowerCase(), accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("getAnalyticsExport", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          analytics.getExport({
            agentId: path.entityPublicId.toLowerCase(),
            exportId: path.exportId.toLowerCase(),
            accountId: session.accountId
          })).pipe(Effect.flatMap(envelope.data)))
      .handle("downloadAnalyticsExport", ({ headers }) =>
        analytics.download(headers["x-download-token"]).pipe(
          Effect.map((file) =>
            HttpServerResponse.uint8Array(file.content, {
              contentType: contentTypes[file.format],
              headers: { "content-disposition": `attachment; filename="analytics-export-${file.exportId}.${extensions[file.format]}"` }
            })
          )
        ))
  }))
