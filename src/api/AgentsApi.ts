/** Agents area contract (spec §4.3): favorite agents. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { FavoriteAgent, ListFavoriteAgentsQuery } from "../../schema/agents.js"
import { Page } from "../../schema/envelope.js"
import { operation } from "./operation.js"

export class AgentsApi extends HttpApiGroup.make("Agents")
  .add(
    HttpApiEndpoint.get("listFavoriteAgents", "/api/v1/agents/favorites")
      .setUrlParams(ListFavoriteAgentsQuery)
      .addSuccess(Page(FavoriteAgent, 100))
      .pipe(
        operation({
          id: "Agents_ListFavoriteAgents",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 500, 503],
          summary: "List the caller's favorite agents (cursor pages)",
          description: "The agents the caller marked as favorites, most recent first, `limit` per page (1-100, " +
            "default 25). Pass `nextCursor` back as `cursor` for the next page; it is bound to this query and caller."
        })
      )
  )
  .annotate(OpenApi.Description, "Agents: identity, favorites and activity")
{}
