/**
 * Favoriting agents: Agents_FavoriteAgent and Agents_UnfavoriteAgent,
 * added to the Agents group (`AgentsApi`); the list is Agents_ListFavoriteAgents.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { AgentPath, FavoriteAgent, FavoriteAgentAdded } from "../../../schema/agents.js"
import { Data } from "../../../schema/envelope.js"
import { AgentNotFound, InvalidState } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"

const rules = "Needs a session with its CSRF token and an `Idempotency-Key` (a replay answers the first result). " +
  "`starCount` counts the accounts that favor the agent: it moves by one only when a favorite is really added or " +
  "removed, in the same transaction, so concurrent requests of one account count once. The change is evidence for " +
  "the agent's projections (marked in the same transaction)."

/** PUT /api/v1/agents/{entityPublicId}/favorite. */
export const favoriteAgent = HttpApiEndpoint.put("favoriteAgent", "/api/v1/agents/:entityPublicId/favorite")
  .setPath(AgentPath)
  .setHeaders(IdempotencyKeyRequired)
  .addSuccess(FavoriteAgentAdded, { status: 201 })
  .addSuccess(Data(FavoriteAgent))
  .pipe(
    operation({
      id: "Agents_FavoriteAgent",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 500, 503],
      summary: "Add an agent to your favorites (idempotent: 201 when added, 200 when it already was)",
      description: "Adds the agent to the caller's favorites (Agents_ListFavoriteAgents shows it first) and answers " +
        "with the agent as a favorite item (spec §2.10) with its `starCount` after the change: 201 when it was added " +
        "now (`starCount` + 1), 200 when it already was a favorite (nothing changes). No body.\n\n" +
        "Only agents listed in the directory can become favorites: an unknown or never listed agent is 404 " +
        "`agent-not-found`, a RETIRED one 409 `invalid-state` (its profile stays readable; it can still be removed). " +
        rules,
      errors: [AgentNotFound, InvalidState]
    })
  )

/** DELETE /api/v1/agents/{entityPublicId}/favorite. */
export const unfavoriteAgent = HttpApiEndpoint.del("unfavoriteAgent", "/api/v1/agents/:entityPublicId/favorite")
  .setPath(AgentPath)
  .setHeaders(IdempotencyKeyRequired)
  .addSuccess(HttpApiSchema.NoContent)
  .pipe(
    operation({
      id: "Agents_UnfavoriteAgent",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 500, 503],
      summary: "Remove an agent from your favorites (204, also when it was not one)",
      description: "Removes the agent from the caller's favorites and answers 204 with no body; an agent that was " +
        "not a favorite is 204 too (nothing changes). Any agent can be removed, RETIRED ones included; an unknown " +
        "agent is 404 `agent-not-found`. " + rules,
      errors: [AgentNotFound]
    })
  )
