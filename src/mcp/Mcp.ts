/** Domain rules of the MCP area (spec §2.16, §4.4): observed catalogs and OAuth authorization. */
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import type { ParseError } from "effect/ParseResult"
import { ConfigurationMissing } from "../../schema/errors.js"
import { ConnectionNotFound } from "./Errors.js"
import type { McpCatalog } from "./Schemas.js"
import { AgentOperators } from "../agentAccess/Operators.js"
import { catalogDigest } from "./catalog/Digest.js"
import { McpRepo } from "./Repo.js"
import { WorkflowEngine } from "@effect/workflow"
import { now } from "../../layers/Clock.js"
import { isStale, statedCacheMetadata } from "./catalog/Freshness.js"
import { startCatalogRefresh } from "./catalog/Refresh.js"

/** How long a begun OAuth authorization stays valid: 10 minutes (OAuth 2.1 §4.1.2 recommends short-lived codes). */
export const OAuthFlowTtlMs = 10 * 60_000


/** Infrastructure failures are defects (rendered as 500/503 by the request middleware). */
const orDie = <A, R>(effect: Effect.Effect<A, SqlError | ParseError, R>): Effect.Effect<A, never, R> => Effect.orDie(effect)

/** MCP catalogs (OAuth is `./oauth/McpOAuth.ts`). Requires `SqlClient`. */
export class Mcp extends Effect.Service<Mcp>()("agent-directory/Mcp", {
  effect: Effect.gen(function*() {
    const repo = yield* McpRepo
    const operators = yield* AgentOperators
    const engine = yield* WorkflowEngine.WorkflowEngine

    const findConnection = (input: { readonly entityPublicId: string; readonly connectionId: string }) =>
      repo.connection(input).pipe(
        orDie,
        Effect.flatMap(Option.match({
          onNone: () =>
            Effect.fail(
              new ConnectionNotFound({ detail: `No MCP connection ${input.connectionId} of this agent.` })
            ),
          onSome: (c) => Effect.succeed(c)
        }))
      )

    /**
     * MCP_GetMcpCatalog: the connection's last observed catalog with its digest (see
     * `./catalog/Digest.ts`) and its age stated in `cacheMetadata` (`./catalog/Freshness.ts`). A
     * catalog past `expiresAt` is answered as stale, and a fetch of a fresh one is started
     * (one per expiry; not for a DISABLED connection). Any active member of the agent's
     * workspace may read it.
     *
     * Fails with `AgentNotFound` (`agent-not-found`, `connection-not-found`),
     * `ConfigurationMissing` (`configuration-missing`: never observed).
     */
    const getCatalog = (input: { readonly entityPublicId: string; readonly connectionId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        yield* operators.access(input)
        const connection = yield* findConnection(input)
        const stored = yield* repo.catalog(input.connectionId).pipe(orDie)
        if (Option.isNone(stored)) {
          return yield* new ConfigurationMissing({
            detail: "The connection's catalog has never been observed; connect the server first."
          })
        }
        const at = yield* now
        const catalog = stored.value
        const refreshing = isStale(catalog, at) && connection.state !== "DISABLED"
        if (refreshing && catalog.expiresAt !== null) {
          yield* startCatalogRefresh(connection.id, "expired", catalog.expiresAt.toISOString()).pipe(
            Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
          )
        }
        return {
          ...catalog,
          cacheMetadata: statedCacheMetadata(catalog, at, refreshing),
          digest: catalogDigest(catalog)
        } satisfies McpCatalog
      })

    return { getCatalog }
  }),
  dependencies: [McpRepo.Default, AgentOperators.Default]
}) {}
