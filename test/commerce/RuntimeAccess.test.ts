/**
 * Entitlements gate the runtime (docs/runtime-access.md): an agent selling its runtime (a PUBLISHED
 * offer with `runtime_access`) takes conversations from other workspaces; each run there needs an
 * ACTIVE entitlement with runs left (402 `payment-required` naming the offers otherwise) and uses one.
 * Over real HTTP, the order paid through the commerce settlement.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { IdsSequence } from "../../layers/Ids.js"
import { confirmPayment, openPayment, placeOrder } from "../../src/commerce/index.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const server = makeTestServer()
const atlas = DemoRuntimeAgents.configured
/** The demo price of the PUBLISHED "pro" offer of Atlas' service. */
const publishedPrice = "0190000d-0000-7000-8000-000000000002"

const runsOf = (conversationId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string }>`SELECT state FROM runs WHERE conversation_id = ${conversationId}`)

const runsUsed = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ used: number }>`SELECT COALESCE(sum(e.runs_used), 0)::int AS used FROM entitlements e
    JOIN orders o ON o.id = e.order_id WHERE o.offer_id = ${DemoOffers.published.id}`).pipe(Effect.map((rows) => rows[0]!.used))

layer(Layer.mergeAll(server.layer, IdsSequence("0000ace5")), { timeout: 180_000 })("runtime access through entitlements", (it) => {
  it.effect("a buyer converses with a seller's agent only with an entitlement with runs left", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outsider = yield* signIn("outsider")
      // an agent that sells no runtime access: only its operators converse, as before
      const before = yield* call("POST", `/api/v1/agents/${atlas}/conversations`, { session: outsider, body: {} })
      expectProblem(before, 404, "agent-not-found")

      yield* sql`UPDATE service_offers SET runtime_access = true, run_quota = 1, entitlement_days = 30
        WHERE id = ${DemoOffers.published.id}`
      const created = yield* call("POST", `/api/v1/agents/${atlas}/conversations`, { session: outsider, body: { title: "Buyer" } })
      expect(created.status, created.text).toBe(201)
      const conversationId: string = created.body.data.id
      const messages = `/api/v1/conversations/${conversationId}/messages`

      // no entitlement yet: 402 naming the offer, and no run
      const refused = yield* call("POST", messages, { session: outsider, body: { content: "hello" } })
      expectProblem(refused, 402, "payment-required")
      expect(refused.body.offerIds).toEqual([DemoOffers.published.id])
      expect(yield* runsOf(conversationId)).toEqual([])

      // the buyer's workspace pays an order of the offer
      const order = yield* placeOrder({
        workspaceId: DemoWorkspaces.outsider.id, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: outsider.accountId
      })
      const payment = yield* openPayment({
        orderId: order.id, rail: "PROCESSOR", reference: "pi_runtime_1", transactionIntentId: null, expiresAt: order.paymentDueAt
      })
      expect(Option.getOrThrow(yield* confirmPayment(payment.id, { transactionHash: null })).orderState).toBe("ACTIVE")

      const sent = yield* call("POST", messages, { session: outsider, body: { content: "hello" } })
      expect(sent.status, sent.text).toBe(202)
      expect(yield* runsUsed).toBe(1)
      // the buyer reads its own conversation and run
      const listed = yield* call("GET", messages, { session: outsider })
      expect(listed.status, listed.text).toBe(200)
      const run = yield* call("GET", `/api/v1/runs/${sent.body.data.run.id}`, { session: outsider })
      expect(run.status, run.text).toBe(200)
      yield* waitFor("the run to finish", until(runsOf(conversationId), (rows) => rows.every((r) => r.state === "SUCCEEDED")), 60_000)

      // the quota (one run) is used up
      const spent = yield* call("POST", messages, { session: outsider, body: { content: "again" } })
      expectProblem(spent, 402, "payment-required")
      expect(yield* runsUsed).toBe(1)
      expect((yield* runsOf(conversationId)).length).toBe(1)
    }))

  it.effect("the agent's operators are never metered, and do not see a customer's standing as theirs", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = yield* call("POST", `/api/v1/agents/${atlas}/conversations`, { session: owner, body: {} })
      expect(created.status, created.text).toBe(201)
      const used = yield* runsUsed
      const sent = yield* call("POST", `/api/v1/conversations/${created.body.data.id}/messages`, { session: owner, body: { content: "hi" } })
      expect(sent.status, sent.text).toBe(202)
      expect(yield* runsUsed).toBe(used)
    }))
})
