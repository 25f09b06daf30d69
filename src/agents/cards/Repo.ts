/**
 * SQL of Agents_GetAgentCard: the A2A Agent Card an agent published,
 * as the import of src/agents/imports/ stored it (`agent_a2a_cards.card_text`, migration 0020:
 * the exact text fetched, so its JWS `signatures` stay verifiable).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"

export class AgentCardRepo extends Effect.Service<AgentCardRepo>()("agent-directory/AgentCardRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const published = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ cardText: Schema.String }),
      execute: (agentId) => sql`SELECT card_text AS "cardText" FROM agent_a2a_cards WHERE agent_id = ${agentId}`
    })
    return {
      /** The text of the card agent `agentId` published (its latest SUCCEEDED card import), or none. */
      publishedCardText: (agentId: string) => Effect.orDie(published(agentId)).pipe(Effect.map(Option.map((r) => r.cardText)))
    }
  })
}) {}
