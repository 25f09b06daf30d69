/** Mesh area (spec §2.7, §4.3 Social_CreateMeshPublisher): signal publishers of a workspace's mesh. */
import { createHash } from "node:crypto"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Schema } from "effect"
import { DateTimeZ, rule, StrictStruct, Uuid } from "../../../schema/common.js"

/** Mesh publisher states (spec §3). */
export const MeshPublisherState = Schema.Literal("PENDING", "ACTIVE", "SUSPENDED", "REVOKED")

/** Rate policy of a publisher (spec §2.7, §8): signals per minute and burst, each 1-10000. */
const RateInt = Schema.Int.pipe(Schema.between(1, 10_000), Schema.annotations(rule("must be an integer 1-10000")))

/** Mesh publisher (spec §2.7). */
export const MeshPublisher = Schema.Struct({
  id: Uuid,
  workspaceId: Uuid,
  entityPublicId: Schema.NullOr(Uuid),
  publicKeyId: Uuid,
  publicKeyFingerprint: Schema.String,
  state: MeshPublisherState,
  allowedSignalTypes: Schema.Array(Schema.String),
  ratePolicy: Schema.Struct({ perMinute: Schema.Int, burst: Schema.Int }),
  createdAt: DateTimeZ
}).annotations({ identifier: "MeshPublisher" })
export type MeshPublisher = typeof MeshPublisher.Type

/** Padded base64 (RFC 4648 §4): groups of 4, `=` padding, no whitespace. */
const PaddedBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * Whether `bytes` is a usable Ed25519 public key: 32 bytes that decode to a point of
 * the curve (RFC 8032 §5.1.3) outside the small-order subgroup (such a key verifies
 * forged signatures).
 */
export const isEd25519PublicKey = (bytes: Uint8Array): boolean => {
  if (bytes.length !== 32) return false
  try {
    return !ed25519.Point.fromBytes(bytes).isSmallOrder()
  } catch {
    return false
  }
}

/** `publicKeyBase64`: padded base64 of a 32-byte Ed25519 public key. */
export const Ed25519PublicKeyBase64 = Schema.String.pipe(
  Schema.pattern(PaddedBase64, rule("must be padded base64")),
  Schema.filter((s) => isEd25519PublicKey(Buffer.from(s, "base64")), rule("must be a 32-byte Ed25519 public key")),
  Schema.annotations({
    jsonSchema: { pattern: PaddedBase64.source, contentEncoding: "base64", minLength: 44, maxLength: 44 },
    description: "Padded base64 of a raw 32-byte Ed25519 public key (44 characters)"
  })
)

/** A signal type: a lowercase alphanumeric segment, then one or more `.`-separated segments of `[a-z0-9-]`, at most 200 chars. */
const SignalTypePattern = /^[a-z0-9]+(?:\.[a-z0-9-]+)+$/
const SignalType = Schema.String.pipe(
  Schema.maxLength(200),
  Schema.pattern(SignalTypePattern),
  Schema.annotations({
    ...rule("must be at most 200 characters: a lowercase alphanumeric segment, then dot-separated segments of a-z, 0-9, -"),
    jsonSchema: { pattern: SignalTypePattern.source, maxLength: 200 }
  })
)

/** Body of Social_CreateMeshPublisher (spec §4.3). */
export const CreateMeshPublisherRequest = StrictStruct({
  workspaceId: Uuid,
  entityPublicId: Schema.optionalWith(Uuid, { exact: true }),
  algorithm: Schema.Literal("Ed25519").annotations(rule("must be Ed25519")),
  publicKeyBase64: Ed25519PublicKeyBase64,
  allowedSignalTypes: Schema.Array(SignalType).pipe(
    Schema.minItems(1),
    Schema.maxItems(100),
    // not `rule`: its override would hide which item broke its own rule
    Schema.annotations({ message: () => ({ message: "must hold 1-100 signal types", override: false }) })
  ),
  ratePolicy: StrictStruct({ perMinute: RateInt, burst: RateInt })
}).annotations({ identifier: "CreateMeshPublisherRequest" })
export type CreateMeshPublisherRequest = typeof CreateMeshPublisherRequest.Type

/**
 * `publicKeyFingerprint` (spec §2.7) of a raw 32-byte public key: SHA-256 of the key
 * bytes, base64url without padding (43 characters). Two publishers never share one.
 */
export const publicKeyFingerprint = (key: Uint8Array): string => createHash("sha256").update(key).digest("base64url")
