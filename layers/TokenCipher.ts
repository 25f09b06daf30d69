/**
 * Encryption at rest of secrets the service must use again later (the MCP servers'
 * OAuth access and refresh tokens, registered clients' secrets): AES-256-GCM
 * (NIST SP 800-38D) through `node:crypto`, with a key ring so keys can be rotated.
 *
 * A sealed value is the text `v1.<kid>.<iv>.<ciphertext+tag>` (base64url parts, a
 * 12-byte random IV, a 16-byte tag). `aad` (additional authenticated data, e.g.
 * `mcp_oauth_tokens.access_token:<connection id>`) binds it to where it is stored: a
 * value copied to another row or column does not open.
 *
 * Rotation: the first key of the ring seals; every key of the ring opens (by its `kid`).
 * Put a new key first, keep the old ones until every value was sealed again (a token
 * refresh re-seals with the first key), then drop them.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { Data, Redacted } from "effect"

/** One key of the ring: `kid` (1-32 of `[A-Za-z0-9_-]`) and 32 bytes. */
export interface TokenKey {
  readonly kid: string
  readonly key: Redacted.Redacted<Buffer>
}

/** The rule of a key id. */
export const KidPattern = /^[A-Za-z0-9_-]{1,32}$/

/** A sealed value that does not open: unknown kid, altered, or bound to another place. */
export class SealedValueInvalid extends Data.TaggedError("SealedValueInvalid")<{ readonly reason: string }> {}

/** Seals and opens values with a key ring (the first key seals). */
export interface TokenCipher {
  /** `v1.<kid>.<iv>.<ciphertext+tag>` of `plaintext`, bound to `aad`. */
  readonly seal: (plaintext: Redacted.Redacted<string>, aad: string) => string
  /** The plaintext of `sealed` (bound to `aad`), or {@link SealedValueInvalid}. */
  readonly open: (sealed: string, aad: string) => Redacted.Redacted<string>
  /** The key id a value was sealed with (for re-sealing after a rotation). */
  readonly kidOf: (sealed: string) => string | undefined
  /** The key id that seals now. */
  readonly currentKid: string
}

/** Makes the cipher of a non-empty ring of 32-byte keys with distinct ids. */
export const makeTokenCipher = (ring: ReadonlyArray<TokenKey>): TokenCipher => {
  const first = ring[0]
  if (first === undefined) throw new Error("the token key ring is empty")
  const byKid = new Map<string, Buffer>()
  for (const k of ring) {
    if (!KidPattern.test(k.kid)) throw new Error(`token key id must match ${KidPattern}`)
    if (Redacted.value(k.key).length !== 32) throw new Error(`token key ${k.kid} must be 32 bytes`)
    if (byKid.has(k.kid)) throw new Error(`token key id ${k.kid} appears twice`)
    byKid.set(k.kid, Redacted.value(k.key))
  }
  const seal = (plaintext: Redacted.Redacted<string>, aad: string) => {
    const iv = randomBytes(12)
    const cipher = createCipheriv("aes-256-gcm", Redacted.value(first.key), iv)
    cipher.setAAD(Buffer.from(aad, "utf8"))
    const body = Buffer.concat([cipher.update(Redacted.value(plaintext), "utf8"), cipher.final(), cipher.getAuthTag()])
    return `v1.${first.kid}.${iv.toString("base64url")}.${body.toString("base64url")}`
  }
  const open = (sealed: string, aad: string) => {
    const parts = sealed.split(".")
    if (parts.length !== 4 || parts[0] !== "v1") throw new SealedValueInvalid({ reason: "not a v1 sealed value" })
    const key = byKid.get(parts[1]!)
    if (key === undefined) throw new SealedValueInvalid({ reason: "sealed with a key that is not in the ring" })
    const iv = Buffer.from(parts[2]!, "base64url")
    const body = Buffer.from(parts[3]!, "base64url")
    if (iv.length !== 12 || body.length < 16) throw new SealedValueInvalid({ reason: "malformed sealed value" })
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, iv)
      decipher.setAAD(Buffer.from(aad, "utf8"))
      decipher.setAuthTag(body.subarray(body.length - 16))
      const text = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString("utf8")
      return Redacted.make(text)
    } catch {
      throw new SealedValueInvalid({ reason: "the sealed value was altered or belongs elsewhere" })
    }
  }
  return {
    seal,
    open,
    kidOf: (sealed) => sealed.split(".")[1],
    currentKid: first.kid
  }
}

/**
 * Parses `MCP_TOKEN_KEYS`: comma-separated `kid:base64key` entries (standard or url-safe
 * base64 of 32 bytes), the first sealing. Returns the ring, or the rule broken.
 */
export const parseTokenKeys = (text: string): ReadonlyArray<TokenKey> | string => {
  const ring: Array<TokenKey> = []
  for (const entry of text.split(",").map((e) => e.trim()).filter((e) => e !== "")) {
    const at = entry.indexOf(":")
    const kid = at < 0 ? "" : entry.slice(0, at)
    if (!KidPattern.test(kid)) return "each MCP_TOKEN_KEYS entry must be kid:base64key with a kid of 1-32 [A-Za-z0-9_-]"
    const key = Buffer.from(entry.slice(at + 1), entry.slice(at + 1).includes("-") || entry.slice(at + 1).includes("_") ? "base64url" : "base64")
    if (key.length !== 32) return `MCP_TOKEN_KEYS key ${kid} must be the base64 of exactly 32 bytes`
    if (ring.some((k) => k.kid === kid)) return `MCP_TOKEN_KEYS names key ${kid} twice`
    ring.push({ kid, key: Redacted.make(key) })
  }
  return ring.length === 0 ? "MCP_TOKEN_KEYS must name at least one key" : ring
}
