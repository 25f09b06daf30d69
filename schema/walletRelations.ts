/**
 * Wallet-agent relations (spec §9: "public wallet-agent relation API with
 * explicit relation and proof"): the shapes of Wallets_ListAgentWallets and
 * Wallets_ListWalletAgents (src/wallets/relations/Api.ts). Shapes are ours (the spec names
 * the API, not its fields); `network` is the wallet profile's network shape (spec §2.14) plus its
 * CAIP-2 chain id.
 */
import { Schema } from "effect"
import { NetworkFamily } from "./identity.js"
import { VerificationState } from "./agents.js"
import { DateTimeZ, QueryInt, Uuid, WireString } from "./common.js"

/**
 * What a wallet is to an agent, as its prover declared it: OWNER (controls the agent), OPERATOR
 * (acts for it), PAYOUT (receives its earnings), TREASURY (holds its funds).
 */
export const WalletRelation = Schema.Literal("OWNER", "OPERATOR", "PAYOUT", "TREASURY").annotations({
  identifier: "WalletRelation"
})
export type WalletRelation = typeof WalletRelation.Type

/**
 * How a relation was proven: SIGNATURE (the address signed an identity challenge naming the
 * relation), REGISTRY (the address is `ownerOf` the agent's registry token, ERC-721/ERC-8004),
 * ATTESTATION (a third party's attestation; declared, not produced yet).
 */
export const WalletRelationProofKind = Schema.Literal("SIGNATURE", "REGISTRY", "ATTESTATION").annotations({
  identifier: "WalletRelationProofKind"
})

/**
 * The proof of a relation: its `kind`; `reference` (SIGNATURE: the public id of the proven
 * identity, as on the agent's profile `locators[].publicId`; REGISTRY: the token as a CAIP-19
 * asset id `eip155:<chain>/erc721:<registry>/<tokenId>`); `verifiedAt`, when it was checked.
 */
export const WalletRelationProof = Schema.Struct({
  kind: WalletRelationProofKind,
  reference: Schema.String,
  verifiedAt: DateTimeZ
}).annotations({ identifier: "WalletRelationProof" })

/** A network as relations name it: the wallet profile's network shape (spec §2.14) and its CAIP-2 id (null if it has none). */
export const WalletRelationNetwork = Schema.Struct({
  publicId: Uuid,
  key: Schema.String,
  family: NetworkFamily,
  displayName: Schema.String,
  caip2: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WalletRelationNetwork" })

/**
 * One wallet of an agent (Wallets_ListAgentWallets): `walletPublicId` is the id of the
 * directory's wallet row for this network and address (null when no account holds one), the
 * `address` (EVM in EIP-55 form) and its CAIP-10 account id `caip10` (`<caip2>:<address>`, null when
 * the network has no CAIP-2 id), the `relation` and its `proof`.
 */
export const AgentWallet = Schema.Struct({
  walletPublicId: Schema.NullOr(Uuid),
  network: WalletRelationNetwork,
  address: Schema.String,
  caip10: Schema.NullOr(Schema.String),
  relation: WalletRelation,
  proof: WalletRelationProof
}).annotations({ identifier: "AgentWallet" })
export type AgentWallet = typeof AgentWallet.Type

/** The agent of a relation, as lists name agents. */
export const RelatedAgent = Schema.Struct({
  publicId: Uuid,
  canonicalSlug: Schema.String,
  name: Schema.String,
  verificationState: VerificationState
}).annotations({ identifier: "RelatedAgent" })

/** One agent of a wallet (Wallets_ListWalletAgents): the agent, the `relation` and its `proof`. */
export const WalletAgent = Schema.Struct({
  agent: RelatedAgent,
  relation: WalletRelation,
  proof: WalletRelationProof
}).annotations({ identifier: "WalletAgent" })
export type WalletAgent = typeof WalletAgent.Type

/** Path of Wallets_ListWalletAgents. */
export const WalletPath = Schema.Struct({ walletPublicId: Uuid })

/** Query of both relation lists: `cursor` (signed, from the previous page) and `limit` 1-100 (default 25). */
export const WalletRelationsQuery = Schema.Struct({
  cursor: Schema.optionalWith(WireString(1, 4096), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 })
})
