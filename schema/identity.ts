/**
 * Canonical agent identity (spec §9): legacy input lines, locators and resolver results.
 * Shapes are ours (spec §9 names them without showing them).
 */
import { Schema } from "effect"
import { StrictStruct, Uuid } from "./common.js"

/** Identity families of spec §9. */
export const NetworkFamily = Schema.Literal("EVM", "SVM", "DID", "OFFCHAIN")
export type NetworkFamily = typeof NetworkFamily.Type

/**
 * Locator kinds: EVM `REGISTRY_TOKEN` (registry contract + token id) or `ADDRESS`;
 * SVM `ASSET` (scheme + base58 locator); `DID`; off-chain `REGISTRY_KEY`.
 */
export const LocatorKind = Schema.Literal("REGISTRY_TOKEN", "ADDRESS", "ASSET", "DID", "REGISTRY_KEY")
export type LocatorKind = typeof LocatorKind.Type

/** Resolver outcomes (spec §9). AMBIGUOUS and CONFLICTED need review. */
export const ResolutionStatus = Schema.Literal("UNIQUE", "AMBIGUOUS", "CONFLICTED", "NOT_FOUND", "INVALID")
export type ResolutionStatus = typeof ResolutionStatus.Type

/**
 * Maximum lengths (UTF-16 code units, minimum 1) of the text fields of a locator input and a
 * legacy line; the legacy batch's fast pre-check reads them too, so they are stated once.
 */
export const LocatorTextLimits = {
  source: 100,
  legacyAgentId: 200,
  network: 100,
  protocol: 100,
  registry: 200,
  nativeId: 512
} as const

const Text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))
const OptionalText = (max: number) => Schema.optionalWith(Schema.NullOr(Text(max)), { default: () => null })

/**
 * One locator to resolve, as the legacy batch line and the resolve endpoint give it.
 * `network` is a network key, UUID or CAIP-2 chain id (`eip155:8453`; EVM, SVM); `registry` is
 * the EVM registry contract or the off-chain registry; `protocol` is the SVM asset scheme;
 * `nativeId` is the token id, address (or CAIP-10 account id `eip155:8453:0x…`), base58 locator,
 * DID or registry key.
 */
export const LocatorInput = Schema.Struct({
  networkFamily: NetworkFamily,
  network: OptionalText(LocatorTextLimits.network),
  protocol: OptionalText(LocatorTextLimits.protocol),
  locatorKind: LocatorKind,
  registry: OptionalText(LocatorTextLimits.registry),
  nativeId: Schema.Union(Text(LocatorTextLimits.nativeId), Schema.Int.pipe(Schema.nonNegative())).annotations({
    description: "token id, address, base58 locator, DID or registry key"
  })
}).annotations({ identifier: "AgentLocatorInput" })
export type LocatorInput = typeof LocatorInput.Type

/** One line of the legacy-ID batch input (spec §9): a locator plus its legacy source and id. */
export const LegacyLine = Schema.Struct({
  source: Text(LocatorTextLimits.source),
  legacyAgentId: Schema.Union(Text(LocatorTextLimits.legacyAgentId), Schema.Int),
  ...LocatorInput.fields
})
export type LegacyLine = typeof LegacyLine.Type

/** A machine-readable reason: a stable code and, where it concerns one input field, its name. */
export const ResolutionReason = Schema.Struct({
  code: Schema.String,
  field: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ResolutionReason" })
export type ResolutionReason = typeof ResolutionReason.Type

/** A candidate: the identity (locator) public UUID and the agent entity UUID it binds. */
export const ResolutionCandidate = Schema.Struct({
  publicId: Uuid,
  entityId: Uuid
}).annotations({ identifier: "ResolutionCandidate" })
export type ResolutionCandidate = typeof ResolutionCandidate.Type

/**
 * The resolver's answer for one locator. `locator` is the normalised locator (null when
 * INVALID); `candidates` are sorted by entityId (one for UNIQUE, several for AMBIGUOUS or
 * CONFLICTED, none otherwise); `canonicalUrl` is the agent's URL when UNIQUE.
 */
export const Resolution = Schema.Struct({
  status: ResolutionStatus,
  locator: Schema.NullOr(Schema.String),
  candidates: Schema.Array(ResolutionCandidate),
  reasons: Schema.Array(ResolutionReason),
  canonicalUrl: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AgentIdentityResolution" })
export type Resolution = typeof Resolution.Type

/** Body of Agents_ResolveAgentIdentities: 1-100 locators (unknown keys rejected). */
export const ResolveAgentIdentitiesRequest = StrictStruct({
  locators: Schema.Array(StrictStruct(LocatorInput.fields)).pipe(Schema.minItems(1), Schema.maxItems(100))
}).annotations({
  identifier: "ResolveAgentIdentitiesRequest",
  examples: [{
    locators: [{
      networkFamily: "EVM",
      network: "base",
      protocol: "erc-8004",
      locatorKind: "REGISTRY_TOKEN",
      registry: "0x8004a6090Cd10A7288092483047B097295Fb8847",
      nativeId: "1"
    }]
  }]
})

/** Result of Agents_ResolveAgentIdentities: one resolution per locator, in request order. */
export const ResolveAgentIdentitiesResult = Schema.Struct({
  results: Schema.Array(Resolution).pipe(Schema.maxItems(100))
}).annotations({ identifier: "ResolveAgentIdentitiesResult" })
