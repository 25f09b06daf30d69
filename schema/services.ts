/** Services area (spec §2.5, §4.3): service offers and their publication. */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Units, Uuid, Version } from "./common.js"

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

/** One price of an offer; `units` is an amount of `assetPublicId` in minor units. */
export const ServiceOfferPrice = Schema.Struct({
  id: Uuid,
  version: Schema.Int,
  networkPublicId: Schema.NullOr(Uuid),
  assetPublicId: Uuid,
  units: Units,
  effectiveFrom: DateTimeZ,
  effectiveUntil: Schema.NullOr(DateTimeZ),
  x402ResourceTemplate: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ServiceOfferPrice" })

/** Service offer (spec §2.5). */
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
  prices: Schema.Array(ServiceOfferPrice)
}).annotations({ identifier: "ServiceOffer" })
export type ServiceOffer = typeof ServiceOffer.Type

/** Body of Services_PublishServiceOffer (spec §4.3): the version the caller last saw. */
export const PublishServiceOfferRequest = StrictStruct({ version: Version }).annotations({
  identifier: "PublishServiceOfferRequest"
})
