/**
 * A refund on chain (docs/commerce.md, "Refunds by rail"), on anvil: an order of Acme's offer priced
 * in a TestToken is paid on the ONCHAIN rail by the buyer's account (the settlement confirms the
 * payment with its payer); Acme's owner refunds it: the order and the payment are REFUND_PENDING
 * and the payment names the refund's transaction intent (an ERC-20 `transfer` from the offer's
 * payout address back to the payer, OWNER-signed); the owner signs and submits it, and when the
 * block watcher confirms it the payment and the order are REFUNDED and the entitlement REVOKED.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { decodeFunctionData, getAddress, type Hex, parseTransaction } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { DemoOffers } from "../../../demo/services/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { IdsSequence } from "../../../layers/Ids.js"
import { confirmPayment, openPayment } from "../../../src/commerce/index.js"
import { call, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"
import { chainOverrides, erc20, startTokenChain } from "../../wallets/intents/support.js"

const { anvil, token } = await startTokenChain()
const server = makeTestServer(chainOverrides(anvil))
const seller = anvil.accounts[1]! // the offer's payout address, Acme owner's wallet (holds TestTokens)
const buyer = anvil.accounts[2]!.address

const ids = {
  network: "0190dddd-0000-7000-8000-000000000001",
  asset: "0190dddd-0000-7000-8000-000000000002",
  price: "0190dddd-0000-7000-8000-000000000003"
}

const balanceOf = (address: `0x${string}`) =>
  Effect.promise(() => anvil.publicClient.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [address] }))

layer(server.layer, { timeout: 180_000 })("an on-chain refund", (it) => {
  it.effect("goes back to the payer as the seller's signed transfer and completes when it is confirmed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // the anvil chain and its TestToken in the directory, a price of Acme's Pro plan in it, paid to the owner's wallet
      // (the configured chain's network row may already be there: the block watcher adds it)
      yield* sql`INSERT INTO networks (id, key, family, display_name, caip2)
          VALUES (${ids.network}, ${anvil.network}, 'EVM', 'Anvil', ${anvil.network}) ON CONFLICT DO NOTHING`
      const [network] = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${anvil.network}`
      yield* sql`INSERT INTO assets (id, network_id, symbol, decimals, caip19)
          VALUES (${ids.asset}, ${network!.id}, 'TST', 18, ${`${anvil.network}/erc20:${token.toLowerCase()}`})`
      yield* sql`INSERT INTO service_offer_prices (id, offer_id, version, network_id, asset_id, units, effective_from)
          VALUES (${ids.price}, ${DemoOffers.published.id}, 2, ${network!.id}, ${ids.asset}, 700, '2026-01-01T00:00:00Z')`
      yield* sql`UPDATE service_offers SET payout_address = ${seller.address}, entitlement_days = 30 WHERE id = ${DemoOffers.published.id}`

      const outsider = yield* signIn("outsider")
      const placed = yield* call("POST", "/api/v1/orders", {
        session: outsider,
        body: { offerPriceId: ids.price, workspaceId: DemoWorkspaces.outsider.id }
      })
      expect(placed.status, placed.text).toBe(201)
      const orderId: string = placed.body.data.id
      // the rail's part (the chain watcher's, in production): the buyer's transfer confirmed
      const paymentId = yield* sql.withTransaction(Effect.gen(function*() {
        const payment = yield* openPayment({
          orderId,
          rail: "ONCHAIN",
          reference: `test:${orderId}`,
          transactionIntentId: null,
          expiresAt: new Date(Date.now() + 3_600_000),
          payer: `${anvil.network}:${buyer}`
        })
        yield* confirmPayment(payment.id, { transactionHash: `0x${"ab".repeat(32)}` })
        return payment.id
      })).pipe(Effect.provide(IdsSequence("0000000d")), Effect.orDie)

      const owner = yield* signIn("owner")
      const paid = yield* call("GET", `/api/v1/orders/${orderId}`, { session: owner })
      expect(paid.body.data.state).toBe("ACTIVE")
      const refund = yield* call("POST", `/api/v1/orders/${orderId}/refund`, {
        session: owner,
        body: { expectedVersion: paid.body.data.version, reason: "Service not delivered." }
      })
      expect(refund.status, refund.text).toBe(202)
      expect(refund.body.data.state).toBe("REFUND_PENDING")
      const payment = refund.body.data.payments[0]
      expect(payment).toMatchObject({ id: paymentId, rail: "ONCHAIN", state: "REFUND_PENDING", transactionHash: `0x${"ab".repeat(32)}` })
      expect(refund.body.data.entitlements[0].state).toBe("ACTIVE")

      // the refund's intent: the seller's transfer of the paid units back to the payer
      const intent = yield* call("GET", `/api/v1/transaction-intents/${payment.transactionIntentPublicId}`, { session: owner })
      expect(intent.status, intent.text).toBe(200)
      expect(intent.body.data).toMatchObject({ state: "AWAITING_SIGNATURE", signer: "OWNER", from: seller.address, to: getAddress(token) })
      expect(decodeFunctionData({ abi: erc20, data: intent.body.data.data }).args).toEqual([buyer, 700n])

      const before = yield* balanceOf(buyer)
      const { r: _r, s: _s, v: _v, yParity: _y, ...tx } = parseTransaction(intent.body.data.unsignedTransaction as Hex) as Record<
        string,
        unknown
      >
      const signed = yield* Effect.promise(() => privateKeyToAccount(anvil.privateKeys[1]!).signTransaction(tx as never))
      const submitted = yield* call("POST", `/api/v1/transaction-intents/${intent.body.data.id}/submit`, {
        session: owner,
        body: { signedTransaction: signed }
      })
      expect(submitted.status, submitted.text).toBe(200)

      const refunded = yield* waitFor(
        "the order REFUNDED",
        until(call("GET", `/api/v1/orders/${orderId}`, { session: owner }), (r) => r.body.data?.state === "REFUNDED"),
        60_000
      )
      expect(refunded.body.data.payments[0].state).toBe("REFUNDED")
      expect(refunded.body.data.entitlements[0].state).toBe("REVOKED")
      expect((yield* balanceOf(buyer)) - before).toBe(700n)
    }))
})

afterAll(() => anvil.stop())
