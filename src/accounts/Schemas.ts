/**
 * API key management (ours; spec §5.3 Creation, Rotation; §5.4.2 origin allowlist):
 * the metadata of a workspace's public API keys and the bodies that manage them.
 * The plaintext key appears only in the creation response, once.
 */
import { Schema } from "effect"
import { DateTimeZ, StrictStruct, Uuid } from "../../schema/common.js"
import { ExactOrigin } from "../../schema/origin.js"

/**
 * Scopes an API key can carry (spec §5.3 "Scopes seen"; `commerce:buy`, ours: buying for the key's
 * workspace, Commerce_PurchaseOfferWithX402).
 */
export const ApiKeyScope = Schema.Literal("public:read", "agents:read", "commerce:buy").annotations({ identifier: "ApiKeyScope" })
export type ApiKeyScope = typeof ApiKeyScope.Type

/** Lifecycle state of a key; only ACTIVE keys authenticate. */
export const ApiKeyState = Schema.Literal("ACTIVE", "PAUSED", "REVOKED").annotations({ identifier: "ApiKeyState" })

/** Most origins one key may list. */
export const MaxAllowedOrigins = 20

/** A key's metadata: everything but the secret. */
export const ApiKey = Schema.Struct({
  publicId: Uuid,
  name: Schema.String,
  /** The non-secret indexed prefix: the key reads `adk_<prefix>_<secret>`. */
  prefix: Schema.String.annotations({ description: "Non-secret key prefix (12 hex digits); the key is adk_<prefix>_<secret>" }),
  scopes: Schema.Array(ApiKeyScope),
  environment: Schema.String.annotations({ description: "Deployment environment the key belongs to (spec §5.3 Validity)" }),
  state: ApiKeyState,
  allowedOrigins: Schema.Array(Schema.String).annotations({
    description: "Exact browser origins that may use the key; empty = no browser use (spec §5.4.2)"
  }),
  createdAt: DateTimeZ,
  lastUsedAt: Schema.NullOr(DateTimeZ).annotations({ description: "Last authenticated use, to the minute" }),
  expiresAt: Schema.NullOr(DateTimeZ),
  revokedAt: Schema.NullOr(DateTimeZ)
}).annotations({
  identifier: "ApiKey",
  examples: [{
    publicId: "0190000b-0000-7000-8000-000000000001",
    name: "Partner dashboard",
    prefix: "0a1b2c3d4e5f",
    scopes: ["public:read"],
    environment: "production",
    state: "ACTIVE",
    allowedOrigins: ["https://dashboard.example.com"],
    createdAt: new Date("2026-06-01T00:00:00.000Z"),
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null
  }]
})
export type ApiKey = typeof ApiKey.Type

/** Path of the workspace-scoped key operations. */
export const WorkspaceApiKeysPath = Schema.Struct({ workspacePublicId: Uuid })

/** Path of Accounts_RevokeApiKey. */
export const ApiKeyPath = Schema.Struct({ workspacePublicId: Uuid, apiKeyPublicId: Uuid })

/** Body of Accounts_CreateApiKey. */
export const CreateApiKeyRequest = StrictStruct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  scopes: Schema.Array(ApiKeyScope).pipe(Schema.minItems(1), Schema.maxItems(3)),
  expiresAt: Schema.optionalWith(DateTimeZ, { exact: true }),
  allowedOrigins: Schema.optionalWith(Schema.Array(ExactOrigin).pipe(Schema.maxItems(MaxAllowedOrigins)), { exact: true })
}).annotations({
  identifier: "CreateApiKeyRequest",
  examples: [{ name: "Partner dashboard", scopes: ["public:read"], allowedOrigins: ["https://dashboard.example.com"] }]
})

/**
 * `data` of Accounts_CreateApiKey: the metadata and, on the first response only, the
 * plaintext `key`. A replay of the same Idempotency-Key answers `key: null` and
 * `keyDelivery: ALREADY_SHOWN`: the secret is never shown twice nor stored.
 */
export const CreatedApiKey = Schema.Struct({
  apiKey: ApiKey,
  key: Schema.NullOr(Schema.String).annotations({
    description: "The plaintext key (send it as X-API-Key); shown once, never retrievable again"
  }),
  keyDelivery: Schema.Literal("SHOWN_ONCE", "ALREADY_SHOWN")
}).annotations({ identifier: "CreatedApiKey" })
export type CreatedApiKey = typeof CreatedApiKey.Type

/** What a replay of Accounts_CreateApiKey answers (and what is stored for it): the metadata, never the secret. */
export const alreadyShown = (created: CreatedApiKey): CreatedApiKey => ({ ...created, key: null, keyDelivery: "ALREADY_SHOWN" })
