/**
 * The payment rails (docs/payments.md): an offer bought over x402 (`Commerce_PurchaseOfferWithX402`)
 * and a payment opened on an order (`Commerce_CreatePayment`: ONCHAIN, PROCESSOR, X402). They drive
 * the commerce settlement (`../Settlement.ts`); this service holds what each rail adds: who may
 * buy, what the price asks for in the rail's terms, the facilitator, the transaction intent.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { type Address, erc20Abi, getAddress, isAddress, parseAbi } from "viem"
import { Chain } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound } from "../../../layers/Outbound.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import {
  ChainRpcUnavailable,
  ConfigurationMissing,
  Forbidden,
  InvalidRequest,
  PaymentRequired,
  RoleRequired,
  Unauthenticated
} from "../../../schema/errors.js"
import { can, rolesInWords } from "../../../schema/roles.js"
import type { Principal } from "../../api/security.js"
import { OfferNotPurchasable, OrderNotFound } from "../Errors.js"
import {
  attachTransactionIntent,
  confirmPayment,
  findPaymentByReference,
  openPayment,
  type PaymentRecord,
  placeOrder
} from "../Settlement.js"
import { PaymentSettings } from "./Config.js"
import { FacilitatorUnavailable, OfferNotPayable, PayerWalletRequired, PaymentRejected } from "./Errors.js"
import { makePaymentsRepo, type PayablePrice } from "./Repo.js"
import * as X402 from "./X402.js"
import type { CreatedPayment } from "./Schemas.js"
import type { TransactionIntent } from "../../../schema/transactionIntents.js"

/** The purpose kind of an ONCHAIN payment's transaction intent (its id: the payment's). */
export const PaymentPurpose = "commerce.payment"

/** An ERC-20 on an EVM network, from a CAIP-19 id `eip155:<chainId>/erc20:<address>`. */
export const erc20Of = (caip19: string | null): { readonly network: string; readonly token: Address } | undefined => {
  const match = caip19 === null ? null : /^(eip155:[0-9]{1,15})\/erc20:(0x[0-9a-fA-F]{40})$/.exec(caip19)
  return match === null ? undefined : { network: match[1]!, token: getAddress(match[2]!) }
}

const eip712Abi = parseAbi(["function name() view returns (string)", "function version() view returns (string)"])

/** What a purchase asks for, before any payment: the buyer, the price and its x402 requirements. */
export interface X402Quote {
  readonly workspaceId: string
  readonly buyerAccountId: string | null
  readonly priceId: string
  readonly quantity: number
  readonly network: string
  readonly requirements: X402.PaymentRequirements
  /** The `PAYMENT-REQUIRED` document of this resource. */
  readonly paymentRequired: X402.PaymentRequired
}

/** The rails' service. Requires, per call, `SqlClient` (the request's transaction). */
export class Payments extends Effect.Service<Payments>()("agent-directory/Payments", {
  effect: Effect.gen(function*() {
    const settings = (yield* PaymentSettings).payments
    const chain = yield* Chain
    const outbound = yield* Outbound
    const intents = yield* TransactionIntents
    const ids = yield* Ids
    /** EIP-712 domains of tokens already read, by CAIP-19 id. */
    const domains = new Map<string, { readonly name: string; readonly version: string }>()

    /** The token's EIP-712 domain (`name()`, `version()`), read once from its chain. */
    const domainOf = (caip19: string, network: string, token: Address) =>
      Effect.gen(function*() {
        const known = domains.get(caip19)
        if (known !== undefined) return known
        const client = yield* chain.client(network)
        const read = (functionName: "name" | "version") =>
          Effect.tryPromise({
            try: () => client.readContract({ address: token, abi: eip712Abi, functionName }),
            catch: () => new ChainRpcUnavailable({ detail: `The token's ${functionName}() could not be read from ${network}.` })
          })
        const domain = { name: yield* read("name"), version: yield* read("version") }
        domains.set(caip19, domain)
        return domain
      })

    /** The workspace the principal buys for, after its role is checked (`commerce.buy`). */
    const buyer = (principal: Principal, workspaceId: string | undefined) =>
      Effect.gen(function*() {
        if (principal._tag === "Anonymous") {
          return yield* new Unauthenticated({ detail: "Buying needs a session or an API key." })
        }
        if (principal._tag === "ApiKey") {
          if (workspaceId !== undefined && workspaceId.toLowerCase() !== principal.workspaceId) {
            return yield* new Forbidden({ detail: "An API key buys for its own workspace only (`workspaceId`)." })
          }
          return { workspaceId: principal.workspaceId, accountId: null }
        }
        if (workspaceId === undefined) {
          return yield* new InvalidRequest({
            detail: "A session names the workspace that buys.",
            errors: [{ in: "query", pointer: "/workspaceId", detail: "is required with a session" }]
          })
        }
        const repo = yield* makePaymentsRepo
        const role = yield* repo.memberRole(workspaceId.toLowerCase(), principal.accountId)
        if (Option.isNone(role)) {
          return yield* new Forbidden({ detail: "The caller is not an active member of the buying workspace." })
        }
        if (!can(role.value, "commerce.buy")) {
          return yield* new RoleRequired({ detail: `Buying needs ${rolesInWords("commerce.buy")}.` })
        }
        return { workspaceId: workspaceId.toLowerCase(), accountId: principal.accountId }
      })

    /** The offer's price payable over x402: an ERC-20 on an EVM network, and a payout address. */
    const x402Price = (prices: ReadonlyArray<PayablePrice>) => {
      const payable = prices.find((p) => erc20Of(p.assetCaip19) !== undefined && p.payoutAddress !== null)
      return payable === undefined ? undefined : { price: payable, erc20: erc20Of(payable.assetCaip19)! }
    }

    /**
     * The x402 quote of buying `quantity` of the offer's price (`priceId`, default its current one
     * payable over x402) for the principal's workspace. Fails with `Unauthenticated` (anonymous),
     * `InvalidRequest` (a session names no workspace), `Forbidden` (not a member; an API key for
     * another workspace), `RoleRequired` (no `commerce.buy`), `OfferNotPurchasable` (not published,
     * no such current price), `OfferNotPayable` (no ERC-20 price on an EVM network, or no payout
     * address), `ConfigurationMissing` (the network is not configured), `ChainRpcUnavailable`.
     */
    const quoteX402 = (input: {
      readonly principal: Principal
      readonly offerId: string
      readonly workspaceId: string | undefined
      readonly priceId: string | undefined
      readonly quantity: number
      /** The resource's absolute URL, as the requirements name it. */
      readonly resourceUrl: string
    }) =>
      Effect.gen(function*() {
        const who = yield* buyer(input.principal, input.workspaceId)
        const repo = yield* makePaymentsRepo
        const prices = yield* repo.currentPrices(input.offerId.toLowerCase(), input.priceId?.toLowerCase(), yield* now)
        if (prices.length === 0) {
          return yield* new OfferNotPurchasable({ detail: "No published offer with this id has such a current price." })
        }
        const payable = x402Price(prices)
        if (payable === undefined) {
          return yield* new OfferNotPayable({
            detail: "The offer has no current price in an ERC-20 token of an EVM network with a payout address."
          })
        }
        const { erc20, price } = payable
        const domain = yield* domainOf(price.assetCaip19!, erc20.network, erc20.token)
        const requirements = X402.requirementsOf({
          network: erc20.network,
          asset: erc20.token,
          amount: BigInt(price.units) * BigInt(input.quantity),
          payTo: getAddress(price.payoutAddress!),
          domain,
          maxTimeoutSeconds: settings.x402MaxTimeoutSeconds
        })
        const quote: X402Quote = {
          workspaceId: who.workspaceId,
          buyerAccountId: who.accountId,
          priceId: price.priceId,
          quantity: input.quantity,
          network: erc20.network,
          requirements,
          paymentRequired: X402.paymentRequiredOf(
            { url: input.resourceUrl, description: `${price.offerTitle} × ${input.quantity}` },
            requirements
          )
        }
        return quote
      })

    /** The order a confirmed payment of this quote paid, with its settlement, or 409 when it paid another purchase. */
    const replay = (quote: X402Quote, payment: PaymentRecord) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [order] = yield* sql<{ workspaceId: string; priceId: string | null; quantity: number; payer: string | null }>`
          SELECT o.workspace_id AS "workspaceId", o.offer_price_id AS "priceId", o.quantity, p.payer
          FROM orders o JOIN payments p ON p.order_id = o.id WHERE p.id = ${payment.id}`.pipe(Effect.orDie)
        if (
          payment.state !== "CONFIRMED" || order === undefined || order.workspaceId !== quote.workspaceId ||
          order.priceId !== quote.priceId || order.quantity !== quote.quantity
        ) {
          return yield* new PaymentRejected({ detail: "The payment already paid another purchase (payment-already-used)." })
        }
        const settlement: X402.SettleResponse = {
          success: true,
          transaction: payment.transactionHash ?? "",
          network: quote.network as X402.SettleResponse["network"],
          ...(order.payer !== null ? { payer: order.payer.split(":").pop()! } : {})
        }
        return { orderId: payment.orderId, settlement }
      })

    /**
     * Pays `quote` with the `PAYMENT-SIGNATURE` header's payment, exactly once per payment (its
     * natural key: the payer and the EIP-3009 nonce, locked for the transaction): a payment seen
     * before answers the order it paid (the same purchase) or 402 `payment-rejected` (another one);
     * a new one is verified by the facilitator, the order placed, the payment opened, settled by
     * the facilitator and confirmed (order ACTIVE, entitlement ACTIVE), all in the caller's
     * transaction, so a refused settlement leaves nothing. Fails with `InvalidRequest` (not an x402
     * v2 EIP-3009 payment), `ConfigurationMissing` (no facilitator), `PaymentRejected` (verification
     * or settlement refused: the reason code in `detail`), `FacilitatorUnavailable`,
     * `OfferNotPurchasable`.
     */
    const payX402 = (quote: X402Quote, header: string) =>
      Effect.gen(function*() {
        const decoded = X402.decodePayment(header)
        if (decoded === undefined) {
          return yield* new InvalidRequest({
            detail: "PAYMENT-SIGNATURE is not an x402 v2 payment with an EIP-3009 authorization.",
            errors: [{ in: "header", pointer: "/payment-signature", detail: "must be base64 JSON of an x402 v2 exact EVM payload" }]
          })
        }
        const repo = yield* makePaymentsRepo
        yield* repo.lockReference(decoded.reference)
        const seen = yield* findPaymentByReference("X402", decoded.reference)
        if (Option.isSome(seen)) return yield* replay(quote, seen.value)
        if (Option.isNone(settings.x402FacilitatorUrl)) {
          return yield* new ConfigurationMissing({ detail: "No x402 facilitator is configured (X402_FACILITATOR_URL)." })
        }
        const facilitator = settings.x402FacilitatorUrl.value
        const verified = yield* X402.verify(outbound, facilitator, decoded.payload, quote.requirements)
        if (!verified.isValid) {
          return yield* new PaymentRejected({ detail: `The facilitator refused the payment: ${verified.invalidReason ?? "invalid"}.` })
        }
        const at = yield* now
        const placed = yield* placeOrder({
          workspaceId: quote.workspaceId,
          offerPriceId: quote.priceId,
          quantity: quote.quantity,
          buyerAccountId: quote.buyerAccountId
        })
        const payer = `${quote.network}:${getAddress(decoded.payer)}`
        const payment = yield* openPayment({
          orderId: placed.id,
          rail: "X402",
          reference: decoded.reference,
          transactionIntentId: null,
          expiresAt: new Date(at.getTime() + settings.x402MaxTimeoutSeconds * 1000),
          payer
        }).pipe(Effect.catchAll((e) => Effect.die(e)))
        const settlement = yield* X402.settle(outbound, facilitator, decoded.payload, quote.requirements)
        if (!settlement.success) {
          return yield* new PaymentRejected({ detail: `The facilitator did not settle the payment: ${settlement.errorReason ?? "failed"}.` })
        }
        yield* confirmPayment(payment.id, { transactionHash: settlement.transaction.toLowerCase(), payer })
        return { orderId: placed.id, settlement }
      })

    /** The answer of Commerce_CreatePayment: the order after it, the payment, the intent, the x402 resource. */
    const created = (orderId: string, paymentId: string | null, intent: TransactionIntent | null, x402ResourceUrl: string | null) =>
      Effect.gen(function*() {
        const order = yield* (yield* makePaymentsRepo).orderView(orderId)
        const result: CreatedPayment = {
          order,
          payment: paymentId === null ? null : order.payments.find((p) => p.id === paymentId) ?? null,
          transactionIntent: intent,
          x402ResourceUrl
        }
        return result
      })

    /** The order in its wire shape (spec §2.11). */
    const order = (orderId: string) => Effect.flatMap(makePaymentsRepo, (repo) => repo.orderView(orderId))

    /**
     * Commerce_CreatePayment: opens a payment of the order on a rail, for a member of its workspace
     * with `commerce.buy`:
     * - ONCHAIN: a PENDING payment and the OWNER transaction intent of an ERC-20 `transfer` of the
     *   order's total to the offer's payout address, from the buyer's wallet on the order's network
     *   (`payerAddress`, else the buyer's latest registered one), purpose `commerce.payment`; the
     *   payment's reference is the intent's id. The block watcher moves the payment (`Outcomes.ts`).
     * - PROCESSOR: a PENDING payment whose reference is its own id (the metadata the client gives
     *   the processor).
     * - X402: no payment yet: the x402 resource URL that buys the order's offer price.
     *
     * Fails with `OrderNotFound` (unknown, or not a member), `RoleRequired`, `OrderNotPayable`,
     * `OfferNotPayable` (ONCHAIN/X402: not an ERC-20 of an EVM network or no payout address),
     * `PayerWalletRequired`, `ConfigurationMissing`, `ChainRpcUnavailable`.
     */
    const createPayment = (input: {
      readonly accountId: string
      readonly orderId: string
      readonly rail: "ONCHAIN" | "PROCESSOR" | "X402"
      readonly payerAddress: string | undefined
      readonly baseUrl: string
    }) =>
      Effect.gen(function*() {
        const repo = yield* makePaymentsRepo
        const found = yield* repo.payableOrder(input.orderId.toLowerCase(), input.accountId)
        if (Option.isNone(found) || found.value.role === null) {
          return yield* new OrderNotFound({ detail: "No order with this id in a workspace of the caller's." })
        }
        const order = found.value
        if (!can(order.role!, "commerce.buy")) {
          return yield* new RoleRequired({ detail: `Paying an order needs ${rolesInWords("commerce.buy")}.` })
        }
        const at = yield* now
        const expiresAt = new Date(at.getTime() + settings.onchainPaymentTtlSeconds * 1000)
        if (input.rail === "X402") {
          if (order.offerId === null || order.priceId === null || erc20Of(order.assetCaip19) === undefined || order.payoutAddress === null) {
            return yield* new OfferNotPayable({ detail: "The order's price is not payable over x402." })
          }
          const url = `${input.baseUrl}/api/v1/x402/offers/${order.offerId}/purchase?workspaceId=${order.workspaceId}` +
            `&priceId=${order.priceId}&quantity=${order.quantity}`
          return yield* created(order.id, null, null, url)
        }
        if (input.rail === "PROCESSOR") {
          const payment = yield* openPayment({ orderId: order.id, rail: "PROCESSOR", reference: null, transactionIntentId: null, expiresAt })
          yield* repo.setReference(payment.id, payment.id)
          return yield* created(order.id, payment.id, null, null)
        }
        const erc20 = erc20Of(order.assetCaip19)
        if (erc20 === undefined || order.payoutAddress === null) {
          return yield* new OfferNotPayable({ detail: "The order's asset is not an ERC-20 of an EVM network, or its offer has no payout address." })
        }
        if (input.payerAddress !== undefined && !isAddress(input.payerAddress, { strict: false })) {
          return yield* new InvalidRequest({
            detail: "payerAddress is not an EVM address.",
            errors: [{ in: "body", pointer: "/payerAddress", detail: "must be a 0x-prefixed 20-byte hex address" }]
          })
        }
        const wallet = yield* repo.buyerWallet(input.accountId, order.networkId, input.payerAddress)
        if (Option.isNone(wallet)) {
          return yield* new PayerWalletRequired({
            detail: "The buyer has no wallet registered on the order's network" +
              (input.payerAddress === undefined ? "." : " with the address `payerAddress`.")
          })
        }
        const payment = yield* openPayment({ orderId: order.id, rail: "ONCHAIN", reference: null, transactionIntentId: null, expiresAt })
        const intent = yield* intents.prepare({
          network: erc20.network,
          signer: "OWNER",
          from: getAddress(wallet.value),
          to: erc20.token,
          abi: erc20Abi,
          functionName: "transfer",
          args: [getAddress(order.payoutAddress), BigInt(order.totalUnits)],
          purpose: { kind: PaymentPurpose, id: payment.id },
          workspaceId: order.workspaceId,
          ownerAccountId: input.accountId,
          ttlSeconds: settings.onchainPaymentTtlSeconds
        })
        yield* attachTransactionIntent(payment.id, intent.id)
        yield* repo.setReference(payment.id, intent.id)
        return yield* created(order.id, payment.id, intent, null)
      }).pipe(Effect.provideService(Ids, ids))

    return {
      quoteX402: (input: Parameters<typeof quoteX402>[0]) => quoteX402(input),
      payX402: (quote: X402Quote, header: string) => Effect.provideService(payX402(quote, header), Ids, ids),
      createPayment,
      order,
      /** The 402 of a quote without a payment. */
      paymentRequired: (_quote: X402Quote) =>
        new PaymentRequired({ detail: "This resource needs an x402 payment: see the PAYMENT-REQUIRED header." })
    }
  })
}) {}

export { FacilitatorUnavailable }
