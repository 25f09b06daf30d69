/**
 * The problem causes of Analytics: context tokens, exports (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 400 `invalid-context-token`: the analytics `contextToken` is malformed or its signature is not ours. */
export class InvalidContextToken extends Problem<InvalidContextToken>()("InvalidContextToken", {
  status: 400, type: "invalid-context-token", meaning: "the analytics `contextToken` is malformed or its signature is not ours"
}) {}
/** 401 `context-token-expired`: the analytics `contextToken` has expired; get a fresh one. */
export class ContextTokenExpired extends Problem<ContextTokenExpired>()("ContextTokenExpired", {
  status: 401, type: "context-token-expired", meaning: "the analytics `contextToken` has expired; get a fresh one"
}) {}
/** 400 `invalid-date-range`: `from` is after `to`, or the range is longer than 366 days. */
export class InvalidDateRange extends Problem<InvalidDateRange>()("InvalidDateRange", {
  status: 400, type: "invalid-date-range", meaning: "`from` is after `to`, or the range is longer than 366 days"
}) {}
/** 404 `export-not-found`: no such export, or its download token is not valid. */
export class ExportNotFound extends Problem<ExportNotFound>()("ExportNotFound", {
  status: 404, type: "export-not-found", meaning: "no such export, or its download token is not valid"
}) {}
/** 409 `export-not-ready`: the export's file is not built yet (state is not AVAILABLE). */
export class ExportNotReady extends Problem<ExportNotReady>()("ExportNotReady", {
  status: 409, type: "export-not-ready", meaning: "the export's file is not built yet (state is not AVAILABLE)"
}) {}
/** 410 `export-expired`: the export's file has expired. */
export class ExportExpired extends Problem<ExportExpired>()("ExportExpired", {
  status: 410, type: "export-expired", meaning: "the export's file has expired"
}) {}
