/**
 * What several areas share of the services area (spec §2.5): an offer's price, which the
 * agents area's offer summaries also carry. The offer itself is the services area's
 * (`src/services/Schemas.ts`).
 */
import { Schema } from "effect"
import { DateTimeZ, Units, Uuid } from "./common.js"

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
