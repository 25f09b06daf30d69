/** Services area contract (spec §2.5, §3, §4.3): service offers, their prices, terms revisions and states. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data, Page } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import {
  AgentOffersPath,
  CreateServiceOfferRequest,
  CreateTermsRevisionRequest,
  ListAgentOffersQuery,
  OfferPath,
  OfferStateRequest,
  PublishServiceOfferRequest,
  ServiceOffer,
  SetOfferPricesRequest,
  UpdateServiceOfferRequest
} from "./Schemas.js"
import { operation } from "../api/operation.js"
import { LocationOf } from "../api/location.js"
import {
  AgentNotFound,
  ChainRpcUnavailable,
  Conflict,
  InvalidCursor,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict
} from "../../schema/errors.js"
import { OfferIncomplete, OfferNotFound, OfferSlugTaken } from "./Errors.js"

/** The offer's path, from an offer envelope (decoded or on the wire). */
const offerPath = (body: unknown): string | undefined => {
  const id = (body as { readonly data?: { readonly id?: unknown } } | null)?.data?.id
  return typeof id === "string" ? `/api/v1/offers/${id}` : undefined
}

const states = "States (spec §3): DRAFT → PUBLISHED (Services_PublishServiceOffer, also from REVIEW and PAUSED) → " +
  "PAUSED (Services_PauseServiceOffer) → PUBLISHED again; RETIRED (Services_RetireServiceOffer) from any other " +
  "state, final. Every change of an offer adds one to its `version`."

const commandRules = "Needs a session with its CSRF token and an `Idempotency-Key` (a replay answers the first result); " +
  "`version` is the offer `version` the caller read (optimistic concurrency). Refusals come in one order: 404 " +
  "`offer-not-found` (no such offer, or one of a workspace the caller is not an ACTIVE member of), 403 " +
  "`role-required`, 409 `version-conflict`, 409 `invalid-state`, then the command's own."

const fulfillment = "the fulfillment policy (every field optional, with its default): `entitlementCode` (1-64 of " +
  "`A-Z`, `0-9`, `_`; null, the default: the slug upper-cased with `-` as `_`, the code its orders carry), `entitlementDays` (1-3660; null: no end), " +
  "`graceDays` (0-365, default 0), `runtimeAccess` (default false: whether an ACTIVE entitlement lets the buyer's " +
  "workspace converse with and run the agent), `runQuota` (runs per entitlement, 1-1000000000; null: unmetered) and " +
  "`payoutAddress` (the EVM address receiving ONCHAIN and X402 payments, stored in EIP-55 form; a mixed-case " +
  "address must carry a valid checksum; null: none)."

const shape = "The offer (spec §2.5): `prices` lists every price row of the offer, past, current and future, each with " +
  "its window (`effectiveFrom`, `effectiveUntil`) and its set's `version`; `termsRevision` is the latest terms revision; " +
  "`fulfillment` is the policy an order of it is fulfilled under (`entitlementCode` resolved)."

export class ServicesApi extends HttpApiGroup.make("Services")
  .add(
    HttpApiEndpoint.post("createServiceOffer", "/api/v1/offers")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateServiceOfferRequest)
      .addSuccess(Data(ServiceOffer), { status: 201 })
      .annotate(LocationOf, offerPath)
      .pipe(
        operation({
          id: "Services_CreateServiceOffer",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create a service offer (DRAFT) for an agent the caller's workspace operates",
          description: "Creates a DRAFT offer at `version` 1 selling agent `agentId`, and answers 201 with it and its URL " +
            "in `Location`. The agent must be operated by a workspace the caller is an ACTIVE member of (else 404 " +
            "`agent-not-found`) and not RETIRED (409 `invalid-state`); the offer belongs to the agent's service in that " +
            "workspace, created (named after the agent) with its first offer.\n\n" +
            "Fields: `title` (1-200 characters, not only white space), `slug` (3-64 characters of `a-z`, `0-9` and single " +
            "`-`, starting with a letter; unique among the agent's offers, else 409 `offer-slug-taken`), `description` " +
            "(0-10000, default empty), `pricingModel` (FIXED, PER_REQUEST, SUBSCRIPTION or USAGE) and `termsMarkdown` " +
            "(1-20000 characters: terms revision 1), and `fulfillment`, " + fulfillment + " The offer has no price yet " +
            "(Services_SetOfferPrices); `fulfillmentPolicyVersion` starts at 1. " + states,
          errors: [AgentNotFound, RoleRequired, InvalidState, OfferSlugTaken]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getServiceOffer", "/api/v1/offers/:offerId")
      .setPath(OfferPath)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_GetServiceOffer",
          auth: "optional-user",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "A service offer: PUBLISHED ones for anyone, others for members of the seller's workspace",
          description: "A PUBLISHED offer, for anyone (anonymous, an API key with `agents:read`, or a session). An offer " +
            "in any other state only for a session of an ACTIVE member of the workspace selling it; for anyone else it " +
            "is 404 `offer-not-found`, as an unknown id is. " + shape,
          errors: [OfferNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.patch("updateServiceOffer", "/api/v1/offers/:offerId")
      .setPath(OfferPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(UpdateServiceOfferRequest)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_UpdateServiceOffer",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Edit a service offer's fields (partial, optimistic concurrency)",
          description: "Changes the fields present in the body (`title`, `slug`, `description`, `pricingModel`; rules as " +
            "in Services_CreateServiceOffer) of an offer in any state but RETIRED, and answers 200 with the offer at " +
            "`version` + 1. An absent field stays as it is; at least one is required (400 otherwise). A slug another " +
            "offer of the agent has is 409 `offer-slug-taken`. `fulfillment` replaces the whole policy (" + fulfillment +
            ") and adds one to `fulfillmentPolicyVersion` when it differs from the current policy (orders keep the " +
            "policy version they were sold under). " + commandRules,
          errors: [InvalidRequest, OfferNotFound, RoleRequired, VersionConflict, InvalidState, OfferSlugTaken, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.put("setOfferPrices", "/api/v1/offers/:offerId/prices")
      .setPath(OfferPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SetOfferPricesRequest)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_SetOfferPrices",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Set a new versioned price set of a service offer, effective from a given instant",
          description: "Replaces the offer's prices from `effectiveFrom` (default now; never before now) until " +
            "`effectiveUntil` (null, the default: open; else after `effectiveFrom`) with `prices` (1-50, at most one per " +
            "network and asset): each `{networkPublicId (null: an off-chain price), assetPublicId (an asset of that " +
            "network, or the CAIP-19 id of an ERC-20 token on it, `eip155:8453/erc20:0x…`, which becomes an asset on first " +
            "use with the token's `symbol()` and `decimals()` read from the network's RPC endpoint), units (minor units, " +
            "decimal string), x402?, x402ResourceTemplate?}`. The new rows share one " +
            "price `version`, one more than the previous set's. Every earlier price whose window is still open at " +
            "`effectiveFrom` is closed then (one not yet in effect gets an empty window); no price row is otherwise " +
            "changed or deleted, so an order keeps the price it was quoted.\n\n" +
            "**X402 prices**: `x402: true` or an `x402ResourceTemplate` (a path on this directory starting with `/`, or " +
            "an absolute https URL; `{offerId}` stands for the offer's id) makes the price payable over x402; its " +
            "template defaults to `/api/v1/x402/offers/{offerId}/purchase`. An X402 price needs a network. Other prices " +
            "have `x402ResourceTemplate: null`.\n\n" +
            "Answers 200 with the offer at `version` + 1 (every price, old windows included). Offers in any state but " +
            "RETIRED. 400 `invalid-request` names the field and rule (`/prices/1/assetPublicId` \"must be an asset of " +
            "the price's network\", `/effectiveFrom` \"must not be before the current time\"). 503 " +
            "`chain-rpc-unavailable` when a new token's `decimals()` and `symbol()` cannot be read. " + commandRules,
          errors: [InvalidRequest, OfferNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, ChainRpcUnavailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createTermsRevision", "/api/v1/offers/:offerId/terms")
      .setPath(OfferPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateTermsRevisionRequest)
      .addSuccess(Data(ServiceOffer), { status: 201 })
      .pipe(
        operation({
          id: "Services_CreateTermsRevision",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Add a terms revision to a service offer (revision + 1)",
          description: "Appends the next terms revision (`termsMarkdown`, 1-20000 characters; `revision` one more than the " +
            "latest) to an offer in any state but RETIRED and answers 201 with the offer at `version` + 1, whose " +
            "`termsRevision` is the new one. Earlier revisions are kept: orders name the revision they were sold under. " +
            commandRules,
          errors: [OfferNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("publishServiceOffer", "/api/v1/offers/:offerId/publish")
      .setPath(OfferPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(PublishServiceOfferRequest)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_PublishServiceOffer",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Publish a service offer (from DRAFT, REVIEW or PAUSED) at the version the caller saw",
          description: "Moves an offer from DRAFT, REVIEW or PAUSED to PUBLISHED, stamping `publishedAt` and " +
            "incrementing `version`. `version` is the version the caller read (optimistic concurrency). The offer " +
            "needs a current price and a " +
            "terms revision. An offer outside the caller's workspaces is not found.",
          errors: [OfferNotFound, RoleRequired, VersionConflict, InvalidState, OfferIncomplete, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("pauseServiceOffer", "/api/v1/offers/:offerId/pause")
      .setPath(OfferPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(OfferStateRequest)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_PauseServiceOffer",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Pause a PUBLISHED service offer",
          description: "Moves a PUBLISHED offer to PAUSED and answers 200 with it at `version` + 1: it leaves the agent's " +
            "public offers (Services_ListAgentOffers, the profile, its A2A card and the MCP tool `list_agent_offers`) " +
            "and its members still read it; Services_PublishServiceOffer resumes it. " + commandRules + " " + states,
          errors: [OfferNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("retireServiceOffer", "/api/v1/offers/:offerId/retire")
      .setPath(OfferPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(OfferStateRequest)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_RetireServiceOffer",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Retire a service offer for good",
          description: "Moves an offer in any state but RETIRED to RETIRED and answers 200 with it at `version` + 1. " +
            "Retiring is final: a RETIRED offer cannot be edited, priced, published or paused (409 `invalid-state`); " +
            "its prices and terms stay, as orders name them. " + commandRules + " " + states,
          errors: [OfferNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listAgentOffers", "/api/v1/agents/:agentId/offers")
      .setPath(AgentOffersPath)
      .setUrlParams(ListAgentOffersQuery)
      .addSuccess(Page(ServiceOffer, 100))
      .pipe(
        operation({
          id: "Services_ListAgentOffers",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "An agent's PUBLISHED service offers with their current prices (cursor pages)",
          description: "The PUBLISHED offers of agent `agentId`, newest publication first (`publishedAt`, then `id`), " +
            "`limit` per page (1-100, default 25), each with only the prices in effect now in `prices` (an X402 price " +
            "names its `x402ResourceTemplate`). `nextCursor` is signed and bound to the agent: pass it back as `cursor`; " +
            "an altered cursor, or one of another agent, is 400 `invalid-cursor`. An unknown agent is 404 " +
            "`agent-not-found`; an agent with no published offer has an empty list. Anonymous, or an API key with " +
            "`agents:read`; the MCP tool `list_agent_offers` answers the same.",
          errors: [AgentNotFound, InvalidCursor]
        })
      )
  )
  .annotate(OpenApi.Description, "Services: service offers, their prices, terms and states")
{}
