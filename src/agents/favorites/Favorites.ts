/**
 * Domain rules of favorite agents: an account adds an agent to its
 * favorites (Agents_FavoriteAgent) or removes it (Agents_UnfavoriteAgent); the agent's
 * `starCount` counts the accounts that favor it. Both are evidence for the agent's
 * projections (`markAgentEvidence` in the same transaction).
 */
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import type { FavoriteAgent } from "../../../schema/agents.js"
import { AgentNotFound, InvalidState } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { FavoritesRepo } from "./Repo.js"

const notFound = () => new AgentNotFound({ detail: "No listed agent has this entityPublicId." })

/** Favorite agents of an account. Requires `SqlClient`, `Clock`. */
export class Favorites extends Effect.Service<Favorites>()("agent-directory/Favorites", {
  effect: Effect.gen(function*() {
    const repo = yield* FavoritesRepo

    /**
     * Agents_FavoriteAgent: adds the agent to the account's favorites. Returns the agent as
     * a favorite item (spec §2.10, `starCount` after the change) and whether it was added
     * now (false: it already was a favorite; nothing changed). `starCount` moves by one only
     * when a row is inserted, so concurrent adds by one account count once.
     * Fails with `AgentNotFound` (unknown, or never listed) or `InvalidState` (RETIRED).
     */
    const add = (input: { readonly entityPublicId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const agentId = input.entityPublicId.toLowerCase()
        const target = yield* repo.target(agentId)
        if (Option.isNone(target) || (target.value.state !== "RETIRED" && !target.value.listed)) return yield* notFound()
        if (target.value.state === "RETIRED") {
          return yield* new InvalidState({ detail: "The agent is RETIRED; it cannot become a favorite." })
        }
        const at = yield* now
        const added = yield* repo.add({ accountId: input.accountId, agentId, at })
        const item: FavoriteAgent = yield* repo.item(agentId).pipe(Effect.flatMap(Effect.orDie))
        return { item, added }
      }).pipe(dieOnStorageFailure)

    /**
     * Agents_UnfavoriteAgent: removes the agent from the account's favorites (absent
     * already: nothing changes; the agent's state does not matter, so a RETIRED agent can be
     * removed). `starCount` - 1 only when a row was deleted. Fails with `AgentNotFound`
     * (unknown agent).
     */
    const remove = (input: { readonly entityPublicId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const agentId = input.entityPublicId.toLowerCase()
        if (Option.isNone(yield* repo.target(agentId))) {
          return yield* new AgentNotFound({ detail: "No agent has this entityPublicId." })
        }
        yield* repo.remove({ accountId: input.accountId, agentId, at: yield* now })
      }).pipe(dieOnStorageFailure)

    return { add, remove }
  }),
  dependencies: [FavoritesRepo.Default]
}) {}
