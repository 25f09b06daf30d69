/**
 * x402 v2 (https://github.com/coinbase/x402, `@x402/core` types) as the purchase resource speaks it:
 * the payment requirements of one price, the three headers (base64 of JSON, `@x402/core/http`'s
 * codecs) and the facilitator's `/verify` and `/settle` over the outbound client (layers/Outbound.ts:
 * `@x402/core`'s own `HTTPFacilitatorClient` takes no custom fetch).
 *
 * Only the `exact` scheme on EVM networks (CAIP-2 `eip155:<chainId>`) with an EIP-3009 token is
 * offered: the payload is a `TransferWithAuthorization` signed by the payer, whose `nonce` (with the
 * payer's address) is the payment's natural key.
 */
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader
} from "@x402/core/http"
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types"
import { Effect, Schema } from "effect"
import type { OutboundShape } from "../../../layers/Outbound.js"
import { FacilitatorUnavailable } from "./Errors.js"

export type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse, VerifyResponse }

/** The x402 protocol version spoken. */
export const X402Version = 2

/** The request header carrying the payment (x402 v2). */
export const PaymentSignatureHeader = "payment-signature"
/** The response header carrying the requirements of a 402 (x402 v2). */
export const PaymentRequiredHeader = "PAYMENT-REQUIRED"
/** The response header carrying the settlement of a paid request (x402 v2). */
export const PaymentResponseHeader = "PAYMENT-RESPONSE"

/** What one price asks for, in x402's terms. */
export interface PriceTerms {
  /** CAIP-2 id, `eip155:<chainId>`. */
  readonly network: string
  /** The ERC-20 token's address (checksummed). */
  readonly asset: string
  /** Units of the token: price units × quantity. */
  readonly amount: bigint
  /** The seller's payout address. */
  readonly payTo: string
  /** The token's EIP-712 domain (`name`, `version`), which the payer signs under. */
  readonly domain: { readonly name: string; readonly version: string }
  readonly maxTimeoutSeconds: number
}

/** The `exact` payment requirements of `terms`. */
export const requirementsOf = (terms: PriceTerms): PaymentRequirements => ({
  scheme: "exact",
  network: terms.network as PaymentRequirements["network"],
  asset: terms.asset,
  amount: terms.amount.toString(),
  payTo: terms.payTo,
  maxTimeoutSeconds: terms.maxTimeoutSeconds,
  extra: { name: terms.domain.name, version: terms.domain.version }
})

/** The `PAYMENT-REQUIRED` document: the resource and its one accepted requirement. */
export const paymentRequiredOf = (
  resource: { readonly url: string; readonly description: string },
  requirements: PaymentRequirements,
  error?: string
): PaymentRequired => ({
  x402Version: X402Version,
  ...(error !== undefined ? { error } : {}),
  resource: { url: resource.url, description: resource.description, mimeType: "application/json" },
  accepts: [requirements]
})

/** The `PAYMENT-REQUIRED` header value of `document`. */
export const encodeRequired = (document: PaymentRequired): string => encodePaymentRequiredHeader(document)
/** The `PAYMENT-RESPONSE` header value of a settlement. */
export const encodeResponse = (settlement: SettleResponse): string => encodePaymentResponseHeader(settlement)

/** An EIP-3009 authorization as the `exact` scheme's payload carries it. */
const Authorization = Schema.Struct({
  from: Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/)),
  to: Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/)),
  value: Schema.String.pipe(Schema.pattern(/^[0-9]{1,78}$/)),
  validAfter: Schema.String,
  validBefore: Schema.String,
  nonce: Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{64}$/))
})
const ExactPayload = Schema.Struct({ signature: Schema.String, authorization: Authorization })

/** A decoded `PAYMENT-SIGNATURE`: the payload and its EIP-3009 authorization. */
export interface DecodedPayment {
  readonly payload: PaymentPayload
  readonly payer: string
  /** The payment's natural key: `<payer>:<nonce>`, both lower case. */
  readonly reference: string
}

/**
 * Decodes a `PAYMENT-SIGNATURE` header: base64 JSON of an x402 v2 payload whose `payload` is an
 * EIP-3009 authorization. `undefined` when it is not one.
 */
export const decodePayment = (header: string): DecodedPayment | undefined => {
  try {
    const payload = decodePaymentSignatureHeader(header)
    if (payload.x402Version !== X402Version) return undefined
    const exact = Schema.decodeUnknownSync(ExactPayload)(payload.payload)
    const payer = exact.authorization.from.toLowerCase()
    return { payload, payer, reference: `${payer}:${exact.authorization.nonce.toLowerCase()}` }
  } catch {
    return undefined
  }
}

const VerifyReply = Schema.Struct({
  isValid: Schema.Boolean,
  invalidReason: Schema.optional(Schema.String),
  payer: Schema.optional(Schema.String)
})
const SettleReply = Schema.Struct({
  success: Schema.Boolean,
  errorReason: Schema.optional(Schema.String),
  payer: Schema.optional(Schema.String),
  transaction: Schema.String,
  network: Schema.String
})

/**
 * POSTs `{x402Version, paymentPayload, paymentRequirements}` to the facilitator's `route` and decodes
 * its answer; a failed request, a non-2xx status or another body is `FacilitatorUnavailable` (503).
 */
const post = <A, I>(
  outbound: OutboundShape,
  url: string,
  route: "verify" | "settle",
  schema: Schema.Schema<A, I>,
  payload: PaymentPayload,
  requirements: PaymentRequirements
): Effect.Effect<A, FacilitatorUnavailable> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await outbound.fetch(`${url}/${route}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ x402Version: X402Version, paymentPayload: payload, paymentRequirements: requirements }),
        signal
      })
      const body: unknown = await response.json()
      if (!response.ok) throw new Error(`status ${response.status}`)
      return Schema.decodeUnknownSync(schema)(body)
    },
    catch: () => new FacilitatorUnavailable({ detail: `The x402 facilitator's /${route} did not answer with an x402 ${route} response.` })
  })

/** The facilitator's verification of `payload` against `requirements`. */
export const verify = (outbound: OutboundShape, url: string, payload: PaymentPayload, requirements: PaymentRequirements) =>
  post(outbound, url, "verify", VerifyReply, payload, requirements)

/** The facilitator's settlement of `payload`: it broadcasts the authorization and waits for its receipt. */
export const settle = (outbound: OutboundShape, url: string, payload: PaymentPayload, requirements: PaymentRequirements) =>
  Effect.map(post(outbound, url, "settle", SettleReply, payload, requirements), (r) => r as SettleResponse)
