/**
 * Agents_GetAgentCard: the A2A Agent Card of a listed agent, as the
 * exact bytes to serve and their strong entity tag.
 *
 * - The card the agent published, when an import stored one (src/agentImports/): its text
 *   exactly as fetched (`agent_a2a_cards.card_text`), never re-serialized, so its JWS
 *   `signatures` (RFC 7515 over the card's JCS form) stay verifiable by the agent's key.
 * - Otherwise the card the directory builds from the profile (`ProfileAgentCard.ts`).
 *
 * Only a listed agent (ACTIVE with `listedAt`) has a card here: an unlisted, retired or
 * unknown one is `AgentNotFound` (`agent-not-found`), unlike Agents_GetAgent, which keeps
 * answering a retired agent's profile as evidence.
 */
import { Effect, Option } from "effect"
import { AgentNotFound } from "../../schema/errors.js"
import { strongEtag } from "../http/Conditional.js"
import { AgentCardRepo } from "./AgentCardRepo.js"
import { Agents } from "./Agents.js"
import { agentCardFromProfile } from "./ProfileAgentCard.js"

/** A card ready to serve: its JSON text, its strong `ETag`, and whether the agent published it. */
export interface ServedAgentCard {
  readonly body: string
  readonly etag: string
  readonly published: boolean
}

export class AgentCards extends Effect.Service<AgentCards>()("agent-directory/AgentCards", {
  effect: Effect.gen(function*() {
    const agents = yield* Agents
    const repo = yield* AgentCardRepo

    /** The card of listed agent `entityId`. Fails with `AgentNotFound`. */
    const forAgent = (entityId: string): Effect.Effect<ServedAgentCard, AgentNotFound> =>
      Effect.gen(function*() {
        const profile = yield* agents.profile(entityId)
        if (profile.state !== "ACTIVE" || profile.listedAt === null) {
          return yield* new AgentNotFound({ detail: "No agent listed in the directory has this entity UUID." })
        }
        const published = yield* repo.publishedCardText(profile.entityId)
        const body = Option.getOrElse(published, () => JSON.stringify(agentCardFromProfile(profile)))
        return { body, etag: strongEtag(body), published: Option.isSome(published) }
      })

    return { forAgent }
  }),
  dependencies: [AgentCardRepo.Default]
}) {}
