/** Agents area contract (spec §4.3, §9): favorite agents and identity resolution. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { FavoriteAgent, ListFavoriteAgentsQuery } from "../../schema/agents.js"
import { ActivityItem, GetPublicAgentActivityQuery } from "../../schema/analytics.js"
import { Uuid } from "../../schema/common.js"
import { Data, Page } from "../../schema/envelope.js"
import { ResolveAgentIdentitiesRequest, ResolveAgentIdentitiesResult } from "../../schema/identity.js"
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
  .add(
    // Read-only: resolving twice gives the same answer and changes nothing, so no Idempotency-Key
    // (spec §4.1 requires it only on the commands it lists; this operation is named in §9, not §4).
    HttpApiEndpoint.post("resolveAgentIdentities", "/api/v1/resolve/agent-identities")
      .setPayload(ResolveAgentIdentitiesRequest)
      .addSuccess(Data(ResolveAgentIdentitiesResult))
      .pipe(
        operation({
          id: "Agents_ResolveAgentIdentities",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 429, 500, 503],
          summary: "Resolve up to 100 chain or registry locators to canonical agent identities (spec §9)",
          description: "Each locator gets UNIQUE, AMBIGUOUS, CONFLICTED, NOT_FOUND or INVALID with machine-readable reasons, " +
            "in request order. Only registry-bound locators identify an agent: an address merely observed " +
            "(funded or transferred) resolves to NOT_FOUND. Read-only; no Idempotency-Key."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getPublicAgentActivity", "/api/v1/agents/:entityPublicId/activity")
      .setPath(Schema.Struct({ entityPublicId: Uuid }))
      .setUrlParams(GetPublicAgentActivityQuery)
      .addSuccess(Page(ActivityItem, 100))
      .pipe(
        operation({
          id: "Agents_GetPublicAgentActivity",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          cost: 2,
          // spec §4.3 lists 200, 400, 404, 500, 503; as for the protocol catalog, a presented API key that is
          // not valid is refused with the one 401 of spec §5.3 (403 without agents:read), so those are declared too
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "An agent's public activity, newest first (cursor pages, filters)",
          description: "The agent's public activity items (spec §2.21), newest first (`occurredAt`, then `publicId`), " +
            "`limit` per page (1-100, default 25). Filters, each a repeated query parameter, combine with AND and " +
            "values of one filter with OR: `sourceKinds` (at most 4 of DOMAIN_EVENT, CHAIN_OBSERVATION, " +
            "PROVIDER_OBSERVATION, PRODUCT_EVIDENCE), `networks` (at most 20 network keys, 1-100 chars; items without a " +
            "network never match), `activityKeys` (at most 20, 1-150 chars). `nextCursor` (max 4096 chars) is signed and " +
            "bound to the agent and the filters: sent with other filters it is a 400 `invalid-cursor`. An unknown agent is a 404.",
          problems: { 404: ["agent-not-found"] }
        })
      )
  )
  .annotate(OpenApi.Description, "Agents: identity, favorites and activity")
{}
