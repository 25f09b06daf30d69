/** Agents area contract (spec §4.3, §9): the directory list, agent profiles, favorite agents and identity resolution. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AgentListItem, AgentPath, AgentProfile, FavoriteAgent, ListAgentsQuery, ListFavoriteAgentsQuery } from "../../schema/agents.js"
import { ActivityItem, GetPublicAgentActivityQuery } from "../../schema/analytics.js"
import { Uuid } from "../../schema/common.js"
import { Data, Page } from "../../schema/envelope.js"
import { ResolveAgentIdentitiesRequest, ResolveAgentIdentitiesResult } from "../../schema/identity.js"
import { operation } from "../api/operation.js"
import { AgentNotFound, InvalidCursor } from "../../schema/errors.js"

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
          errors: [InvalidCursor],
          summary: "List the caller's favorite agents (cursor pages)",
          description: "The agents the caller marked as favorites, most recent first, `limit` per page (1-100, " +
            "default 25). Pass `nextCursor` back as `cursor` for the next page; it is bound to this query and caller."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listAgents", "/api/v1/agents")
      .setUrlParams(ListAgentsQuery)
      .addSuccess(Page(AgentListItem, 100))
      .pipe(
        operation({
          id: "Agents_ListAgents",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 500, 503],
          errors: [InvalidCursor],
          summary: "List the agent directory with typed filters, a text query and signed cursors (spec §9)",
          description: "The listed agents of the directory, `limit` per page (1-100, default 25).\n\n" +
            "- **Filters** (repeat a parameter for several values: `?networks=base&networks=solana`): `networks` (network keys or CAIP-2 chain ids such as `eip155:8453`, " +
            "max 20; an agent is on a network through a registry-bound locator there, never through an address it merely " +
            "funded or received from), `protocols` (protocol catalog keys, max 20), `verificationStates` (max 6). Values of " +
            "one filter are alternatives; different filters must all hold.\n" +
            "- **`q`** (1-200 characters): matched literally and case-insensitively inside the name, tagline or canonical slug.\n" +
            "- **`sort`**: `rank` (default: rank ascending, unranked agents last), `name` (A-Z, case-insensitive), " +
            "`newest` (most recently listed first); ties are ordered by the entity UUID, so pages never repeat or skip an agent.\n" +
            "- **Pages**: pass `nextCursor` back as `cursor` with the same filters, `q` and `sort` (and the same API key, or " +
            "none); a cursor altered, or used with another query or caller, is refused with 400 `invalid-cursor`. `limit` may change."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAgent", "/api/v1/agents/:entityPublicId")
      .setPath(AgentPath)
      .addSuccess(Data(AgentProfile))
      .pipe(
        operation({
          id: "Agents_GetAgent",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "The canonical profile of an agent (spec §9)",
          description: "Identity (`entityId` = `publicId`, `canonicalSlug`, `canonicalUrl` under `PUBLIC_BASE_URL`), " +
            "the directory fields, networks and protocols, the registry-bound `locators` (addresses merely observed " +
            "funding or receiving from the agent are not identity and are not shown), the `trust` summary (mean rating in " +
            "ppm, counts and `latestFeedbackAt`, from PUBLISHED feedback only: withdrawn, hidden and pending feedback never " +
            "counts) and the agent's PUBLISHED service `offers`, each with the price in effect now (`currentPrice`, null if " +
            "none). Agents not (yet) listed in the directory are still reachable here by their UUID.",
          errors: [AgentNotFound]
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
            "(funded or transferred) resolves to NOT_FOUND. `network` is a network key, UUID or CAIP-2 chain id " +
            "(`eip155:8453`; a malformed CAIP-2 id is NETWORK_MALFORMED, an unknown one NETWORK_UNKNOWN); an EVM " +
            "address may be a CAIP-10 account id (`eip155:8453:0x…`, then `network` may be null). Read-only; no Idempotency-Key."
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
            "PROVIDER_OBSERVATION, PRODUCT_EVIDENCE), `networks` (at most 20 network keys or CAIP-2 chain ids, 1-100 chars; items without a " +
            "network never match), `activityKeys` (at most 20, 1-150 chars). `nextCursor` (max 4096 chars) is signed and " +
            "bound to the agent and the filters: sent with other filters it is a 400 `invalid-cursor`. An unknown agent is a 404.",
          errors: [AgentNotFound, InvalidCursor]
        })
      )
  )
  .annotate(OpenApi.Description, "Agents: identity, favorites and activity")
{}
