/**
 * Trust_ListAgentFindings: an agent's tool-safety findings (docs/findings.md), public, in
 * cursor pages. The findings are recorded by the MCP area when a catalog is fetched or an MCP
 * import fails (src/mcp/findings/).
 */
import { Effect } from "effect"
import { Cursor } from "../../../layers/Cursor.js"
import { AgentNotFound, type InvalidCursor } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { AgentFindingsRepo, FindingPosition } from "./Repo.js"
import type { AgentFinding } from "./Schemas.js"

export class AgentFindings extends Effect.Service<AgentFindings>()("agent-directory/AgentFindings", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentFindingsRepo
    const cursor = yield* Cursor

    /**
     * One page of agent `entityPublicId`'s findings (of `kind` when given), oldest first.
     * Fails with `AgentNotFound` (no agent has this id) or `InvalidCursor`.
     */
    const list = (entityPublicId: string, query: { readonly limit: number; readonly cursor?: string | undefined; readonly kind?: string | undefined }): Effect.Effect<
      { readonly rows: ReadonlyArray<AgentFinding>; readonly nextCursor: string | null },
      AgentNotFound | InvalidCursor
    > =>
      Effect.gen(function*() {
        const agentId = entityPublicId.toLowerCase()
        if (!(yield* dieOnStorageFailure(repo.agentExists(agentId)))) {
          return yield* new AgentNotFound({ detail: "No agent has this entity UUID." })
        }
        return yield* cursor.page({
          position: FindingPosition,
          cursor: query.cursor,
          param: "cursor",
          binding: { operation: "Trust_ListAgentFindings", agent: agentId, kind: query.kind ?? null },
          limit: query.limit,
          fetch: (after, take) => repo.list(agentId, query.kind, after, take),
          positionOf: (row) => row.id
        })
      })

    return { list }
  }),
  dependencies: [AgentFindingsRepo.Default]
}) {}
