/**
 * The MCP server of one session (`@modelcontextprotocol/sdk`'s `McpServer`, MCP 2025-11-25 and the older revisions the SDK negotiates):
 *
 * - tools: {@link DirectoryTools} (`tools/list` shows each with its `inputSchema` and
 *   `outputSchema`; `tools/call` answers `structuredContent`, the REST success body, plus a
 *   short text). The tools are served through the underlying `Server`'s `tools/*` handlers
 *   because `McpServer.registerTool` takes Zod schemas, and these schemas are the contract's
 *   Effect Schemas as JSON Schema. A call by an API key lacking the operation's scope, or
 *   failing in the service, is a tool error: `isError: true` and one text content holding
 *   the problem document (`type`, `title`, `status`, `detail`, `instance`, `requestId`, and
 *   `errors` for 400), exactly as REST would answer it.
 * - resources: the template `agent://{entityPublicId}`, the agent's profile (the body of
 *   Agents_GetAgent, `application/json`), listed (the first 50 agents by rank) and with the
 *   UUID completed from those. A failed read is a JSON-RPC error (-32002 for an unknown agent,
 *   -32602 for a malformed id, -32603 otherwise) whose `data` is the problem document.
 *
 * Every call runs through a {@link ToolRunner} given by the endpoint (src/mcpServer/McpEndpoint.ts),
 * which supplies the services and the HTTP request's principal and id.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js"
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js"
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest
} from "@modelcontextprotocol/sdk/types.js"
import { Effect, Either } from "effect"
import type { AgentListItem } from "../../schema/agents.js"
import type { Problem, ProblemDocument } from "../../schema/problem.js"
import type { Principal } from "../api/security.js"
import { scopeRefusal } from "../http/AuthMiddleware.js"
import { AgentResourcePolicy, directoryTool, DirectoryTools, type ToolResult, type ToolServices } from "./Tools.js"

/** The principal and request of the HTTP request carrying an MCP message (set by the endpoint as `authInfo.extra`). */
export interface CallContext {
  readonly principal: Principal
  readonly requestId: string
  readonly instance: string
  readonly clientAddress: string
}

/**
 * Runs a tool's effect with the server's services, in the request `context`: its success, or
 * the problem document of its failure (an unexpected failure as 500 `internal-error`, logged).
 */
export type ToolRunner = <A>(
  effect: Effect.Effect<A, Problem, ToolServices>,
  context: CallContext
) => Promise<Either.Either<A, ProblemDocument>>

/** Where the endpoint puts the {@link CallContext} in the SDK's `AuthInfo.extra`. */
export const CallContextKey = "agentDirectory"

// completions carry no request context: anonymous, under the nil request id (their `meta` is never shown)
const anonymousContext: CallContext = {
  principal: { _tag: "Anonymous" },
  requestId: "00000000-0000-0000-0000-000000000000",
  instance: "/mcp",
  clientAddress: ""
}

const contextOf = (extra: RequestHandlerExtra<ServerRequest, ServerNotification>): CallContext =>
  (extra.authInfo?.extra?.[CallContextKey] as CallContext | undefined) ?? anonymousContext

/** A scope check then `effect`, as the REST auth middleware does before the handler. */
const scoped = <A>(
  policy: typeof AgentResourcePolicy,
  principal: Principal,
  effect: Effect.Effect<A, Problem, ToolServices>
): Effect.Effect<A, Problem, ToolServices> => {
  const refused = principal._tag === "ApiKey" ? scopeRefusal(policy, principal) : undefined
  return refused === undefined ? effect : Effect.fail(refused)
}

/** The tool error of a problem: `isError` with the problem document as its text. */
const toolError = (problem: ProblemDocument): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: JSON.stringify(problem) }]
})

/** The JSON-RPC error of a failed resource read. */
const readError = (problem: ProblemDocument): McpError =>
  new McpError(
    problem.status === 404 ? -32002 : problem.status === 400 ? ErrorCode.InvalidParams : ErrorCode.InternalError,
    problem.detail,
    problem
  )

/** How many agents `resources/list` and completion show (the first page of search_agents by rank). */
const ListedAgents = 50

const AgentUriPrefix = "agent://"

/** The MCP server of one session, its calls run by `run`; `version` is the server's build version. */
export const makeDirectoryServer = (version: string, run: ToolRunner): McpServer => {
  const mcp = new McpServer(
    { name: "agent-directory", title: "Agent Directory", version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: "Search and read the Agent Directory: search_agents (filters, q, sort, cursor pages), get_agent, " +
        "resolve_agent_identities, get_agent_activity, list_protocols; agent profiles are also resources agent://{entityPublicId}."
    }
  )

  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: DirectoryTools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    }))
  }))

  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = directoryTool(request.params.name)
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`)
    const context = contextOf(extra)
    const result = await run(scoped(tool.policy, context.principal, tool.call(request.params.arguments ?? {}, context.principal)), context)
    return Either.match(result, {
      onLeft: toolError,
      onRight: (r: ToolResult) => ({ content: [{ type: "text", text: r.text }], structuredContent: r.structured })
    })
  })

  const search = directoryTool("search_agents")!
  const get = directoryTool("get_agent")!
  /** The first agents by rank, as `principal` sees them. */
  const firstAgents = (context: CallContext) =>
    run(
      scoped(search.policy, context.principal, search.call({ limit: ListedAgents }, context.principal)),
      context
    ).then(Either.match({
      onLeft: (problem) => Promise.reject(readError(problem)),
      onRight: (r) => (r.structured as { readonly data: ReadonlyArray<AgentListItem> }).data
    }))

  mcp.registerResource(
    "agent",
    new ResourceTemplate(`${AgentUriPrefix}{entityPublicId}`, {
      list: async (extra) => ({
        resources: (await firstAgents(contextOf(extra))).map((a) => ({
          uri: AgentUriPrefix + a.publicId,
          name: a.canonicalSlug,
          title: a.name,
          ...(a.tagline === null ? {} : { description: a.tagline }),
          mimeType: "application/json"
        }))
      }),
      complete: {
        entityPublicId: async (value) =>
          (await firstAgents(anonymousContext)).map((a) => a.publicId).filter((id) => id.startsWith(value.toLowerCase()))
      }
    }),
    {
      title: "Agent profile",
      description: "The canonical profile of an agent (the body of Agents_GetAgent: `{ data, meta }`).",
      mimeType: "application/json"
    },
    async (uri, variables, extra) => {
      const context = contextOf(extra)
      const id = Array.isArray(variables["entityPublicId"]) ? variables["entityPublicId"][0] : variables["entityPublicId"]
      const result = await run(
        scoped(AgentResourcePolicy, context.principal, get.call({ entityPublicId: id ?? "" }, context.principal)),
        context
      )
      return Either.match(result, {
        onLeft: (problem) => {
          throw readError(problem)
        },
        onRight: (r) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(r.structured) }] })
      })
    }
  )
  return mcp
}
