/** Protocols area (spec §2.22, §4.3): the protocol catalog. */
import { Schema } from "effect"
import { NonEmptyString } from "./common.js"

/** Protocol catalog item (spec §2.22). */
export const ProtocolCatalogItem = Schema.Struct({
  key: NonEmptyString,
  name: NonEmptyString,
  status: NonEmptyString,
  features: Schema.Array(NonEmptyString)
}).annotations({ identifier: "ProtocolCatalogItem" })
export type ProtocolCatalogItem = typeof ProtocolCatalogItem.Type

/** `data` of Protocols_GetProtocolCatalog. */
export const ProtocolCatalog = Schema.Struct({ protocols: Schema.Array(ProtocolCatalogItem) }).annotations({
  identifier: "ProtocolCatalog"
})
