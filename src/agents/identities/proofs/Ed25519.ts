/**
 * Ed25519 proofs (@noble/curves): an SVM locator is proven by a signature of the challenge
 * message's UTF-8 bytes by its base58 public key, the signature in **base58** (64 bytes, as
 * Solana wallets' `signMessage` output is usually shown); a DID by a key of the DID (did:key:
 * the key it encodes; did:web: an Ed25519 key of its document's `authentication`), the
 * signature in **base64url** without padding (RFC 4648 §5, as in JWS).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { base58, base64urlnopad, utf8 } from "@scure/base"
import { Effect } from "effect"
import { SignatureInvalid } from "../../Errors.js"

/** The multicodec prefix of an Ed25519 public key (`ed-pub`, varint 0xed 0x01). */
const ED25519_PUB = [0xed, 0x01] as const

/** A 32-byte Ed25519 key from a multibase base58btc (`z…`) multicodec key, or undefined. */
export const ed25519FromMultibase = (multibase: string): Uint8Array | undefined => {
  if (!multibase.startsWith("z")) return undefined
  try {
    const bytes = base58.decode(multibase.slice(1))
    return bytes.length === 34 && bytes[0] === ED25519_PUB[0] && bytes[1] === ED25519_PUB[1] ? bytes.slice(2) : undefined
  } catch {
    return undefined
  }
}

const decoded = (decode: (s: string) => Uint8Array, text: string): Uint8Array | undefined => {
  try {
    return decode(text)
  } catch {
    return undefined
  }
}

/** Whether `signature` (64 bytes) is an Ed25519 signature of `message` by one of `keys`. */
const verifiedByAny = (signature: Uint8Array, message: string, keys: ReadonlyArray<Uint8Array>) => {
  const bytes = utf8.decode(message)
  return keys.some((key) => {
    try {
      return ed25519.verify(signature, bytes, key)
    } catch {
      return false
    }
  })
}

/**
 * Checks an Ed25519 signature of `message` by one of `keys`; `encoding` is the signature's
 * (`base58` for SVM, `base64url` for DIDs). Fails with `SignatureInvalid`.
 */
export const proveEd25519 = (
  keys: ReadonlyArray<Uint8Array>,
  message: string,
  signature: string,
  encoding: "base58" | "base64url"
): Effect.Effect<void, SignatureInvalid> => {
  const sig = encoding === "base58" ? decoded(base58.decode, signature) : decoded(base64urlnopad.decode, signature)
  if (sig === undefined || sig.length !== 64) {
    return Effect.fail(new SignatureInvalid({ detail: `An Ed25519 signature here is 64 bytes in ${encoding}.` }))
  }
  return verifiedByAny(sig, message, keys)
    ? Effect.void
    : Effect.fail(new SignatureInvalid({ detail: "The Ed25519 signature was not made by the locator's key over the challenge message." }))
}

/** The Ed25519 key of an SVM locator (its base58 32-byte public key). */
export const svmKey = (base58Key: string): Uint8Array => base58.decode(base58Key)
