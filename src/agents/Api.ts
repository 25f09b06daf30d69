/** Agents area contract (spec §4.3, §9): the directory list, agent profiles, favorite agents and identity resolution. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  AgentFacets,
  AgentListItem,
  AgentPath,
  AgentProfile,
  CreateAgentRequest,
  FavoriteAgent,
  ListAgentFacetsQuery,
  ListAgentsQuery,
  ListFavoriteAgentsQuery,
  RetireAgentRequest,
  UpdateAgentRequest
} from "../../schema/agents.js"
import { ActivityItem, GetPublicAgentActivityQuery } from "../../schema/analytics.js"
import { Uuid } from "../../schema/common.js"
import { Data, Page } from "../../schema/envelope.js"
import { ResolveAgentIdentitiesRequest, ResolveAgentIdentitiesResult } from "../../schema/identity.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { operation } from "../api/operation.js"
import { LocationOf } from "../api/location.js"
import {
  AgentCardNotAvailable,
  AgentNotFound,
  Conflict,
  InvalidCursor,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../schema/errors.js"
import { SlugTaken } from "./Errors.js"
import { A2aAgentCardDocument, Erc8004RegistrationDocument } from "./Schemas.js"
import { favoriteAgent, unfavoriteAgent } from "./favorites/Api.js"

/** The profile's canonical path, from a profile envelope (decoded or on the wire). */
const profilePath = (body: unknown): string | undefined => {
  const id = (body as { readonly data?: { readonly entityId?: unknown } } | null)?.data?.entityId
  return typeof id === "string" ? `/api/v1/agents/${id}` : undefined
}

const commandRules = "Needs a session with its CSRF token and an `Idempotency-Key` (a replay answers the first " +
  "result); the caller must be an OWNER, ADMIN or EDITOR of the agent's workspace (other roles: 403 " +
  "`role-required`; an agent of a workspace the caller is not a member of is 404 `agent-not-found`). Refusals come " +
  "in one order: 404, 403, 409 `version-conflict` (`expectedVersion` is not the current `version`), 409 " +
  "`invalid-state` (a RETIRED agent), then 409 `slug-taken`."

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
            "- **`q`** (1-200 characters): a relevance search (docs/search.md) over the agent's search document: name " +
            "and slug, tagline, skill names and tags, description, protocols, skill descriptions, MCP tool names, offer " +
            "titles and MCP tool descriptions, in decreasing weight; accents and case are ignored and words are stemmed " +
            "(English). Every word must match, as a prefix; a word no agent has is widened to its nearest spellings by " +
            "trigram similarity (`wether forcast` finds a weather forecast agent). A query of punctuation only matches nothing. " +
            "When the server has an embeddings model (docs/search.md \"Vector similarity\"), the agents nearest to the " +
            "query's meaning match too, and the relevance blend weighs their vector similarity.\n" +
            "- **`sort`**: `relevance` (the default with `q`: the blend of text rank, trigram similarity and the rank " +
            "score of docs/methodology.md \"Search relevance\", best first; without `q` it orders as `rank`), `rank` (the " +
            "default without `q`: rank ascending, unranked agents last), `name` (A-Z, case-insensitive), " +
            "`newest` (most recently listed first); ties are ordered by the entity UUID, so pages never repeat or skip an agent.\n" +
            "- **Pages**: pass `nextCursor` back as `cursor` with the same filters, `q` and `sort` (and the same API key, or " +
            "none); a cursor altered, or used with another query or caller, is refused with 400 `invalid-cursor`. `limit` may change."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listAgentFacets", "/api/v1/agents/facets")
      .setUrlParams(ListAgentFacetsQuery)
      .addSuccess(Data(AgentFacets))
      .pipe(
        operation({
          id: "Agents_ListAgentFacets",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 500, 503],
          summary: "Facet counts of the agent directory under the list's filters and text query",
          description: "How many listed agents match the filters of Agents_ListAgents (`networks`, `protocols`, " +
            "`verificationStates`, `q`, with the same rules), in `total`, and how many of them have each value of each " +
            "facet: `protocols` (protocol catalog keys), `networks` (network keys, from registry-bound locators), " +
            "`verificationStates`, `skillTags` (the 50 most frequent tags of imported skills, lower case), `hasOffers` " +
            "(`true`: a PUBLISHED service offer) and `sources` (`DIRECTORY` for an agent registered here with no import, " +
            "else the kinds of its SUCCEEDED imports: `A2A_AGENT_CARD`, `MCP_SERVER`, `ERC8004_REGISTRATION`). Each facet " +
            "lists `{value, count}` (count a decimal string) most frequent first, ties by value; an agent with several " +
            "values counts once under each, and a value no matching agent has is absent. The counts are drill-down " +
            "counts: a filter on a facet narrows every facet, its own too. Anonymous, or an API key with `agents:read`."
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
            "none). Agents not (yet) listed in the directory are still reachable here by their UUID.\n\n" +
            "Imported fields (Agents_ImportAgentSource): from the agent's A2A Agent Card its `provider` (null without one), " +
            "`skills` and `interfaces` (the first is preferred); from its ERC-8004 registration file its `endpoints` and " +
            "`identityClaims` (registry tokens by CAIP-2 network, registry contract and token id, `proofState` UNPROVEN " +
            "until proven; a claim is not a `locators` entry); `sources` names the latest SUCCEEDED import of each kind.",
          errors: [AgentNotFound]
        })
      )
  )
  .add(
    // A protocol document: A2A clients fetch the card URL and read the card at
    // the top level, so the success body is the card itself, not the `{data, meta}` envelope
    HttpApiEndpoint.get("getAgentCard", "/api/v1/agents/:entityPublicId/agent-card")
      .setPath(AgentPath)
      .addSuccess(A2aAgentCardDocument)
      .pipe(
        operation({
          id: "Agents_GetAgentCard",
          auth: "public",
          cache: "public-catalog",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "The A2A Agent Card of a listed agent (the card itself, not enveloped)",
          description: "A valid A2A Agent Card (Agent2Agent protocol) for an agent listed in the directory, for A2A " +
            "clients to fetch directly (for example `@a2a-js/sdk`'s card resolver with this URL as the card path).\n\n" +
            "- **Not enveloped**: unlike every other read, the 200 body is the card itself (`application/json`), with " +
            "no `data`/`meta` envelope: an A2A client reads the card's members at the top level and could not read an " +
            "enveloped one. The request id is in `X-Request-Id`.\n" +
            "- **The card the agent published**, when an import (Agents_ImportAgentSource, kind A2A_AGENT_CARD) stored " +
            "one: served byte for byte as it was fetched (A2A 0.3 or 1.0 shape, with any members we do not model), so " +
            "its JWS `signatures` stay verifiable with the agent's key. The directory does not sign or alter it.\n" +
            "- **Otherwise a card built from the profile** (A2A 1.0 shape, no empty required array), only for an " +
            "agent with an A2A interface: `supportedInterfaces` (the A2A interfaces imports recorded, each with its " +
            "`protocolVersion`, \"0.3.0\" when the card gave none), `name`, `description` (else the tagline), " +
            "`version` (the profile's `version`), `documentationUrl` (the agent's canonical URL), `provider`, the " +
            "imported skills then one skill per PUBLISHED service offer (`offer:<slug>`; with neither, one skill " +
            "`agent` describing the agent), `defaultInputModes`/`defaultOutputModes` (the skills' modes, else " +
            "`text/plain` and `application/json`), and the agent's other declared endpoints (ERC-8004 registration " +
            "file) in the extension " +
            "`https://agent-directory.dev/a2a/extensions/non-a2a-interfaces/v1` of `capabilities.extensions` " +
            "(`params.interfaces[]`: `{protocol, url, protocolVersion?}`), and its PUBLISHED service offers in the " +
            "extension `https://agent-directory.dev/a2a/extensions/service-offers/v1` (`params.offers[]`: `{offerId, " +
            "slug, title, pricingModel, url, prices: [{networkPublicId, assetPublicId, units, x402ResourceUrl}]}`, the " +
            "price in effect now and the absolute x402 resource to pay at, or null). No `signatures`.\n" +
            "- **Caching**: a strong `ETag` of the exact body; `If-None-Match` with it answers 304 with no body; " +
            "`Cache-Control: public, max-age=300, stale-while-revalidate=60`.\n\n" +
            "Only listed agents have a card: an unknown, unlisted or RETIRED agent is 404 `agent-not-found` (the " +
            "profile, Agents_GetAgent, stays readable). A listed agent that published no card and has no A2A " +
            "interface is 404 `agent-card-not-available` (an A2A card must list an interface; the directory never " +
            "invents one): its detail links the agent's profile and the endpoints it declared, such as its MCP " +
            "server. Anonymous, or an API key with `agents:read`.",
          errors: [AgentNotFound, AgentCardNotAvailable]
        })
      )
  )
  .add(
    // A protocol document too: the URL is an ERC-8004 token's agentURI, read at the top level (not enveloped)
    HttpApiEndpoint.get("getErc8004Registration", "/api/v1/agents/:entityPublicId/erc8004-registration.json")
      .setPath(AgentPath)
      .addSuccess(Erc8004RegistrationDocument)
      .pipe(
        operation({
          id: "Agents_GetErc8004Registration",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "The agent's ERC-8004 registration file (the file itself, not enveloped)",
          description: "The JSON an ERC-8004 Identity Registry token's `agentURI` points at: a launch run " +
            "(Launch_MaterializeLaunchTransaction) registers the agent with this URL. Not enveloped (the 200 body is " +
            "the file, `application/json`). Members: `type` " +
            "(`https://eips.ethereum.org/EIPS/eip-8004#registration-v1`), `name`, `description` (else the tagline, " +
            "else the name), `services` (`{name, endpoint, version?}`: the A2A Agent Card the directory serves for the " +
            "agent, Agents_GetAgentCard, when it has an A2A interface; then the endpoints the agent declared, such as " +
            "its MCP server), `x402Support` (a PUBLISHED offer's current price has an x402 resource), `active` (the " +
            "agent is not retired), `registrations` (`{agentId, agentRegistry}`: each registry token proven to be the " +
            "agent's, `agentId` the token id, a JSON number when exact, else a decimal string, and `agentRegistry` the " +
            "registry's CAIP-10 id `eip155:<chainId>:<address>`) and `supportedTrust` (`reputation`). The directory " +
            "holds no image of an agent, so `image` is absent. Any agent of the directory has one (unlisted ones " +
            "too); an unknown agent is 404 `agent-not-found`. Anonymous, or an API key with `agents:read`.",
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
  .add(
    HttpApiEndpoint.post("createAgent", "/api/v1/agents")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateAgentRequest)
      .addSuccess(Data(AgentProfile), { status: 201 })
      .annotate(LocationOf, profilePath)
      .pipe(
        operation({
          id: "Agents_CreateAgent",
          permission: "agents.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Register an agent in the directory (UNVERIFIED, listed at once)",
          description: "Registers an agent operated by the workspace `workspaceId` and answers 201 with its profile, " +
            "exactly as Agents_GetAgent shows it, and its URL in `Location`. The agent is ACTIVE, UNVERIFIED, unranked, " +
            "at `version` 1 and listed now (`listedAt`), so Agents_ListAgents shows it immediately.\n\n" +
            "Fields: `name` (1-160 characters, not only white space), `canonicalSlug` (3-64 characters of `a-z`, `0-9` " +
            "and single `-`, starting with a letter and ending with a letter or digit; unique across agents: a taken one " +
            "is 409 `slug-taken`), `tagline` (1-200 or null, default null), `description` (0-10000, default empty), " +
            "`links` (at most 20 `{label 1-100, url: absolute http(s) URL up to 2000}`, default none).\n\n" +
            "Needs a session with its CSRF token and an `Idempotency-Key`; the caller must be an OWNER, ADMIN or EDITOR of " +
            "the workspace (other roles: 403 `role-required`); a workspace the caller is not a member of is 404 " +
            "`workspace-not-found`. Session-only: no API key scope writes agents (spec §5.3).",
          errors: [WorkspaceNotFound, RoleRequired, SlugTaken]
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("updateAgent", "/api/v1/agents/:entityPublicId")
      .setPath(AgentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(UpdateAgentRequest)
      .addSuccess(Data(AgentProfile))
      .pipe(
        operation({
          id: "Agents_UpdateAgent",
          permission: "agents.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Edit an agent's profile fields (partial, optimistic concurrency)",
          description: "Changes the fields present in the body and answers 200 with the profile at `version` + 1, in the " +
            "manner of a JSON merge patch (RFC 7396) sent as `application/json`: an absent field stays as it is, " +
            "`tagline: null` clears the tagline, `links` replaces the whole list. `expectedVersion` is the `version` the " +
            "caller read; at least one other field is required (400 otherwise). Field rules as in Agents_CreateAgent. " +
            commandRules,
          errors: [InvalidRequest, AgentNotFound, RoleRequired, VersionConflict, InvalidState, SlugTaken, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("retireAgent", "/api/v1/agents/:entityPublicId/retire")
      .setPath(AgentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(RetireAgentRequest)
      .addSuccess(Data(AgentProfile))
      .pipe(
        operation({
          id: "Agents_RetireAgent",
          permission: "agents.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Retire an agent: it leaves the directory list; its profile stays, marked RETIRED",
          description: "Moves an ACTIVE agent to RETIRED and answers 200 with its profile (`state: RETIRED`, `retiredAt`, " +
            "`listedAt: null`, `version` + 1). Agents_ListAgents no longer lists it; Agents_GetAgent keeps answering " +
            "200 with that profile (its identities, trust and offers stay as evidence). Retiring is final: there is no " +
            "way back, and a retired agent cannot be edited (409 `invalid-state`). Body: `expectedVersion`. " +
            commandRules.replace(", then 409 `slug-taken`", ""),
          errors: [AgentNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(favoriteAgent)
  .add(unfavoriteAgent)
  .annotate(OpenApi.Description, "Agents: identity, registration, favorites and activity")
{}
