/**
 * The proof of control of an EVM address that Wallets_RegisterWallet accepts: an EIP-4361
 * ("Sign-In with Ethereum") message the client builds (viem `createSiweMessage`) and the address
 * signs with EIP-191 `personal_sign`. Parsed with viem `parseSiweMessage`, the signature checked
 * with viem `verifyMessage` (an EOA's ecrecover; contract wallets are not supported).
 *
 * Rules, checked in this order (the first that fails is the answer):
 * 1. the text is an EIP-4361 message of version 1 with address, chain id, domain, uri, nonce and
 *    issuedAt → else `malformed`;
 * 2. its address and chain id are the ones of the CAIP-10 `account` → else `account-mismatch`;
 * 3. its domain is the host of the service's public origin (`PUBLIC_BASE_URL`) and its uri is on
 *    that origin (scheme, when given, that origin's) → else `domain-mismatch`;
 * 4. time: issuedAt at most {@link ClockSkewMs} in the future and notBefore (if any) passed → else
 *    `not-yet-valid`; an expirationTime (if any) after now, and without one, issuedAt at most
 *    {@link MaxMessageAgeMs} ago → else `expired` (410);
 * 5. the signature recovers the message's address → else `wrong-signer`.
 * The nonce (at least 8 alphanumerics, EIP-4361) is made single-use by the caller (Repo).
 */
import { Effect } from "effect"
import { getAddress, type Hex, verifyMessage } from "viem"
import { parseSiweMessage } from "viem/siwe"

/** How far in the future a message's issuedAt may be (clock skew between the client and us), ms. */
export const ClockSkewMs = 5 * 60 * 1000
/** How old a message without expirationTime may be (its issuedAt), ms: 10 minutes. */
export const MaxMessageAgeMs = 10 * 60 * 1000

/** A verified sign-in message: the proven address (EIP-55), its nonce and until when the message is valid. */
export interface ProvenAddress {
  readonly address: `0x${string}`
  readonly chainId: number
  readonly nonce: string
  /** When the message stops being acceptable: its expirationTime, else issuedAt + {@link MaxMessageAgeMs}. */
  readonly validUntil: Date
}

/** Why a message does not prove the account; `expired` is the 410, the rest 422 `proof-invalid`. */
export type SiweRefusal =
  | { readonly reason: "malformed"; readonly detail: string }
  | { readonly reason: "account-mismatch"; readonly detail: string }
  | { readonly reason: "domain-mismatch"; readonly detail: string }
  | { readonly reason: "not-yet-valid"; readonly detail: string }
  | { readonly reason: "expired"; readonly detail: string }
  | { readonly reason: "wrong-signer"; readonly detail: string }

const refuse = (reason: SiweRefusal["reason"], detail: string) => Effect.fail({ reason, detail } as SiweRefusal)

/**
 * Verifies `message` and `signature` as a proof of `account` (`eip155:<chainId>:<address>`) for the
 * service at `origin` (an exact origin, `https://host[:port]`), at time `at`. Fails with a
 * {@link SiweRefusal} (never echoing the message's values).
 */
export const verifySiweProof = (input: {
  readonly account: { readonly chainId: number; readonly address: string }
  readonly message: string
  readonly signature: string
  readonly origin: string
  readonly at: Date
}): Effect.Effect<ProvenAddress, SiweRefusal> =>
  Effect.gen(function*() {
    const fields = parseSiweMessage(input.message)
    const { address, chainId, domain, expirationTime, issuedAt, nonce, notBefore, scheme, uri, version } = fields
    if (
      address === undefined || chainId === undefined || domain === undefined || uri === undefined ||
      nonce === undefined || version !== "1"
    ) {
      return yield* refuse("malformed", "message must be an EIP-4361 message (version 1) with address, chain id, domain, uri and nonce.")
    }
    if (!/^[a-zA-Z0-9]{8,}$/.test(nonce)) {
      return yield* refuse("malformed", "message's nonce must be at least 8 letters or digits (EIP-4361).")
    }
    const dates = [issuedAt, expirationTime, notBefore]
    if (issuedAt === undefined || dates.some((d) => d !== undefined && Number.isNaN(d.getTime()))) {
      return yield* refuse("malformed", "message must carry an Issued At date-time (RFC 3339), and valid optional times.")
    }
    if (getAddress(address) !== getAddress(input.account.address) || chainId !== input.account.chainId) {
      return yield* refuse("account-mismatch", "message's address and chain id must be those of account.")
    }
    const origin = new URL(input.origin)
    let uriOrigin: string | null = null
    try {
      uriOrigin = new URL(uri).origin
    } catch {
      uriOrigin = null
    }
    if (domain !== origin.host || uriOrigin !== origin.origin || (scheme !== undefined && `${scheme}:` !== origin.protocol)) {
      return yield* refuse("domain-mismatch", "message's domain and uri must name this service's origin.")
    }
    const now = input.at.getTime()
    if (issuedAt.getTime() > now + ClockSkewMs || (notBefore !== undefined && notBefore.getTime() > now)) {
      return yield* refuse("not-yet-valid", "message is not valid yet (Issued At or Not Before is in the future).")
    }
    const validUntil = expirationTime ?? new Date(issuedAt.getTime() + MaxMessageAgeMs)
    if (validUntil.getTime() <= now) {
      return yield* refuse(
        "expired",
        expirationTime !== undefined
          ? "message's Expiration Time has passed; sign a new message."
          : "message was issued more than 10 minutes ago and has no Expiration Time; sign a new message."
      )
    }
    const valid = /^0x[0-9a-fA-F]+$/.test(input.signature)
      ? yield* Effect.promise(() =>
        verifyMessage({ address, message: input.message, signature: input.signature as Hex }).catch(() => false)
      )
      : false
    if (!valid) return yield* refuse("wrong-signer", "signature is not the message's address's signature of the message.")
    return { address: getAddress(address), chainId, nonce, validUntil }
  })
