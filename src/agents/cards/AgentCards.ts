/**
 * Agents_GetAgentCard: the A2A Agent Card of a listed agent, as the
 * exact bytes to serve and their strong entity tag.
 *
 * - The card the agent published, when an import stored one (src/agents/imports/): its text
 *   exactly as fetched (`agent_a2a_cards.card_text`), never re-serialized, so its JWS
 *   `signatures` (RFC 7515 over the card's JCS form) stay verifiable by the agent's key.
 * - Otherwise the card the directory builds from the profile (`ProfileAgentCard.ts`), when
 *   the agent has an A2A interface; without one there is no A2A card (A2A 1.0 requires a
 *   non-empty `supportedInterfaces`): `AgentCardNotAvailable` (404
 *   `agent-card-not-available`), whose detail links the agent's profile (REST and its
 *   canonical page) and the endpoints it declared (its MCP server, ...).
 *
 * Only a listed agent (ACTIVE with `listedAt`) has a card here: an unlisted, retired or
 * unknown one is `AgentNotFound` (`agent-not-found`), unlike Agents_GetAgent, which keeps
 * answering a retired agent's profile as evidence.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { AgentCardNotAvailable, AgentNotFound } from "../../../schema/errors.js"
import { strongEtag } from "../../http/Conditional.js"
import { AgentCardRepo } from "./Repo.js"
import { Agents } from "../Agents.js"
import { agentCardFromProfile, declaredEndpoints } from "./ProfileAgentCard.js"

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
    const { publicBaseUrl } = yield* AppConfig

    /** The card of listed agent `entityId`. Fails with `AgentNotFound` or `AgentCardNotAvailable`. */
    const forAgent = (entityId: string): Effect.Effect<ServedAgentCard, AgentNotFound | AgentCardNotAvailable> =>
      Effect.gen(function*() {
        const profile = yield* agents.profile(entityId)
        if (profile.state !== "ACTIVE" || profile.listedAt === null) {
          return yield* new AgentNotFound({ detail: "No agent listed in the directory has this entity UUID." })
        }
        const published = yield* repo.publishedCardText(profile.entityId)
        if (Option.isSome(published)) return { body: published.value, etag: strongEtag(published.value), published: true }
        const built = agentCardFromProfile(profile, publicBaseUrl)
        if (built === undefined) {
          const elsewhere = declaredEndpoints(profile).map((e) => `${e.protocol} at ${e.url}`)
          return yield* new AgentCardNotAvailable({
            detail: `The agent publishes no A2A interface, so it has no A2A Agent Card. Its profile: ` +
              `${publicBaseUrl}/api/v1/agents/${profile.entityId} (Agents_GetAgent; page ${profile.canonicalUrl})` +
              (elsewhere.length === 0 ? "." : `; endpoints it declared: ${elsewhere.join(", ")}.`)
          })
        }
        const body = JSON.stringify(built)
        return { body, etag: strongEtag(body), published: false }
      })

    return { forAgent }
  }),
  dependencies: [AgentCardRepo.Default]
}) {}
