/**
 * The commerce/webhooks area: the PROCESSOR payment rail's receiver of payment processors'
 * signed events (its migration is the commerce area's 0046). Listed in `src/areas.ts`.
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { CommerceWebhooksHttpLive } from "./Http.js"
import { ProcessorWebhooks } from "./ProcessorWebhooks.js"

/** The commerce/webhooks area's handlers (see `src/Area.ts`). */
export const CommerceWebhooksArea = {
  name: "commerce/webhooks",
  http: CommerceWebhooksHttpLive.pipe(Layer.provide([ProcessorWebhooks.Default]))
} satisfies Area
