/**
 * The directory as an A2A agent (A2A 1.0, `@a2a-js/sdk`'s server): its skills `search` and
 * `resolve` are the MCP tools `search_agents` and `resolve_agent_identities`
 * (src/mcpServer/Tools.ts), so they take the same arguments, call the same services as the
 * REST operations Agents_ListAgents and Agents_ResolveAgentIdentities, and check the same
 * scopes (the operation's `x-required-scopes`; the budget is charged by the endpoint).
 *
 * A request (`SendMessage`) is one user message:
 *
 * - `metadata.skill`: `search` (the default) or `resolve`;
 * - the arguments: its first data part (an object: for `search` the Agents_ListAgents query
 *   with JSON numbers and arrays, for `resolve` the body `{locators}`); without one, for
 *   `search`, its text parts are the text query `q`.
 *
 * The answer is one agent message (no task: nothing is kept between requests) with a text
 * part (a short summary, or the problem's detail) and a data part: the REST success body
 * (`{data, nextCursor, meta}` or `{data, meta}`), or the problem document REST would answer
 * (`type`, `title`, `status`, `detail`, `instance`, `requestId`, and `errors` for 400);
 * `metadata`: `{skill, outcome: "success" | "problem", operationId}`.
 */
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server"
import { type Message, type Part, Role } from "@a2a-js/sdk"
import { Either, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { InvalidRequest } from "../../schema/errors.js"
import type { Problem, ProblemDocument } from "../../schema/problem.js"
import { scopeRefusal } from "../http/AuthMiddleware.js"
import { type CallContext, directoryTool, type DirectoryTool, type ToolRunner } from "../mcpServer/index.js"

/** The skills of the directory's card, by id, and the MCP tool each one is. */
export const DirectorySkills: Readonly<Record<string, string>> = {
  search: "search_agents",
  resolve: "resolve_agent_identities"
}

/** The skill a request's message names (`metadata.skill`, default `search`), from its JSON form (proto JSON or SDK). */
export const skillOf = (metadata: unknown): unknown =>
  typeof metadata === "object" && metadata !== null && "skill" in metadata ? (metadata as { skill: unknown }).skill : "search"

/** The tool of a skill id, if it is one of {@link DirectorySkills}. */
export const skillTool = (skill: unknown): DirectoryTool | undefined =>
  typeof skill === "string" && Object.hasOwn(DirectorySkills, skill) ? directoryTool(DirectorySkills[skill]!) : undefined

/** Where the endpoint puts the {@link CallContext} in the SDK's `ServerCallContext.state`. */
export const A2aCallContextKey = "agentDirectory"

const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" })
const dataPart = (value: unknown): Part => ({ content: { $case: "data", value }, metadata: undefined, filename: "", mediaType: "application/json" })

/** The arguments of `message` for `skill` (see the module's description). */
const argumentsOf = (skill: string, message: Message): unknown => {
  for (const part of message.parts) if (part.content?.$case === "data") return part.content.value
  const text = message.parts.flatMap((p) => p.content?.$case === "text" ? [p.content.value] : []).join("\n").trim()
  return skill === "search" && text !== "" ? { q: text } : {}
}

/** A scope check then `effect`, as the REST auth middleware does before the handler. */
const scoped = <A>(tool: DirectoryTool, context: CallContext, effect: Effect.Effect<A, Problem, any>) => {
  const refused = context.principal._tag === "ApiKey" ? scopeRefusal(tool.policy, context.principal) : undefined
  return refused === undefined ? effect : Effect.fail(refused)
}

/** The agent executor of the directory's A2A interface: each message is answered by one skill call, run by `run`. */
export const makeDirectoryAgentExecutor = (run: ToolRunner): AgentExecutor => ({
  execute: async (request: RequestContext, eventBus: ExecutionEventBus) => {
    const context = request.context.state.get(A2aCallContextKey) as CallContext
    const message = request.userMessage
    const skill = skillOf(message.metadata)
    const tool = skillTool(skill)
    const answer = (parts: Array<Part>, metadata: Record<string, unknown>) => {
      eventBus.publish(AgentEvent.message({
        messageId: randomUUID(),
        contextId: request.contextId,
        taskId: "",
        role: Role.ROLE_AGENT,
        parts,
        metadata,
        extensions: [],
        referenceTaskIds: []
      }))
      eventBus.finished()
    }
    const problem = (document: ProblemDocument) =>
      answer([textPart(document.detail), dataPart(document)], { skill: String(skill), outcome: "problem" })
    if (tool === undefined) {
      const result = await run(
        Effect.fail(new InvalidRequest({
          detail: `The skill is not one of the directory's: ${Object.keys(DirectorySkills).join(", ")}.`,
          errors: [{ in: "body", pointer: "/message/metadata/skill", detail: `must be one of ${Object.keys(DirectorySkills).join(", ")}` }]
        })),
        context
      )
      return Either.match(result, { onLeft: problem, onRight: () => {} })
    }
    const skillId = skill as string
    const result = await run(scoped(tool, context, tool.call(argumentsOf(skillId, message), context.principal)), context)
    Either.match(result, {
      onLeft: problem,
      onRight: (r) =>
        answer([textPart(r.text), dataPart(r.structured)], {
          skill: skillId,
          outcome: "success",
          operationId: tool.policy.operationId
        })
    })
  },
  // every request is answered by one message, never a task: there is nothing to cancel
  cancelTask: async () => {}
})
