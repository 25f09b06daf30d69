/** Domain rules of the Runtime area (spec §2.15, §4.4): runtime tools and schedule previews. */
import { Effect } from "effect"
import { ConfigurationMissing } from "../../schema/errors.js"
import { now } from "../../layers/Clock.js"
import { AgentOperators } from "../agentAccess/Operators.js"
import { RuntimeRepo } from "./Repo.js"
import { previewSchedule } from "./schedules/Schedule.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"

/** Runtime reads and previews. Requires `SqlClient`. */
export class Runtime extends Effect.Service<Runtime>()("agent-directory/Runtime", {
  effect: Effect.gen(function*() {
    const repo = yield* RuntimeRepo
    const operators = yield* AgentOperators

    /**
     * Runtime_ListRuntimeTools: every tool of the agent's runtime (any state, available
     * or not), by `stableName` then `version`. Any active member of the agent's
     * workspace may read them.
     *
     * Fails with `AgentNotFound` (`agent-not-found`), `Unprocessable`
     * (`configuration-missing`: the agent has no runtime configured and no tool from an
     * MCP connection).
     */
    const listTools = (input: { readonly entityPublicId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const access = yield* operators.access(input)
        const tools = yield* repo.tools(input.entityPublicId).pipe(dieOnStorageFailure)
        // an agent without a runtime configuration may still have the tools of its MCP connections
        if (!access.runtimeConfigured && tools.length === 0) {
          return yield* new ConfigurationMissing({
            detail: "The agent has no runtime configured and no tools from MCP connections; configure its runtime first."
          })
        }
        return tools
      })

    /**
     * Runtime_PreviewAgentSchedule: the next `count` occurrences of the expression
     * after `from` (default: now) in `timezone` (see `./schedules/Schedule.ts`). Any active member
     * of the agent's workspace may preview; no runtime is needed (a preview runs nothing).
     *
     * Fails with `AgentNotFound` (`agent-not-found`), `InvalidRequest` naming `/cronExpression`
     * or `/timezone`.
     */
    const preview = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly cronExpression: string
      readonly timezone: string
      readonly count: number
      readonly from: Date | undefined
    }) =>
      Effect.gen(function*() {
        yield* operators.access(input)
        const from = input.from ?? (yield* now)
        return yield* previewSchedule({ ...input, from })
      })

    return { listTools, preview }
  }),
  dependencies: [RuntimeRepo.Default, AgentOperators.Default]
}) {}
