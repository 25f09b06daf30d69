/**
 * The problem causes of the job board (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `job-not-found`: no job on the board has this id (no OPEN bounty, no listed partner job). */
export class JobNotFound extends Problem<JobNotFound>()("JobNotFound", {
  status: 404, type: "job-not-found", meaning: "no job on the board has this id"
}) {}
