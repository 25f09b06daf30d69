/**
 * Commerce_CreatePayment (docs/payments.md) on anvil: an ONCHAIN payment's transaction intent (an
 * ERC-20 transfer to the payout address from the buyer's wallet) signed by the buyer and submitted
 * with Wallets_SubmitTransactionIntent; the block watcher observes and confirms it and the order is
 * ACTIVE; a reorganisation that drops the transfer's block puts the payment back to PENDING. Also
 * the PROCESSOR and X402 rails' answers.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { getAddress, type Hex, parseTransaction } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { IdsSequence } from "../../../layers/Ids.js"
import { placeOrder } from "../../../src/commerce/index.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { waitFor } from "../../support/waitFor.js"
import { balanceOf, paymentOverrides, seedSoldOffer, SoldPrice, SoldPriceUnits, startPaymentChain } from "./support.js"

const chain = await startPaymentChain()
afterAll(async () => {
  await chain.facilitator.stop()
  await chain.anvil.stop()
})
// blocks are mined by the tests from here on, so the watcher sees each one the transfer lands in
await chain.anvil.testClient.setAutomine(false)
const server = makeTestServer(paymentOverrides(chain))
const acme = DemoWorkspaces.acme.id

let orders = 0
/** The test's offer and the buyer's wallet on anvil, and a new order of the owner's for the offer's price. */
const newOrder = Effect.suspend(() => Effect.gen(function*() {
  yield* seedSoldOffer(chain)
  const sql = yield* SqlClient.SqlClient
  const [network] = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${chain.anvil.network}`
  yield* sql`INSERT INTO wallets (id, owner_account_id, network_id, address, created_at, workspace_id)
    VALUES ('0190000d-0000-7000-8000-0000000000e3', ${DemoAccounts.owner.id}, ${network!.id}, ${getAddress(chain.buyer)},
      now(), ${acme})
    ON CONFLICT DO NOTHING`
  const placed = yield* sql.withTransaction(placeOrder({ workspaceId: acme, offerPriceId: SoldPrice, quantity: 1, buyerAccountId: DemoAccounts.owner.id }))
  return placed.id
}).pipe(Effect.provide(IdsSequence(`0000c0f${(orders += 1).toString(16)}`)), Effect.orDie))

const pay = (session: Session, orderId: string, body: Record<string, unknown>) =>
  call("POST", `/api/v1/orders/${orderId}/payments`, { session, body })

const orderOf = (session: Session, id: string) =>
  Effect.map(call("GET", "/api/v1/orders", { session }), (r) => (r.body.data as Array<any>).find((o) => o.id === id))

const signAndSubmit = (session: Session, intent: { id: string; unsignedTransaction: string }) =>
  Effect.gen(function*() {
    const { r: _r, s: _s, v: _v, yParity: _y, ...tx } = parseTransaction(intent.unsignedTransaction as Hex) as Record<string, unknown>
    const signed = yield* Effect.promise(() => privateKeyToAccount(chain.anvil.privateKeys[3]!).signTransaction(tx as never))
    const submitted = yield* call("POST", `/api/v1/transaction-intents/${intent.id}/submit`, { body: { signedTransaction: signed }, session })
    expect(submitted.status, submitted.text).toBe(200)
    return submitted.body.data.transactionHash as string
  })

const mine = Effect.promise(() => chain.anvil.testClient.mine({ blocks: 1 }))

layer(server.layer, { timeout: 180_000 })("Commerce_CreatePayment", (it) => {
  it.effect("ONCHAIN: the buyer signs and submits the transfer; the watcher observes then confirms it; order ACTIVE", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const orderId = yield* newOrder
      const created = yield* pay(owner, orderId, { rail: "ONCHAIN" })
      expect(created.status, created.text).toBe(201)
      const { order, payment, transactionIntent, x402ResourceUrl } = created.body.data
      expect(x402ResourceUrl).toBeNull()
      expect(order).toMatchObject({ id: orderId, state: "PAYMENT_PENDING" })
      expect(payment).toMatchObject({ rail: "ONCHAIN", state: "PENDING", units: SoldPriceUnits.toString(), transactionIntentPublicId: transactionIntent.id })
      expect(transactionIntent).toMatchObject({
        state: "AWAITING_SIGNATURE",
        signer: "OWNER",
        from: getAddress(chain.buyer),
        to: chain.token,
        call: { functionName: "transfer", args: [getAddress(chain.payout), SoldPriceUnits.toString()] }
      })
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ reference: string; kind: string; purpose: string }>`SELECT p.reference, t.purpose_kind AS kind,
          t.purpose_id AS purpose FROM payments p JOIN transaction_intents t ON t.id = p.transaction_intent_id WHERE p.id = ${payment.id}`
      expect(row).toEqual({ reference: transactionIntent.id, kind: "commerce.payment", purpose: payment.id })
      const before = yield* balanceOf(chain, chain.payout)
      const hash = yield* signAndSubmit(owner, transactionIntent)
      yield* mine
      const observed = yield* waitFor("the payment OBSERVED", Effect.map(orderOf(owner, orderId), (o) => o.state === "PAYMENT_OBSERVED" ? o : undefined), 30_000, 200)
      expect(observed.payments[0]).toMatchObject({ state: "OBSERVED", transactionHash: hash })
      yield* mine
      const active = yield* waitFor("the order ACTIVE", Effect.map(orderOf(owner, orderId), (o) => o.state === "ACTIVE" ? o : undefined), 30_000, 200)
      expect(active.payments[0]).toMatchObject({ state: "CONFIRMED", transactionHash: hash })
      expect(active.entitlements).toEqual([expect.objectContaining({ code: "OUTSIDER_PLAN", state: "ACTIVE" })])
      expect((yield* balanceOf(chain, chain.payout)) - before).toBe(SoldPriceUnits)
      // paid: no further payment
      expectProblem(yield* pay(owner, orderId, { rail: "PROCESSOR" }), 409, "order-not-payable")
    }))

  it.effect("ONCHAIN: a reorganisation that drops the transfer's block puts the payment back to PENDING", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const orderId = yield* newOrder
      const created = yield* pay(owner, orderId, { rail: "ONCHAIN", payerAddress: chain.buyer })
      expect(created.status, created.text).toBe(201)
      yield* signAndSubmit(owner, created.body.data.transactionIntent)
      yield* mine
      yield* waitFor("the payment OBSERVED", Effect.map(orderOf(owner, orderId), (o) => o.state === "PAYMENT_OBSERVED" ? o : undefined), 30_000, 200)
      yield* Effect.promise(() => chain.anvil.testClient.request({ method: "anvil_reorg", params: [1, []] } as never))
      const back = yield* waitFor("the payment PENDING again", Effect.map(orderOf(owner, orderId), (o) => o.state === "PAYMENT_PENDING" ? o : undefined), 30_000, 200)
      expect(back.payments[0]).toMatchObject({ state: "PENDING", transactionHash: null })
    }))

  it.effect("PROCESSOR: a PENDING payment referenced by its id; X402: the resource URL; refusals", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const orderId = yield* newOrder
      const processor = yield* pay(owner, orderId, { rail: "PROCESSOR" })
      expect(processor.status, processor.text).toBe(201)
      expect(processor.body.data).toMatchObject({ payment: { rail: "PROCESSOR", state: "PENDING" }, transactionIntent: null, x402ResourceUrl: null })
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ reference: string }>`SELECT reference FROM payments WHERE id = ${processor.body.data.payment.id}`
      expect(row!.reference).toBe(processor.body.data.payment.id)
      const x402 = yield* pay(owner, orderId, { rail: "X402" })
      expect(x402.status, x402.text).toBe(201)
      expect(x402.body.data.payment).toBeNull()
      expect(x402.body.data.x402ResourceUrl).toMatch(new RegExp(`/api/v1/x402/offers/[0-9a-f-]{36}/purchase\\?workspaceId=${acme}&priceId=${SoldPrice}&quantity=1$`))
      // no wallet of the member's on the network; an outsider does not see the order
      expectProblem(yield* pay(owner, orderId, { rail: "ONCHAIN", payerAddress: chain.payout }), 422, "payer-wallet-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* pay(outsider, orderId, { rail: "PROCESSOR" }), 404, "order-not-found")
      expectProblem(yield* pay(owner, orderId, { rail: "ADMIN" }), 400, "invalid-request")
    }))
})
