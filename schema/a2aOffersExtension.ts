/**
 * Our A2A extension listing an agent's PUBLISHED service offers (spec §2.5) on the Agent Card the
 * directory builds for it (Agents_GetAgentCard), so that an A2A client finds what it can buy from the
 * agent, at which price, and where to pay over x402, without a second request.
 *
 * An A2A extension (`capabilities.extensions[]`, A2A §4.4 `AgentExtension`, `required: false`: a
 * client that does not know it ignores it) whose `params.offers` holds, per offer: its id, slug,
 * title and pricing model, its REST URL (Services_GetServiceOffer) and its price in effect now
 * (`prices`: none or one, the agent profile's `currentPrice`), each price with its network and asset
 * ids, `units` (minor units, decimal string) and `x402ResourceUrl` (the x402 resource to pay at,
 * absolute, or null for a price not payable over x402).
 *
 * The URI identifies the extension (its version is the last path segment); it is fixed, not the
 * deployment's origin, so a client recognises it on every directory's cards.
 */
import { Schema } from "effect"

/** The extension's URI (`AgentExtension.uri`). */
export const ServiceOffersExtensionUri = "https://agent-directory.dev/a2a/extensions/service-offers/v1"

/** One price of an offer in the extension. */
export const CardOfferPrice = Schema.Struct({
  networkPublicId: Schema.NullOr(Schema.String),
  assetPublicId: Schema.String,
  units: Schema.String,
  x402ResourceUrl: Schema.NullOr(Schema.String)
}).annotations({ identifier: "CardOfferPrice" })
export type CardOfferPrice = typeof CardOfferPrice.Type

/** One offer in the extension. */
export const CardOffer = Schema.Struct({
  offerId: Schema.String,
  slug: Schema.String,
  title: Schema.String,
  pricingModel: Schema.String,
  url: Schema.String,
  prices: Schema.Array(CardOfferPrice)
}).annotations({ identifier: "CardOffer" })
export type CardOffer = typeof CardOffer.Type

/** The extension entry of a card's `capabilities.extensions` listing `offers`. */
export const serviceOffersExtension = (offers: ReadonlyArray<CardOffer>) => ({
  uri: ServiceOffersExtensionUri,
  description: "The agent's published service offers in the directory, with their current prices and x402 resources.",
  required: false,
  params: { offers }
})

/**
 * The absolute URL of an x402 resource template for offer `offerId`: `{offerId}` replaced, and a
 * path (`/…`) resolved against the directory's public base URL.
 */
export const x402ResourceUrl = (template: string, offerId: string, publicBaseUrl: string): string => {
  const resolved = template.replaceAll("{offerId}", offerId)
  return resolved.startsWith("/") ? `${publicBaseUrl.replace(/\/+$/, "")}${resolved}` : resolved
}
