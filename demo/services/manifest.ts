/**
 * The services area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoOffers } from "./seed.js"

/** The services area's demo requests, by operationId. */
export const ServicesManifest = {
  Services_PublishServiceOffer: {
    as: "owner",
    path: { offerId: DemoOffers.starter.id },
    query: {},
    body: { version: DemoOffers.starter.version }
  }
} satisfies Record<string, ManifestOperation>
