/**
 * The A2A Agent Card (Agent2Agent protocol, "AgentCard" of the specification; served at
 * `/.well-known/agent-card.json`) as an Effect Schema: the contract glue that decides
 * whether an imported card is one. Written from the A2A specification and the
 * `AgentCard` type of `@a2a-js/sdk` (1.x, protocol 1.0), accepting both revisions seen in
 * the wild:
 *
 * - A2A 1.0: `supportedInterfaces[]` ({url, protocolBinding, protocolVersion, tenant});
 * - A2A 0.3: `url` + `preferredTransport` (default JSONRPC) + `additionalInterfaces[]`
 *   ({url, transport}) and a card-level `protocolVersion`;
 *
 * one of the two is required. Required everywhere: `name`, `description`, `version`,
 * `capabilities`, `defaultInputModes`, `defaultOutputModes`, `skills[]` (each with `id`,
 * `name`, `description`, `tags`). Unknown members are allowed (extensions), and the card
 * is stored as published, so `signatures` (JWS, RFC 7515) stay verifiable.
 * test/agents/imports/A2aAgentCard.test.ts compares the field names with the SDK's type,
 * so an SDK upgrade that adds or renames a card field fails the type check.
 *
 * A contract type: the import validates cards with it (src/agents/imports/) and
 * Agents_GetAgentCard declares its served shape with it. Free-form members are
 * {@link AnyJson} (not a bare `Schema.Unknown`, whose JSON Schema `$id` may appear only once).
 */
import { Schema } from "effect"
import { AnyJson, rule } from "../../schema/common.js"

/** An optional member: absent or of `schema` (never `undefined`, which JSON does not have, so a problem names only the member's rule). */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

const Text = (what: string) => Schema.String.annotations(rule(`${what} must be a string`))
const NonEmpty = (what: string) =>
  Schema.String.pipe(Schema.minLength(1)).annotations(rule(`${what} must be a non-empty string`))
const Strings = (what: string) => Schema.Array(Schema.String).annotations(rule(`${what} must be an array of strings`))
const AbsoluteUrl = (what: string) =>
  Schema.String.pipe(Schema.filter((s) => URL.canParse(s))).annotations(rule(`${what} must be an absolute URL`))
const JsonObject = (what: string) =>
  Schema.Record({ key: Schema.String, value: AnyJson }).annotations(rule(`${what} must be an object`))

/** An interface of A2A 1.0 (`AgentInterface`). */
export const A2aAgentInterface = Schema.Struct({
  url: AbsoluteUrl("url"),
  protocolBinding: NonEmpty("protocolBinding"),
  protocolVersion: optional(Text("protocolVersion")),
  tenant: optional(Text("tenant"))
})

/** An additional interface of A2A 0.3 (`AgentInterface` there: a URL and its transport). */
export const A2aLegacyInterface = Schema.Struct({
  url: AbsoluteUrl("url"),
  transport: NonEmpty("transport")
})

/** The agent's provider (`AgentProvider`). */
export const A2aAgentProvider = Schema.Struct({
  organization: NonEmpty("provider.organization"),
  url: AbsoluteUrl("provider.url")
})

/** A protocol extension the agent supports (`AgentExtension`). */
export const A2aAgentExtension = Schema.Struct({
  uri: NonEmpty("uri"),
  description: optional(Text("description")),
  required: optional(Schema.Boolean),
  params: optional(JsonObject("params"))
})

/** Optional capabilities (`AgentCapabilities`; `stateTransitionHistory` is 0.3's). */
export const A2aAgentCapabilities = Schema.Struct({
  streaming: optional(Schema.Boolean),
  pushNotifications: optional(Schema.Boolean),
  stateTransitionHistory: optional(Schema.Boolean),
  extendedAgentCard: optional(Schema.Boolean),
  extensions: optional(Schema.Array(A2aAgentExtension))
})

/** A security requirement: 1.0 wraps the scheme map (`{schemes: {…}}`), 0.3 is the map itself. */
const SecurityRequirements = (what: string) => Schema.Array(JsonObject(`each ${what} entry`))

/** A skill (`AgentSkill`). */
export const A2aAgentSkill = Schema.Struct({
  id: NonEmpty("skill id"),
  name: NonEmpty("skill name"),
  description: Text("skill description"),
  tags: Strings("skill tags"),
  examples: optional(Strings("skill examples")),
  inputModes: optional(Strings("skill inputModes")),
  outputModes: optional(Strings("skill outputModes")),
  securityRequirements: optional(SecurityRequirements("securityRequirements")),
  security: optional(SecurityRequirements("security"))
})

/** A JWS signature of the card (`AgentCardSignature`, RFC 7515 JSON serialization). */
export const A2aAgentCardSignature = Schema.Struct({
  protected: NonEmpty("signature protected header"),
  signature: NonEmpty("signature value"),
  header: optional(JsonObject("signature header"))
})

/** The members of an Agent Card (both revisions; see the module's description). */
export const A2aAgentCardFields = {
  name: NonEmpty("name"),
  description: Text("description"),
  version: NonEmpty("version"),
  // A2A 1.0
  supportedInterfaces: optional(Schema.Array(A2aAgentInterface)),
  // A2A 0.3
  protocolVersion: optional(Text("protocolVersion")),
  url: optional(AbsoluteUrl("url")),
  preferredTransport: optional(NonEmpty("preferredTransport")),
  additionalInterfaces: optional(Schema.Array(A2aLegacyInterface)),
  supportsAuthenticatedExtendedCard: optional(Schema.Boolean),
  // both
  provider: optional(A2aAgentProvider),
  documentationUrl: optional(AbsoluteUrl("documentationUrl")),
  iconUrl: optional(AbsoluteUrl("iconUrl")),
  capabilities: A2aAgentCapabilities,
  securitySchemes: optional(Schema.Record({ key: Schema.String, value: JsonObject("each security scheme") })),
  securityRequirements: optional(SecurityRequirements("securityRequirements")),
  security: optional(SecurityRequirements("security")),
  defaultInputModes: Strings("defaultInputModes"),
  defaultOutputModes: Strings("defaultOutputModes"),
  skills: Schema.Array(A2aAgentSkill),
  signatures: optional(Schema.Array(A2aAgentCardSignature))
}

/**
 * The wire shape of an A2A Agent Card as the directory serves one (Agents_GetAgentCard,
 * `/.well-known/agent-card.json`): the fields above, published cards of either revision
 * included. The cards the directory builds are A2A 1.0 cards with no empty required array
 * (src/agents/cards/ProfileAgentCard.ts, src/http/DirectoryAgentCard.ts; tests validate them against
 * the specification's JSON Schema, test/fixtures/a2a/). Its OpenAPI component is `A2aAgentCard`.
 */
export const A2aAgentCardDocument = Schema.Struct(
  A2aAgentCardFields,
  // members we do not model (extensions, newer revisions) are part of the card: `additionalProperties` allowed
  Schema.Record({ key: Schema.String, value: AnyJson })
).annotations({
  identifier: "A2aAgentCard",
  description: "An A2A Agent Card (A2A protocol 1.0 `AgentCard`, or 0.3 with `url`); unknown members (extensions) are allowed."
})

/** An A2A Agent Card: the fields above, with `supportedInterfaces` (1.0) or `url` (0.3). */
export const A2aAgentCard = Schema.Struct(A2aAgentCardFields).pipe(
  Schema.filter((card) =>
    (card.supportedInterfaces !== undefined && card.supportedInterfaces.length > 0) || card.url !== undefined ||
    { path: ["supportedInterfaces"], message: "supportedInterfaces (A2A 1.0) must list an interface, or url (A2A 0.3) must be given" }
  )
)
export type A2aAgentCard = typeof A2aAgentCard.Type

/**
 * The directory's ERC-8004 registration file of an agent (Agents_GetErc8004Registration,
 * src/agents/registration/Erc8004File.ts): `type` registration-v1, `services` by name
 * (A2A, MCP, …), `registrations` the agent's proven registry tokens (`agentRegistry` CAIP-10).
 */
export const Erc8004RegistrationDocument = Schema.Struct({
  type: Schema.String,
  name: Schema.String,
  description: Schema.String,
  services: Schema.Array(Schema.Struct({ name: Schema.String, endpoint: Schema.String, version: optional(Schema.String) })),
  x402Support: Schema.Boolean,
  active: Schema.Boolean,
  registrations: Schema.Array(Schema.Struct({ agentId: Schema.Union(Schema.Int, Schema.String), agentRegistry: Schema.String })),
  supportedTrust: Schema.Array(Schema.String)
}).annotations({ identifier: "Erc8004Registration", description: "An ERC-8004 registration file (type registration-v1)." })
