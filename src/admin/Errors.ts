/**
 * The problem causes of the Admin area's job views (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `workflow-execution-not-found`: the durable engine has no workflow execution with this id. */
export class WorkflowExecutionNotFound extends Problem<WorkflowExecutionNotFound>()("WorkflowExecutionNotFound", {
  status: 404, type: "workflow-execution-not-found", meaning: "the durable engine has no workflow execution with this id"
}) {}
