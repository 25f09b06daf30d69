/** Services area (spec §2.5, §4.3): service offers, their prices, terms revisions and states. */
import { Schema } from "effect"
import { isAddress } from "viem"
import { CanonicalSlug } from "../../schema/agents.js"
import { DateTimeZ, QueryInt, rule, StrictStruct, Units, Uuid, Version, WireString } from "../../schema/common.js"
import { ServiceOfferPrice } from "../../schema/services.js"

export { ServiceOfferPrice }

/** Service offer states (spec §3). */
export const ServiceOfferState = Schema.Literal("DRAFT", "REVIEW", "PUBLISHED", "PAUSED", "SUSPENDED", "RETIRED")
export type ServiceOfferState = typeof ServiceOfferState.Type

/** The terms revision an offer is sold under. */
export const TermsRevision = Schema.Struct({
  id: Uuid,
  revision: Schema.Int.pipe(Schema.positive()),
  termsMarkdown: Schema.String,
  createdAt: DateTimeZ
}).annotations({ identifier: "TermsRevision" })

/**
 * An offer's fulfillment policy (ours; its changes bump `fulfillmentPolicyVersion`): the entitlement a
 * paid order grants (`entitlementCode`: the slug upper-cased unless set), for `entitlementDays` days
 * (null: no end) plus `graceDays`, whether it lets the buyer's workspace converse with and run the
 * seller's agent (`runtimeAccess`) and how many runs per entitlement (`runQuota`, null: unmetered), and
 * the EVM address receiving ONCHAIN and X402 payments (`payoutAddress`, EIP-55, or null).
 */
export const Fulfillment = Schema.Struct({
  entitlementCode: Schema.String,
  entitlementDays: Schema.NullOr(Schema.Int),
  graceDays: Schema.Int,
  runtimeAccess: Schema.Boolean,
  runQuota: Schema.NullOr(Schema.Int),
  payoutAddress: Schema.NullOr(Schema.String)
}).annotations({ identifier: "OfferFulfillment" })
export type Fulfillment = typeof Fulfillment.Type

/** Service offer (spec §2.5), with its fulfillment policy. */
export const ServiceOffer = Schema.Struct({
  id: Uuid,
  serviceId: Uuid,
  state: ServiceOfferState,
  version: Version,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.String,
  pricingModel: Schema.String,
  fulfillmentPolicyVersion: Schema.Int,
  termsRevision: TermsRevision,
  publishedAt: Schema.NullOr(DateTimeZ),
  prices: Schema.Array(ServiceOfferPrice),
  fulfillment: Fulfillment
}).annotations({ identifier: "ServiceOffer" })
export type ServiceOffer = typeof ServiceOffer.Type

/** Body of Services_PublishServiceOffer (spec §4.3): the version the caller last saw. */
export const PublishServiceOfferRequest = StrictStruct({ version: Version }).annotations({
  identifier: "PublishServiceOfferRequest"
})

/** Path of the commands and read of one offer. */
export const OfferPath = Schema.Struct({ offerId: Uuid })

/** How an offer is priced: one fixed price per order, per request (x402), a subscription, or by usage. */
export const PricingModel = Schema.Literal("FIXED", "PER_REQUEST", "SUBSCRIPTION", "USAGE").annotations({
  ...rule("must be one of FIXED, PER_REQUEST, SUBSCRIPTION, USAGE"),
  identifier: "PricingModel"
})

const OfferTitle = WireString(1, 200).pipe(
  Schema.filter((s) => s.trim().length > 0),
  Schema.annotations(rule("must be a string of 1-200 characters, not only white space, without U+0000"))
)

/** The editable fields of an offer, as requests carry them. */
const editable = {
  title: OfferTitle,
  slug: CanonicalSlug,
  description: WireString(0, 10000),
  pricingModel: PricingModel
}

/** An EVM address: `0x` and 40 hex digits, all lower-case, all upper-case or with a valid EIP-55 checksum. */
const PayoutAddress = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{40}$/),
  Schema.filter((s) => isAddress(s, { strict: true }) || s.slice(2) === s.slice(2).toLowerCase() || s.slice(2) === s.slice(2).toUpperCase()),
  Schema.annotations({
    ...rule("must be an EVM address (0x and 40 hex digits) with a valid EIP-55 checksum if mixed-case"),
    description: "EVM address, 0x and 40 hex digits (EIP-55 checksum if mixed-case)"
  })
)

const intRule = (min: number, max: number) =>
  Schema.Int.pipe(Schema.between(min, max), Schema.annotations(rule(`must be an integer ${min}-${max}`)))

/**
 * The fulfillment policy as requests carry it (see {@link Fulfillment}); an absent field takes its
 * default: `entitlementCode` null (the slug upper-cased; else 1-64 of `A-Z`, `0-9`, `_`),
 * `entitlementDays` null (no end; else 1-3660), `graceDays` 0 (0-365), `runtimeAccess` false,
 * `runQuota` null (unmetered; else 1-1000000000), `payoutAddress` null.
 */
export const FulfillmentInput = StrictStruct({
  entitlementCode: Schema.optionalWith(
    Schema.NullOr(Schema.String.pipe(
      Schema.pattern(/^[A-Z0-9_]{1,64}$/),
      Schema.annotations(rule("must be 1-64 characters of A-Z, 0-9 and _, or null"))
    )),
    { default: () => null, exact: true }
  ),
  entitlementDays: Schema.optionalWith(Schema.NullOr(intRule(1, 3660)), { default: () => null, exact: true }),
  graceDays: Schema.optionalWith(intRule(0, 365), { default: () => 0, exact: true }),
  runtimeAccess: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true }),
  runQuota: Schema.optionalWith(Schema.NullOr(intRule(1, 1_000_000_000)), { default: () => null, exact: true }),
  payoutAddress: Schema.optionalWith(Schema.NullOr(PayoutAddress), { default: () => null, exact: true })
}).annotations({ identifier: "OfferFulfillmentInput" })
export type FulfillmentInput = typeof FulfillmentInput.Type

/** Terms in markdown: 1-20000 characters. */
const TermsMarkdown = WireString(1, 20000)

/**
 * Body of Services_CreateServiceOffer: the agent it sells (`agentId`, operated by a workspace of the
 * caller's), `title` (1-200), `slug` (unique among the agent's offers), `description` (0-10000, default
 * empty), `pricingModel`, the first terms revision (`termsMarkdown`, 1-20000 characters) and the
 * fulfillment policy (`fulfillment`, default: every field's default).
 */
export const CreateServiceOfferRequest = StrictStruct({
  agentId: Uuid,
  title: editable.title,
  slug: editable.slug,
  description: Schema.optionalWith(editable.description, { default: () => "", exact: true }),
  pricingModel: editable.pricingModel,
  termsMarkdown: TermsMarkdown,
  fulfillment: Schema.optionalWith(FulfillmentInput, {
    default: (): FulfillmentInput => ({
      entitlementCode: null,
      entitlementDays: null,
      graceDays: 0,
      runtimeAccess: false,
      runQuota: null,
      payoutAddress: null
    }),
    exact: true
  })
}).annotations({ identifier: "CreateServiceOfferRequest" })
export type CreateServiceOfferRequest = typeof CreateServiceOfferRequest.Type

/**
 * Body of Services_UpdateServiceOffer (merge-patch-like): `version` and the fields to change; an
 * absent field stays as it is; `fulfillment` replaces the whole policy. At least one field besides `version`.
 */
export const UpdateServiceOfferRequest = StrictStruct({
  version: Version,
  title: Schema.optionalWith(editable.title, { exact: true }),
  slug: Schema.optionalWith(editable.slug, { exact: true }),
  description: Schema.optionalWith(editable.description, { exact: true }),
  pricingModel: Schema.optionalWith(editable.pricingModel, { exact: true }),
  fulfillment: Schema.optionalWith(FulfillmentInput, { exact: true })
}).annotations({ identifier: "UpdateServiceOfferRequest" })
export type UpdateServiceOfferRequest = typeof UpdateServiceOfferRequest.Type

/** The default x402 resource of an offer's X402 prices (`{offerId}` is replaced by the offer's id). */
export const DefaultX402ResourceTemplate = "/api/v1/x402/offers/{offerId}/purchase"

/** An x402 resource template: a path on this directory (`/…`) or an absolute https URL, up to 2000 characters. */
export const X402ResourceTemplate = Schema.String.pipe(
  Schema.maxLength(2000),
  Schema.pattern(/^(?:\/|https:\/\/)[^\s\u0000]*$/),
  Schema.annotations({
    ...rule("must be a path starting with / or an absolute https URL, at most 2000 characters without white space"),
    description: "path starting with / or an absolute https URL (at most 2000 characters); `{offerId}` is replaced"
  })
)

/** The CAIP-19 id of an ERC-20 token (`eip155:8453/erc20:0x…`): its network's CAIP-2 id and the token's address. */
export const Erc20AssetPattern = /^(eip155:[0-9]{1,32})\/erc20:(0x[0-9a-fA-F]{40})$/

/**
 * The asset of a price: an asset's id (uuid), or the CAIP-19 id of an ERC-20 token
 * (`eip155:<chain id>/erc20:<address>`, CAIP-19), which the directory adds as an asset on first use.
 */
export const OfferPriceAsset = Schema.Union(
  Uuid,
  Schema.String.pipe(Schema.pattern(Erc20AssetPattern), Schema.annotations({ description: "CAIP-19 id of an ERC-20 token" }))
).annotations({
  ...rule("must be a uuid or the CAIP-19 id of an ERC-20 token (eip155:<chain id>/erc20:<address>)"),
  description: "an asset's id (uuid), or the CAIP-19 id of an ERC-20 token (`eip155:8453/erc20:0x…`), added as an asset on first use"
})

/**
 * One price of a new set: an amount (`units`, minor units of `assetPublicId`, decimal string) on a
 * network (`networkPublicId`, null for an off-chain price); `assetPublicId` is an asset's id or the
 * CAIP-19 id of an ERC-20 token of the price's network ({@link OfferPriceAsset}); `x402: true` or an
 * `x402ResourceTemplate` makes it an X402 price (which needs a network), its template defaulting to
 * {@link DefaultX402ResourceTemplate}.
 */
export const OfferPriceInput = StrictStruct({
  networkPublicId: Schema.NullOr(Uuid),
  assetPublicId: OfferPriceAsset,
  units: Units,
  x402: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true }),
  x402ResourceTemplate: Schema.optionalWith(X402ResourceTemplate, { exact: true })
}).annotations({ identifier: "OfferPriceInput" })
export type OfferPriceInput = typeof OfferPriceInput.Type

/**
 * Body of Services_SetOfferPrices: the offer `version` the caller read and the new set of prices
 * (1-50, one per network and asset), effective from `effectiveFrom` (default now, never before now)
 * until `effectiveUntil` (null: open; after `effectiveFrom`).
 */
export const SetOfferPricesRequest = StrictStruct({
  version: Version,
  effectiveFrom: Schema.optionalWith(DateTimeZ.annotations(rule("must be an ISO 8601 UTC date-time ending in Z")), { exact: true }),
  effectiveUntil: Schema.optionalWith(
    Schema.NullOr(DateTimeZ.annotations(rule("must be an ISO 8601 UTC date-time ending in Z, or null"))),
    { default: () => null, exact: true }
  ),
  prices: Schema.Array(OfferPriceInput).pipe(
    Schema.minItems(1, { message: () => "must hold 1-50 prices" }),
    Schema.maxItems(50, { message: () => "must hold 1-50 prices" })
  )
}).annotations({ identifier: "SetOfferPricesRequest" })
export type SetOfferPricesRequest = typeof SetOfferPricesRequest.Type

/** Body of Services_CreateTermsRevision: the offer `version` the caller read and the new terms (1-20000 characters). */
export const CreateTermsRevisionRequest = StrictStruct({
  version: Version,
  termsMarkdown: TermsMarkdown
}).annotations({ identifier: "CreateTermsRevisionRequest" })

/** Body of Services_PauseServiceOffer and Services_RetireServiceOffer: the version the caller read. */
export const OfferStateRequest = StrictStruct({ version: Version }).annotations({ identifier: "OfferStateRequest" })

/** Path of Services_ListAgentOffers. */
export const AgentOffersPath = Schema.Struct({ agentId: Uuid })

/** Query of Services_ListAgentOffers: `limit` 1-100 (default 25), `cursor` (signed, from `nextCursor`). */
export const ListAgentOffersQuery = Schema.Struct({
  cursor: Schema.optionalWith(WireString(1, 4096), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 })
})
export type ListAgentOffersQuery = typeof ListAgentOffersQuery.Type
