/**
 * The tools of an observed MCP catalog become the agent's runtime tools (spec §2.15,
 * `Runtime_ListRuntimeTools`), one row per tool version:
 *
 * - `stableName`: `<connection slug>.<tool name>` (the connection's name in lower case,
 *   runs of other characters than a-z and 0-9 as `-`), so two servers' `search` differ;
 *   `sourceKind` `MCP_SERVER`, `sourceReference` the connection id, `executorKind` `MCP`;
 * - `definitionDigest`: `sha256:` + hex SHA-256 of the canonical JSON
 *   (`layers/CanonicalJson.ts`) of the tool as the server gave it, which is kept as
 *   `remoteDefinition`;
 * - `riskClass` and `executionClass` from the tool's annotations (MCP 2025-06-18
 *   `ToolAnnotations`, hints with the spec's defaults): `readOnlyHint` → LOW / READ;
 *   otherwise `destructiveHint` (default true) → HIGH / SIDE_EFFECT, else MEDIUM / SIDE_EFFECT;
 * - a tool whose definition changed gets a new version (the old one SUPERSEDED,
 *   unavailable); a tool gone from the catalog becomes unavailable (REMOVED, with
 *   `unavailableAt`), never deleted; one that comes back unchanged is available again.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { canonicalJson } from "../../layers/CanonicalJson.js"
import { Ids } from "../../layers/Ids.js"
import { McpConnectionsRepo } from "./connections/Repo.js"

/** `sha256:<64 hex>` of the canonical JSON of one tool definition. */
export const toolDigest = (tool: unknown): string => "sha256:" + createHash("sha256").update(canonicalJson(tool)).digest("hex")

/** The prefix of a connection's tools' stable names. */
export const toolPrefix = (connectionName: string): string =>
  connectionName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "mcp"

interface McpTool {
  readonly name: string
  readonly title?: string
  readonly description?: string
  readonly inputSchema?: unknown
  readonly outputSchema?: unknown
  readonly annotations?: { readonly readOnlyHint?: boolean; readonly destructiveHint?: boolean; readonly title?: string }
}

const isTool = (u: unknown): u is McpTool =>
  typeof u === "object" && u !== null && typeof (u as { readonly name?: unknown }).name === "string"

const classes = (tool: McpTool) =>
  tool.annotations?.readOnlyHint === true
    ? { riskClass: "LOW", executionClass: "READ" }
    : tool.annotations?.destructiveHint === false
    ? { riskClass: "MEDIUM", executionClass: "SIDE_EFFECT" }
    : { riskClass: "HIGH", executionClass: "SIDE_EFFECT" }

/**
 * Brings the agent's runtime tools from connection `connectionId` in line with `tools`
 * (the catalog's `tools`, as the server listed them) at `at`. Runs in the caller's
 * transaction. Requires `SqlClient`, `Ids`.
 */
export const syncRuntimeTools = (input: {
  readonly agentId: string
  readonly connectionId: string
  readonly connectionName: string
  readonly implementationVersion: string
  readonly tools: ReadonlyArray<unknown>
  readonly at: Date
}) =>
  Effect.gen(function*() {
    const repo = yield* McpConnectionsRepo
    const ids = yield* Ids
    const prefix = toolPrefix(input.connectionName)
    const stored = new Map((yield* repo.latestTools(input.agentId, input.connectionId)).map((t) => [t.stableName, t]))
    const offered = new Set<string>()
    for (const tool of input.tools.filter(isTool)) {
      const stableName = `${prefix}.${tool.name}`
      if (offered.has(stableName)) continue // a server listing one name twice: the first counts
      offered.add(stableName)
      const digest = toolDigest(tool)
      const current = stored.get(stableName)
      if (current !== undefined && current.definitionDigest === digest) {
        if (!current.available) yield* repo.restoreTool(current.id)
        continue
      }
      if (current !== undefined) yield* repo.retireTool(current.id, "SUPERSEDED", input.at)
      yield* repo.insertTool({
        id: yield* ids.next,
        agentId: input.agentId,
        connectionId: input.connectionId,
        stableName,
        version: current === undefined ? 1 : Number(current.version) + 1,
        description: tool.description ?? tool.title ?? tool.annotations?.title ?? "",
        inputSchema: tool.inputSchema ?? { type: "object" },
        outputSchema: tool.outputSchema ?? null,
        ...classes(tool),
        implementationVersion: input.implementationVersion,
        definitionDigest: digest,
        remoteDefinition: tool,
        at: input.at
      })
    }
    for (const [name, tool] of stored) {
      if (!offered.has(name) && tool.available) yield* repo.retireTool(tool.id, "REMOVED", input.at)
    }
  })
