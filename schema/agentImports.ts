/**
 * Contract types of agent imports (our extension of the Agents tag):
 * the import record of Agents_ImportAgentSource / Agents_GetAgentImport, its request
 * body, and what an import adds to the agent profile (Agents_GetAgent): the A2A Agent
 * Card's skills, interfaces and provider, an ERC-8004 registration file's endpoints and
 * its registrations as unproven identity claims, and the sources they came from.
 */
import { Schema } from "effect"
import { DateTimeZ, HttpUrl, StrictStruct, Uuid } from "./common.js"

/**
 * What an import reads: an A2A Agent Card (the A2A protocol's `/.well-known/agent-card.json`),
 * an MCP server (its `initialize` and lists), or an ERC-8004 registration file.
 */
export const AgentImportKind = Schema.Literal("A2A_AGENT_CARD", "MCP_SERVER", "ERC8004_REGISTRATION").annotations({
  identifier: "AgentImportKind"
})
export type AgentImportKind = typeof AgentImportKind.Type

/** QUEUED (recorded, not started) → RUNNING → SUCCEEDED or FAILED (with `reasons`). */
export const AgentImportState = Schema.Literal("QUEUED", "RUNNING", "SUCCEEDED", "FAILED").annotations({
  identifier: "AgentImportState"
})
export type AgentImportState = typeof AgentImportState.Type

/**
 * Why an import failed: `code` is `target-refused` (the outbound rules refuse the URL or a
 * redirect), `http-<status>`, `not-json`, `schema` (the document breaks its format's
 * schema: `detail` is the rule, `pointer` the JSON pointer (RFC 6901) into the document),
 * `timeout`, `response-too-large`, `network-error` or `not-yet-supported`.
 */
export const AgentImportReason = Schema.Struct({
  code: Schema.String,
  detail: Schema.String,
  pointer: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AgentImportReason" })
export type AgentImportReason = typeof AgentImportReason.Type

/**
 * The outcome of verifying an A2A Agent Card's JWS `signatures` (docs/findings.md §Card
 * signatures): UNSIGNED (none), VERIFIED (one verifies over the card's RFC 8785 form with the key
 * of its protected header's `jku` or `jwk`), INVALID (none verifies).
 */
export const CardSignatureState = Schema.Literal("VERIFIED", "INVALID", "UNSIGNED")
  .annotations({ identifier: "CardSignatureState" })

/**
 * What a SUCCEEDED import stored (counts of each part; zero where the kind has none):
 * skills and interfaces of a card, endpoints and claims of a registration file, tools of an MCP server.
 * A card's import also states `signatureState` and the signer's key id `signatureKid` (null when
 * the header names none); other kinds omit both.
 */
export const AgentImportResult = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  skills: Schema.Int,
  interfaces: Schema.Int,
  endpoints: Schema.Int,
  identityClaims: Schema.Int,
  signatures: Schema.Int,
  tools: Schema.Int,
  signatureState: Schema.optionalWith(CardSignatureState, { exact: true }),
  signatureKid: Schema.optionalWith(Schema.NullOr(Schema.String), { exact: true })
}).annotations({ identifier: "AgentImportResult" })
export type AgentImportResult = typeof AgentImportResult.Type

/** An import of a public description into an agent (Agents_ImportAgentSource). */
export const AgentImport = Schema.Struct({
  id: Uuid,
  entityPublicId: Uuid,
  kind: AgentImportKind,
  url: Schema.String,
  state: AgentImportState,
  reasons: Schema.Array(AgentImportReason),
  result: Schema.NullOr(AgentImportResult),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ,
  startedAt: Schema.NullOr(DateTimeZ),
  finishedAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "AgentImport" })
export type AgentImport = typeof AgentImport.Type

/** Body of Agents_ImportAgentSource: what to read, and where (http or https, at most 2048 characters). */
export const ImportAgentSourceRequest = StrictStruct({
  kind: AgentImportKind,
  url: HttpUrl(2048)
}).annotations({ identifier: "ImportAgentSourceRequest" })
export type ImportAgentSourceRequest = typeof ImportAgentSourceRequest.Type

/** A skill of the agent, from its A2A Agent Card (A2A `AgentSkill`). */
export const AgentProfileSkill = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  examples: Schema.Array(Schema.String),
  inputModes: Schema.Array(Schema.String),
  outputModes: Schema.Array(Schema.String)
}).annotations({ identifier: "AgentProfileSkill" })

/**
 * An interface the agent is reached at, from its A2A Agent Card: the card's
 * `supportedInterfaces` (A2A 1.0) or its `url` + `preferredTransport` and
 * `additionalInterfaces` (A2A 0.3), in the card's order (the first is preferred).
 */
export const AgentProfileInterface = Schema.Struct({
  url: Schema.String,
  protocolBinding: Schema.String,
  protocolVersion: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AgentProfileInterface" })

/** The agent's service provider, from its A2A Agent Card (A2A `AgentProvider`). */
export const AgentProfileProvider = Schema.Struct({
  organization: Schema.String,
  url: Schema.String
}).annotations({ identifier: "AgentProfileProvider" })

/** An endpoint of the agent, from its ERC-8004 registration file (`endpoints[]`). */
export const AgentProfileEndpoint = Schema.Struct({
  name: Schema.String,
  endpoint: Schema.String,
  version: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AgentProfileEndpoint" })

/** Proof state of an identity claim: UNPROVEN until the agent proves control of it. */
export const IdentityClaimProofState = Schema.Literal("UNPROVEN", "PROVEN")

/**
 * An identity the agent claims without proof yet: a registration of its ERC-8004 file
 * (an ERC-721 token `nativeId` of registry contract `registry` on `network`, a CAIP-2 id
 * such as `eip155:8453`). It does not identify the agent (the resolver and `locators`
 * ignore it) until proven.
 */
export const AgentIdentityClaim = Schema.Struct({
  publicId: Uuid,
  networkFamily: Schema.Literal("EVM"),
  locatorKind: Schema.Literal("REGISTRY_TOKEN"),
  network: Schema.String,
  registry: Schema.String,
  nativeId: Schema.String,
  proofState: IdentityClaimProofState
}).annotations({ identifier: "AgentIdentityClaim" })

/** A description the agent's profile was imported from: the latest SUCCEEDED import of each kind. */
export const AgentProfileSource = Schema.Struct({
  kind: AgentImportKind,
  url: Schema.String,
  importId: Uuid,
  importedAt: DateTimeZ
}).annotations({ identifier: "AgentProfileSource" })

/**
 * The fields imports add to the agent profile (empty, or null, for an agent never imported).
 * `signatureState` / `signatureKid`: the verification of its imported A2A Agent Card's
 * signatures and the signer's key id (null without an imported card, or a card imported before
 * verification existed).
 */
export const AgentProfileImportedFields = {
  provider: Schema.NullOr(AgentProfileProvider),
  signatureState: Schema.NullOr(CardSignatureState),
  signatureKid: Schema.NullOr(Schema.String),
  skills: Schema.Array(AgentProfileSkill),
  interfaces: Schema.Array(AgentProfileInterface),
  endpoints: Schema.Array(AgentProfileEndpoint),
  identityClaims: Schema.Array(AgentIdentityClaim),
  sources: Schema.Array(AgentProfileSource)
}
