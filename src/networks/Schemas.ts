/** Wire shapes of the Networks area (`Networks_ListNetworks`). */
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"

/**
 * One configured network (`CHAIN_RPC_URLS`): its `networks` row's id, its CAIP-2 id, the key and
 * family the directory names it by elsewhere (identities, activity), viem's display name, the
 * block explorer's base URL (or null) and the confirmation depth the watcher waits for.
 */
export const NetworkItem = Schema.Struct({
  publicId: Uuid,
  /** CAIP-2: `eip155:8453`. */
  network: Schema.String,
  /** The directory's key of the network (`base`), as identities and activity items name it. */
  key: Schema.String,
  /** `EVM` for `eip155` networks. */
  family: Schema.String,
  displayName: Schema.String,
  /** The block explorer's base URL (`CHAIN_EXPLORER_URLS`, else viem's registry), or null. */
  explorerUrl: Schema.NullOr(Schema.String),
  /** Blocks on top of a transaction's block, itself included, before an intent is CONFIRMED (`CHAIN_CONFIRMATIONS`). */
  confirmations: Schema.Int.pipe(Schema.positive())
}).annotations({ identifier: "NetworkItem" })
export type NetworkItem = typeof NetworkItem.Type
