/**
 * The problem causes of Partner job sources (admin) (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `partner-job-source-not-found`: no such partner job source. */
export class PartnerJobSourceNotFound extends Problem<PartnerJobSourceNotFound>()("PartnerJobSourceNotFound", {
  status: 404, type: "partner-job-source-not-found", meaning: "no such partner job source"
}) {}

/** 409 `partner-job-source-code-taken`: another partner job source has this `code`. */
export class PartnerJobSourceCodeTaken extends Problem<PartnerJobSourceCodeTaken>()("PartnerJobSourceCodeTaken", {
  status: 409, type: "partner-job-source-code-taken", meaning: "another partner job source has this code"
}) {}
