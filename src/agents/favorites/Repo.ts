/**
 * SQL of favoriting agents (Agents_FavoriteAgent, Agents_UnfavoriteAgent):
 * the `favorite_agents` rows of an account and the agent's `star_count`, which moves only
 * when a row is really inserted or deleted, in the same transaction.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { FavoriteAgent } from "../../../schema/agents.js"
import { markAgentEvidence } from "../../trust/index.js"

/** What the favorite rules need to know about an agent: its state and whether it is listed. */
export const FavoriteTarget = Schema.Struct({ state: Schema.String, listed: Schema.Boolean })

export class FavoritesRepo extends Effect.Service<FavoritesRepo>()("agent-directory/FavoritesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The agent's state and listing, or none. */
    const target = SqlSchema.findOne({
      Request: Schema.String,
      Result: FavoriteTarget,
      execute: (agentId) => sql`SELECT state, listed_at IS NOT NULL AS listed FROM agents WHERE id = ${agentId}`
    })

    /** The agent as a favorite item (spec §2.10), or none. */
    const item = SqlSchema.findOne({
      Request: Schema.String,
      Result: FavoriteAgent,
      execute: (agentId) =>
        sql`SELECT a.id AS "publicId", a.canonical_slug AS "canonicalSlug", a.name, a.rank::text AS rank, a.tagline,
              a.description, a.star_count::text AS "starCount", a.verification_state AS "verificationState"
            FROM agents a WHERE a.id = ${agentId}`
    })

    /**
     * Adds the favorite; true when a row was inserted (then `star_count` + 1). A concurrent
     * insert of the same (account, agent) waits for the other to commit, then inserts nothing.
     */
    const add = (r: { readonly accountId: string; readonly agentId: string; readonly at: Date }) =>
      Effect.gen(function*() {
        const rows = yield* sql`INSERT INTO favorite_agents (account_id, agent_id, created_at)
                                VALUES (${r.accountId}, ${r.agentId}, ${r.at})
                                ON CONFLICT (account_id, agent_id) DO NOTHING RETURNING agent_id`
        if (rows.length === 0) return false
        // the evidence mark before the agent's row: a drain of the projector (which holds its marks, then
        // re-ranks agents) never waits for this transaction while it waits for the drain (no deadlock)
        yield* markAgentEvidence(r.agentId, r.at)
        yield* sql`UPDATE agents SET star_count = star_count + 1 WHERE id = ${r.agentId}`
        return true
      })

    /** Removes the favorite; true when a row was deleted (then `star_count` - 1, never below 0). */
    const remove = (r: { readonly accountId: string; readonly agentId: string; readonly at: Date }) =>
      Effect.gen(function*() {
        const rows = yield* sql`DELETE FROM favorite_agents WHERE account_id = ${r.accountId} AND agent_id = ${r.agentId}
                                RETURNING agent_id`
        if (rows.length === 0) return false
        yield* markAgentEvidence(r.agentId, r.at) // before the agent's row, as in `add`
        yield* sql`UPDATE agents SET star_count = GREATEST(star_count - 1, 0) WHERE id = ${r.agentId}`
        return true
      })

    return { target, item, add, remove } as const
  })
}) {}
