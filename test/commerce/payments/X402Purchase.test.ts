/**
 * Commerce_PurchaseOfferWithX402 (docs/payments.md) end to end on anvil: `@x402/fetch`'s
 * `wrapFetchWithPayment` with `@x402/evm`'s exact client scheme pays from the buyer's anvil wallet;
 * the server answers 402 with the x402 v2 requirements, then verifies and settles the payment
 * through the local facilitator (demo/chain/facilitator.ts): order ACTIVE, entitlement ACTIVE, the
 * tokens at the payout address, once however often the same payment is sent.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { ExactEvmScheme, toClientEvmSigner } from "@x402/evm"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Effect } from "effect"
import { getAddress } from "viem"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { balanceOf, paymentOverrides, seedSoldOffer, SoldOffer, SoldPrice, SoldPriceUnits, startPaymentChain } from "./support.js"

const chain = await startPaymentChain()
afterAll(async () => {
  await chain.facilitator.stop()
  await chain.anvil.stop()
})
const server = makeTestServer(paymentOverrides(chain))
const buyerWorkspace = DemoWorkspaces.acme.id
const path = (query: string) => `/api/v1/x402/offers/${SoldOffer}/purchase?workspaceId=${buyerWorkspace}&${query}`

/** An x402 client paying from the buyer's anvil wallet, allowed to spend the test token. */
const payingClient = () =>
  x402Client.fromConfig({
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(toClientEvmSigner(chain.anvil.accounts[3] as never, chain.anvil.publicClient as never)) }],
    spendControls: { allowedAssets: [{ network: chain.anvil.network as `${string}:${string}`, asset: chain.token }] }
  })

/** The server's base URL (a real listener on 127.0.0.1). */
const baseUrl = Effect.map(HttpServer.HttpServer, (s) => {
  const address = s.address as HttpServer.TcpAddress
  return `http://127.0.0.1:${address.port}`
})

/** A fetch carrying the session (cookie and CSRF token), as a browser would. */
const sessionFetch = (session: Session): typeof fetch => (input, init) => {
  const request = new Request(input, init)
  request.headers.set("cookie", session.cookie)
  request.headers.set("x-csrf-token", session.csrf)
  return fetch(request)
}

layer(server.layer, { timeout: 120_000 })("Commerce_PurchaseOfferWithX402", (it) => {
  it.effect("402 with the x402 v2 requirements of the price; the problem document as body", () =>
    Effect.gen(function*() {
      yield* seedSoldOffer(chain)
      const owner = yield* signIn("owner")
      const reply = yield* call("POST", path(`priceId=${SoldPrice}&quantity=2`), { session: owner })
      expectProblem(reply, 402, "payment-required")
      const required = decodePaymentRequiredHeader(reply.headers["payment-required"] as string)
      expect(required).toMatchObject({
        x402Version: 2,
        resource: { url: expect.stringContaining(`/api/v1/x402/offers/${SoldOffer}/purchase?`), mimeType: "application/json" },
        accepts: [{
          scheme: "exact",
          network: chain.anvil.network,
          asset: chain.token,
          amount: (SoldPriceUnits * 2n).toString(),
          payTo: getAddress(chain.payout),
          maxTimeoutSeconds: 300,
          extra: { name: "Payment Token", version: "2" }
        }]
      })
      const sql = yield* SqlClient.SqlClient
      const [orders] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM orders WHERE offer_id = ${SoldOffer}`
      expect(orders!.n).toBe(0)
    }))

  it.effect("paid with @x402/fetch: the order ACTIVE with its entitlement, the tokens at the payout address, PAYMENT-RESPONSE", () =>
    Effect.gen(function*() {
      yield* seedSoldOffer(chain)
      const owner = yield* signIn("owner")
      const url = `${yield* baseUrl}${path(`priceId=${SoldPrice}`)}`
      const before = yield* balanceOf(chain, chain.payout)
      const pay = wrapFetchWithPayment(sessionFetch(owner), payingClient())
      const response = yield* Effect.promise(() => pay(url, { method: "POST" }))
      const body = yield* Effect.promise(() => response.json() as Promise<any>)
      expect(response.status, JSON.stringify(body)).toBe(200)
      const order = body.data
      expect(order).toMatchObject({
        state: "ACTIVE",
        workspacePublicId: buyerWorkspace,
        totalUnits: SoldPriceUnits.toString(),
        payments: [{ rail: "X402", state: "CONFIRMED", units: SoldPriceUnits.toString(), transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }],
        entitlements: [{ code: "OUTSIDER_PLAN", state: "ACTIVE", source: "ORDER" }]
      })
      expect(order.paidAt).not.toBeNull()
      const settlement = decodePaymentResponseHeader(response.headers.get("payment-response")!)
      expect(settlement).toMatchObject({ success: true, network: chain.anvil.network, transaction: order.payments[0].transactionHash })
      expect((yield* balanceOf(chain, chain.payout)) - before).toBe(SoldPriceUnits)
      const receipt = yield* Effect.promise(() => chain.anvil.publicClient.getTransactionReceipt({ hash: settlement.transaction as `0x${string}` }))
      expect(receipt.status).toBe("success")
      const sql = yield* SqlClient.SqlClient
      const [payment] = yield* sql<{ reference: string; payer: string }>`SELECT reference, payer FROM payments WHERE id = ${order.payments[0].id}`
      expect(payment!.payer).toBe(`${chain.anvil.network}:${getAddress(chain.buyer)}`)
      expect(payment!.reference).toMatch(new RegExp(`^${chain.buyer.toLowerCase()}:0x[0-9a-f]{64}$`))
      // the order is the buyer's, listed with the workspace's orders
      const listed = yield* call("GET", "/api/v1/orders", { session: owner })
      expect((listed.body.data as Array<{ id: string }>).map((o) => o.id)).toContain(order.id)
    }))

  it.effect("the same payment twice makes one order and one transfer; for another purchase it is refused", () =>
    Effect.gen(function*() {
      yield* seedSoldOffer(chain)
      const owner = yield* signIn("owner")
      const base = yield* baseUrl
      const url = `${base}${path(`priceId=${SoldPrice}`)}`
      // capture the payment the client sends, then send it again by hand
      let sent: string | undefined
      const capturing: typeof fetch = (input, init) => {
        const request = new Request(input, init)
        sent = request.headers.get("payment-signature") ?? sent
        return sessionFetch(owner)(request)
      }
      const before = yield* balanceOf(chain, chain.payout)
      const first = yield* Effect.promise(() => wrapFetchWithPayment(capturing, payingClient())(url, { method: "POST" }))
      expect(first.status).toBe(200)
      const order = (yield* Effect.promise(() => first.json() as Promise<any>)).data
      const again = yield* Effect.promise(() => sessionFetch(owner)(url, { method: "POST", headers: { "payment-signature": sent! } }))
      expect(again.status).toBe(200)
      const replayed = (yield* Effect.promise(() => again.json() as Promise<any>)).data
      expect(replayed.id).toBe(order.id)
      expect(replayed.version).toBe(order.version)
      expect(decodePaymentResponseHeader(again.headers.get("payment-response")!).transaction).toBe(order.payments[0].transactionHash)
      expect((yield* balanceOf(chain, chain.payout)) - before).toBe(SoldPriceUnits)
      const sql = yield* SqlClient.SqlClient
      const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM payments WHERE transaction_hash = ${order.payments[0].transactionHash}`
      expect(count!.n).toBe(1)
      // the payment names another quantity (another purchase): refused, nothing written
      const other = yield* Effect.promise(() =>
        sessionFetch(owner)(`${base}${path(`priceId=${SoldPrice}&quantity=2`)}`, { method: "POST", headers: { "payment-signature": sent! } })
      )
      expect(other.status).toBe(402)
      expect((yield* Effect.promise(() => other.json() as Promise<any>)).type).toMatch(/\/payment-rejected$/)
      expect(other.headers.get("payment-required")).not.toBeNull()
    }))

  it.effect("a tampered payment is refused by the facilitator: 402 payment-rejected, no order, no transfer", () =>
    Effect.gen(function*() {
      yield* seedSoldOffer(chain)
      const owner = yield* signIn("owner")
      const base = yield* baseUrl
      const reply = yield* call("POST", path(`priceId=${SoldPrice}`), { session: owner })
      const required = decodePaymentRequiredHeader(reply.headers["payment-required"] as string)
      const payload = yield* Effect.promise(() => payingClient().createPaymentPayload(required))
      // the payer signed 2.5 tokens; the payload claims a tenth of it
      const auth = (payload.payload as { authorization: { value: string } }).authorization
      auth.value = (SoldPriceUnits / 10n).toString()
      const header = Buffer.from(JSON.stringify(payload)).toString("base64")
      const sql = yield* SqlClient.SqlClient
      const [before] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM orders WHERE offer_id = ${SoldOffer}`
      const refused = yield* Effect.promise(() =>
        sessionFetch(owner)(`${base}${path(`priceId=${SoldPrice}`)}`, { method: "POST", headers: { "payment-signature": header } })
      )
      expect(refused.status).toBe(402)
      const problem = yield* Effect.promise(() => refused.json() as Promise<any>)
      expect(problem.type).toMatch(/\/payment-rejected$/)
      expect(decodePaymentRequiredHeader(refused.headers.get("payment-required")!).error).toContain("refused")
      const [after] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM orders WHERE offer_id = ${SoldOffer}`
      expect(after!.n).toBe(before!.n)
      // garbage is a 400 naming the header
      const garbage = yield* call("POST", path(`priceId=${SoldPrice}`), { session: owner, headers: { "payment-signature": "bm90LWpzb24" } })
      expectProblem(garbage, 400, "invalid-request")
      expect(garbage.body.errors).toEqual([expect.objectContaining({ in: "header", pointer: "/payment-signature" })])
    }))

  it.effect("who may buy: anonymous 401, a non-member 403, a role without commerce.buy 403, an API key with commerce:buy for its workspace", () =>
    Effect.gen(function*() {
      yield* seedSoldOffer(chain)
      expectProblem(yield* call("POST", path(`priceId=${SoldPrice}`)), 401)
      const outsider = yield* signIn("outsider")
      expectProblem(yield* call("POST", path(`priceId=${SoldPrice}`), { session: outsider }), 403, "forbidden")
      const member = yield* signIn("member")
      const sql = yield* SqlClient.SqlClient
      const [role] = yield* sql<{ role: string }>`SELECT role FROM workspace_members WHERE workspace_id = ${buyerWorkspace}
        AND account_id = (SELECT id FROM accounts WHERE email = 'member@demo.agent-directory.dev')`
      if (role !== undefined && !["OWNER", "ADMIN", "BILLING"].includes(role.role)) {
        expectProblem(yield* call("POST", path(`priceId=${SoldPrice}`), { session: member }), 403, "role-required")
      }
      const owner = yield* signIn("owner")
      const noWorkspace = yield* call("POST", `/api/v1/x402/offers/${SoldOffer}/purchase`, { session: owner })
      expectProblem(noWorkspace, 400, "invalid-request")
      expect(noWorkspace.body.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/workspaceId" })])
      expectProblem(yield* call("POST", `/api/v1/x402/offers/0190000d-0000-7000-8000-00000000dead/purchase?workspaceId=${buyerWorkspace}`, { session: owner }), 422, "offer-not-purchasable")
    }))
})
