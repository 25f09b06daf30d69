/**
 * The problem causes of upstream sources (admin) (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `upstream-source-not-found`: no such upstream source. */
export class UpstreamSourceNotFound extends Problem<UpstreamSourceNotFound>()("UpstreamSourceNotFound", {
  status: 404, type: "upstream-source-not-found", meaning: "no such upstream source"
}) {}
