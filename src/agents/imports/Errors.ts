/**
 * The problem causes of agent imports (the shared ones, `agent-not-found`,
 * `role-required`, `outbound-target-refused`, are in `schema/errors.ts`). Each is one
 * `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `agent-import-not-found`: the agent has no import with this id. */
export class AgentImportNotFound extends Problem<AgentImportNotFound>()("AgentImportNotFound", {
  status: 404, type: "agent-import-not-found", meaning: "the agent has no import with this id"
}) {}
