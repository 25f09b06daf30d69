/** SQL of the Agents area: an account's favorite agents (spec §2.10). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { FavoriteAgent } from "../../schema/agents.js"

/** Keyset position of a favorite: when it was added (ISO string) and the agent id; newest first. */
export const FavoritePosition = Schema.Tuple(Schema.String, Schema.String)

const FavoriteRow = Schema.Struct({ ...FavoriteAgent.fields, favoritedAt: Schema.String })

export class AgentsRepo extends Effect.Service<AgentsRepo>()("agent-directory/AgentsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const favorites = SqlSchema.findAll({
      Request: Schema.Struct({
        accountId: Schema.String,
        after: Schema.NullOr(FavoritePosition),
        take: Schema.Number
      }),
      Result: FavoriteRow,
      execute: ({ accountId, after, take }) =>
        sql`SELECT a.id AS "publicId", a.canonical_slug AS "canonicalSlug", a.name, a.rank::text AS rank, a.tagline,
              a.description, a.star_count::text AS "starCount", a.verification_state AS "verificationState",
              to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "favoritedAt"
            FROM favorite_agents f JOIN agents a ON a.id = f.agent_id
            WHERE f.account_id = ${accountId}
              ${after === null ? sql`` : sql`AND (f.created_at, f.agent_id) < (${after[0]}::timestamptz, ${after[1]}::uuid)`}
            ORDER BY f.created_at DESC, f.agent_id DESC
            LIMIT ${take}`
    })
    return {
      /** Favorites of an account after a position, newest first, with their position. */
      favorites: (accountId: string, after: typeof FavoritePosition.Type | undefined, take: number) =>
        Effect.orDie(favorites({ accountId, after: after ?? null, take })).pipe(
          Effect.map((rows) =>
            rows.map(({ favoritedAt, ...agent }) => ({ agent, position: [favoritedAt, agent.publicId] as const }))
          )
        )
    }
  })
}) {}
