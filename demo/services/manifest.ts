/**
 * The services area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts). They run in this order on one database:
 * the starter offer is published, then paused.
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoAgents } from "../agents/seed.js"
import { DemoAssets, DemoNetworks } from "../common.js"
import { DemoOffers } from "./seed.js"

/** The services area's demo requests, by operationId. */
export const ServicesManifest = {
  Services_CreateServiceOffer: {
    as: "owner",
    path: {},
    query: {},
    body: {
      agentId: DemoAgents[0].id,
      title: "Literature watch",
      slug: "literature-watch",
      description: "Atlas watches new papers on one topic and sends a weekly digest.",
      pricingModel: "SUBSCRIPTION",
      termsMarkdown: "# Terms of Literature watch\n\nBest effort; refunds within 7 days."
    },
    note: "Acme's owner offers Atlas Research's literature watch (Beacon is retired by the agents examples): a DRAFT with terms revision 1 and no price yet."
  },
  Services_GetServiceOffer: {
    as: "anonymous",
    path: { offerId: DemoOffers.published.id },
    query: {},
    body: null,
    note: "The PUBLISHED Pro research plan of Atlas Research, as anyone reads it."
  },
  Services_UpdateServiceOffer: {
    as: "owner",
    path: { offerId: DemoOffers.spare.id },
    query: {},
    body: { version: DemoOffers.spare.version, title: "Trial research plan (7 days)", pricingModel: "FIXED" }
  },
  Services_SetOfferPrices: {
    as: "owner",
    path: { offerId: DemoOffers.review.id },
    query: {},
    body: {
      version: DemoOffers.review.version,
      prices: [{ networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "12000000", x402: true }]
    },
    note: "A new price set for the Team research plan: 12 USDC on Base, payable over x402 at the default resource."
  },
  Services_CreateTermsRevision: {
    as: "owner",
    path: { offerId: DemoOffers.unpriced.id },
    query: {},
    body: {
      version: DemoOffers.unpriced.version,
      termsMarkdown: "# Terms of the Enterprise research plan\n\nDelivered within 5 business days; refunds within 14 days."
    }
  },
  Services_PublishServiceOffer: {
    as: "owner",
    path: { offerId: DemoOffers.starter.id },
    query: {},
    body: { version: DemoOffers.starter.version }
  },
  Services_PauseServiceOffer: {
    as: "owner",
    path: { offerId: DemoOffers.starter.id },
    query: {},
    body: { version: DemoOffers.starter.version + 1 },
    note: "Pauses the starter offer the publish example just published."
  },
  Services_RetireServiceOffer: {
    as: "owner",
    path: { offerId: DemoOffers.paused.id },
    query: {},
    body: { version: DemoOffers.paused.version },
    note: "Retires the PAUSED Legacy research plan for good."
  },
  Services_ListAgentOffers: {
    as: "anonymous",
    path: { agentId: DemoAgents[0].id },
    query: { limit: 10 },
    body: null
  }
} satisfies Record<string, ManifestOperation>
