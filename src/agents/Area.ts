/**
 * The agents area: the agent directory: list, profile, registration (create, update, retire), favorites (list, add, remove),
 * resolve, activity; the search's embeddings indexer when an embeddings model is configured. Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { migrations } from "./Migrations.js"
import { AgentsHttpLive } from "./Http.js"
import { Agents } from "./Agents.js"
import { AgentCards } from "./cards/AgentCards.js"
import { AgentsRepo } from "./Repo.js"
import { Registration } from "./registration/Registration.js"
import { Favorites } from "./favorites/Favorites.js"
import { ActivityRepo } from "./ActivityRepo.js"
import { Resolver } from "../identity/Resolver.js"
import { EmbeddingIndexerLive } from "./embeddings/EmbeddingIndexer.js"

/** The agents area's handlers and background work (see `src/Area.ts`). */
export const AgentsArea = {
  name: "agents",
  http: AgentsHttpLive.pipe(
    Layer.provide([Registration.Default, AgentCards.Default, Favorites.Default]),
    Layer.provide([Agents.Default, AgentsRepo.Default, ActivityRepo.Default, Resolver.Default])
  ),
  workflows: EmbeddingIndexerLive,
  migrations
} satisfies Area
