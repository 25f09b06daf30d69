/**
 * Domain rules of an agent's MCP connections: adding one, reading
 * them, and asking for a fresh catalog. The catalog itself is fetched in the background
 * (`../catalog/Refresh.ts`), started in the caller's transaction.
 */
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import { InvalidState } from "../../../schema/errors.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound } from "../../../layers/Outbound.js"
import { requireActiveAgent, AgentOperators } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { startCatalogRefresh } from "../catalog/Refresh.js"
import type { McpTransport } from "../Client.js"
import type { CreateMcpConnectionRequest, McpCatalogRefresh, McpConnection } from "../Schemas.js"
import { McpConnectionsRepo } from "./Repo.js"
import { ConnectionExists, ConnectionNotFound } from "../Errors.js"
import { rolesFor } from "../../../schema/roles.js"


/** A connection's default name: its server URL's host. */
const defaultName = (serverUrl: string) => new URL(serverUrl).host

/** MCP connections. Requires `SqlClient`, `Ids`, `Outbound` and the `WorkflowEngine`. */
export class McpConnections extends Effect.Service<McpConnections>()("agent-directory/McpConnections", {
  effect: Effect.gen(function*() {
    const repo = yield* McpConnectionsRepo
    const operators = yield* AgentOperators
    const ids = yield* Ids
    const outbound = yield* Outbound
    const engine = yield* WorkflowEngine.WorkflowEngine

    const findOrFail = (input: { readonly entityPublicId: string; readonly connectionId: string; readonly at: Date }) =>
      Effect.flatMap(
        repo.find(input).pipe(dieOnStorageFailure),
        Option.match({
          onNone: () => Effect.fail(new ConnectionNotFound({ detail: `No MCP connection ${input.connectionId} of this agent.` })),
          onSome: Effect.succeed
        })
      )

    /**
     * Adds a PENDING connection of agent `agentId` to `serverUrl` and starts its first
     * catalog fetch, with no access check: for callers that have made theirs (the HTTP
     * operation below, an import workflow). `serverUrl` must have passed
     * `Outbound.check`. Fails with `ConnectionExists` when the agent already has a
     * connection to `serverUrl`.
     */
    const createForAgent = (input: {
      readonly agentId: string
      readonly name?: string | undefined
      readonly serverUrl: string
      readonly transport: McpTransport
    }): Effect.Effect<McpConnection, ConnectionExists> =>
      Effect.gen(function*() {
        const at = yield* now
        const id = yield* ids.next
        const inserted = yield* repo.insert({
          id,
          agentId: input.agentId,
          name: input.name ?? defaultName(input.serverUrl),
          serverUrl: input.serverUrl,
          transport: input.transport,
          at
        })
        if (!inserted) {
          return yield* new ConnectionExists({ detail: "The agent already has an MCP connection to this serverUrl." })
        }
        yield* startCatalogRefresh(id, "created", id)
        return yield* findOrFail({ entityPublicId: input.agentId, connectionId: id, at }).pipe(Effect.orDie)
      }).pipe(dieOnStorageFailure, Effect.provideService(WorkflowEngine.WorkflowEngine, engine))

    /**
     * For imports (`kind: MCP_SERVER`): the agent's connection to `serverUrl`, created
     * as {@link createForAgent} does when it has none, else the existing one with a
     * fresh catalog fetch started (unless DISABLED).
     */
    const ensureForAgent = (input: {
      readonly agentId: string
      readonly name?: string | undefined
      readonly serverUrl: string
      readonly transport: McpTransport
    }): Effect.Effect<McpConnection> =>
      createForAgent(input).pipe(
        Effect.catchTag("ConnectionExists", () =>
          Effect.gen(function*() {
            const at = yield* now
            const id = yield* repo.findByServerUrl(input.agentId, input.serverUrl).pipe(
              dieOnStorageFailure,
              Effect.flatMap(Effect.orDie)
            )
            const existing = yield* findOrFail({ entityPublicId: input.agentId, connectionId: id, at }).pipe(Effect.orDie)
            if (existing.state !== "DISABLED") {
              yield* startCatalogRefresh(id, "requested", yield* ids.next).pipe(Effect.provideService(WorkflowEngine.WorkflowEngine, engine))
            }
            return existing
          }))
      )

    /**
     * MCP_CreateMcpConnection: checks the caller (OWNER, ADMIN or EDITOR of the agent's
     * workspace) and `serverUrl` (the outbound rules), then {@link createForAgent}.
     *
     * Fails with `AgentNotFound` (`agent-not-found`), `RoleRequired` (`role-required`),
     * `OutboundTargetRefused` (`outbound-target-refused`, naming `/serverUrl`),
     * `ConnectionExists` (`connection-exists`).
     */
    const create = (input: { readonly entityPublicId: string; readonly accountId: string; readonly body: CreateMcpConnectionRequest }) =>
      Effect.gen(function*() {
        const access = yield* operators.access({ ...input, roles: { allowed: rolesFor("mcp.connections.write"), action: "Adding an MCP connection" } })
        yield* requireActiveAgent(access, "Adding an MCP connection")
        yield* outbound.checkField(input.body.serverUrl, "/serverUrl")
        return yield* createForAgent({
          agentId: input.entityPublicId,
          name: input.body.name,
          serverUrl: input.body.serverUrl,
          transport: input.body.transport
        })
      })

    /** MCP_ListMcpConnections: the agent's connections, oldest first; any workspace role. Fails with `AgentNotFound`. */
    const list = (input: { readonly entityPublicId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        yield* operators.access(input)
        return yield* repo.list({ entityPublicId: input.entityPublicId, at: yield* now }).pipe(dieOnStorageFailure)
      })

    /** MCP_GetMcpConnection: one connection; any workspace role. Fails with `AgentNotFound`, `ConnectionNotFound`. */
    const get = (input: { readonly entityPublicId: string; readonly accountId: string; readonly connectionId: string }) =>
      Effect.gen(function*() {
        yield* operators.access(input)
        return yield* findOrFail({ ...input, at: yield* now })
      })

    /**
     * MCP_RefreshMcpCatalog: starts a fetch of the connection's catalog now; the
     * connection as it is (its state and catalog change when the fetch ends). OWNER,
     * ADMIN, EDITOR or OPERATOR.
     *
     * Fails with `AgentNotFound`, `RoleRequired`, `ConnectionNotFound`, `InvalidState`
     * (`invalid-state`: DISABLED).
     */
    const refresh = (input: { readonly entityPublicId: string; readonly accountId: string; readonly connectionId: string }) =>
      Effect.gen(function*() {
        yield* operators.access({ ...input, roles: { allowed: rolesFor("mcp.connect"), action: "Refreshing an MCP catalog" } })
        const at = yield* now
        const connection = yield* findOrFail({ ...input, at })
        if (connection.state === "DISABLED") {
          return yield* new InvalidState({ detail: "The connection is DISABLED; its catalog is not fetched." })
        }
        yield* startCatalogRefresh(connection.id, "requested", yield* ids.next).pipe(Effect.provideService(WorkflowEngine.WorkflowEngine, engine))
        return { connection, requestedAt: at } satisfies McpCatalogRefresh
      })

    return { createForAgent, ensureForAgent, create, list, get, refresh }
  }),
  dependencies: [McpConnectionsRepo.Default, AgentOperators.Default]
}) {}
