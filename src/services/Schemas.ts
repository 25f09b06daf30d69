/** Services area (spec §2.5, §4.3): service offers and their publication. */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid, Version } from "../../schema/common.js"
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
