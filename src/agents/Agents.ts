/**
 * Domain rules of the Agents area's directory reads (spec §9): the filtered, sorted,
 * cursor-paged list and the canonical agent profile.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { now } from "../../layers/Clock.js"
import { Cursor } from "../../layers/Cursor.js"
import type { AgentListItem, AgentProfile, ListAgentsQuery } from "../../schema/agents.js"
import { AgentNotFound, InvalidCursor } from "../../schema/errors.js"
import { canonicalAgentUrl } from "../identity/CanonicalUrl.js"
import { AgentsRepo, ListPosition } from "./Repo.js"

/** A filter's values in one spelling: duplicates dropped, sorted (so the cursor binding ignores their order). */
const normalised = <A extends string>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)].sort()

export class Agents extends Effect.Service<Agents>()("agent-directory/Agents", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentsRepo
    const cursor = yield* Cursor
    const config = yield* AppConfig

    /**
     * Agents_ListAgents: one page of listed agents matching the query, in its sort, with
     * the cursor of the next page (null on the last). The cursor is bound to the filters,
     * `q`, `sort` and `caller` (a principal scope such as `api-key:<uuid>` or `anonymous`),
     * not to `limit`. Fails with `InvalidCursor`.
     */
    const list = (query: ListAgentsQuery, caller: string): Effect.Effect<
      { readonly rows: ReadonlyArray<AgentListItem>; readonly nextCursor: string | null },
      InvalidCursor
    > => {
      const filters = {
        networks: normalised(query.networks),
        protocols: normalised(query.protocols),
        verificationStates: normalised(query.verificationStates),
        q: query.q
      }
      return cursor.page({
        position: ListPosition,
        cursor: query.cursor,
        param: "cursor",
        binding: {
          operation: "Agents_ListAgents",
          principal: caller,
          sort: query.sort,
          q: query.q ?? null,
          networks: filters.networks.join(","),
          protocols: filters.protocols.join(","),
          verificationStates: filters.verificationStates.join(",")
        },
        limit: query.limit,
        fetch: (after, take) => repo.list(filters, query.sort, after, take),
        positionOf: (row) => row.position
      }).pipe(Effect.map((page) => ({ rows: page.rows.map((row) => row.agent), nextCursor: page.nextCursor })))
    }

    /** Agents_GetAgent: the canonical profile, prices as of now. Fails with `AgentNotFound` (`agent-not-found`). */
    const profile = (entityId: string): Effect.Effect<AgentProfile, AgentNotFound> =>
      Effect.gen(function*() {
        const found = yield* repo.profile(entityId, yield* now)
        if (Option.isNone(found)) {
          return yield* new AgentNotFound({ detail: "No agent has this entity UUID." })
        }
        const agent = found.value
        return { entityId: agent.publicId, ...agent, canonicalUrl: canonicalAgentUrl(config.publicBaseUrl, agent.publicId) }
      })

    return { list, profile }
  }),
  dependencies: [AgentsRepo.Default]
}) {}
