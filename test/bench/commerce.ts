/**
 * `npm run bench:commerce`: commerce on PostgreSQL (`DATABASE_URL`: a scratch database is created,
 * migrated, seeded with the demo data and dropped here), each figure beside a reference that does
 * only the unavoidable part:
 *
 * - **orders paid per second**: `BENCH_ORDERS` (500) orders of the demo's PUBLISHED offer, each one
 *   transaction of `placeOrder` + `openPayment` (PROCESSOR) + `confirmPayment` (src/commerce/Settlement.ts:
 *   quote, order numbers, conditional moves, the entitlement) — reference: one transaction of plain
 *   INSERTs of the same rows (the order, its payment, its entitlement).
 * - **processor events applied per second**: the same number of signed Stripe `payment_intent.succeeded`
 *   events, each verified on its bytes and applied once (src/commerce/webhooks/ProcessorWebhooks.ts:
 *   signature, the event's row, the confirmation) in one transaction — reference: the signature check
 *   alone (`stripe`'s `constructEvent`). In process, not over HTTP (the HTTP stack's own cost is
 *   `npm run bench:http`'s).
 *
 * - **x402 purchase latency p50/p99**, end to end on a local chain: anvil with the EIP-3009
 *   PaymentToken and the local facilitator (demo/chain/), the server running as `npm run dev` runs it
 *   (`tsx bin/main.ts`, its own process, on the scratch database) with the chain and facilitator
 *   configured; `BENCH_PURCHASES` (40) purchases one after the other, each `@x402/fetch` paying from
 *   a test wallet: the first request's 402, the EIP-3009 signature, the paid request (verify, the
 *   order, settle on chain with its receipt, confirm) — reference: a plain HTTP read of the offer
 *   (Services_GetServiceOffer) on the same server, as many times.
 *
 * Prints a small table.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import Stripe from "stripe"
import { AuthLive } from "../../layers/Auth.js"
import { DbServer } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { seedDemoData } from "../../demo/seed.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { confirmPayment, openPayment, placeOrder } from "../../src/commerce/index.js"
import { ProcessorWebhooks } from "../../src/commerce/webhooks/ProcessorWebhooks.js"
import { testConfigLayer } from "../support/config.js"
import { spawn } from "node:child_process"
import { openSync } from "node:fs"
import { x402Client } from "@x402/core/client"
import { ExactEvmScheme, toClientEvmSigner } from "@x402/evm"
import { wrapFetchWithPayment } from "@x402/fetch"
import { getAddress } from "viem"
import { compileContracts, deployContract } from "../../demo/chain/contracts.js"
import { startAnvil } from "../../demo/chain/anvil.js"
import { startFacilitator } from "../../demo/chain/facilitator.js"
import { admin, quantile, withScratchDatabase } from "./scratch.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const count = Number(process.env["BENCH_ORDERS"] ?? 500)
/** The demo price of the PUBLISHED "pro" offer. */
const publishedPrice = "0190000d-0000-7000-8000-000000000002"
const secret = "whsec_bench_processor_webhooks_0123456789"

const perSecond = (n: number, ms: number) => Math.round((n * 1000) / ms)
const purchases = Number(process.env["BENCH_PURCHASES"] ?? 40)


/**
 * x402 purchases end to end (see the module docs) against the server started on `url`'s database,
 * beside plain reads of the offer; returns the table's rows.
 */
const x402Latency = async (url: string) => {
  const anvil = await startAnvil()
  const facilitator = await startFacilitator(anvil)
  const port = 3900 + Math.floor(Math.random() * 90)
  const base = `http://127.0.0.1:${port}`
  let server: ReturnType<typeof spawn> | undefined
  try {
    // the chain: the payment token, minted to the buyer (anvil account 3), paid out to account 4
    const token = getAddress(await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "PaymentToken"))
    const buyer = anvil.accounts[3]!
    const mint = await anvil.wallet(0).writeContract({
      address: token, abi: compileContracts()["PaymentToken"]!.abi, functionName: "mint", args: [buyer.address, 10n ** 15n],
      account: anvil.accounts[0]!, chain: null
    })
    await anvil.publicClient.waitForTransactionReceipt({ hash: mint, pollingInterval: 50 })
    // the sold offer: the outsider's demo offer, PUBLISHED, priced in the token (the bench's setup, not measured)
    const priceId = randomUUID()
    await admin(url, `
      INSERT INTO networks (id, key, family, display_name, caip2) VALUES ('${randomUUID()}', 'anvil', 'EVM', 'Anvil', '${anvil.network}')
        ON CONFLICT DO NOTHING;
      INSERT INTO assets (id, network_id, symbol, decimals, caip19)
        SELECT '${randomUUID()}', id, 'PAY', 6, '${anvil.network}/erc20:${token.toLowerCase()}' FROM networks WHERE caip2 = '${anvil.network}';
      UPDATE service_offers SET state = 'PUBLISHED', published_at = now(), payout_address = '${anvil.accounts[4]!.address}',
        entitlement_days = 30 WHERE id = '${DemoOffers.foreign.id}';
      INSERT INTO service_offer_prices (id, offer_id, version, network_id, asset_id, units, effective_from, x402_resource_template)
        SELECT '${priceId}', '${DemoOffers.foreign.id}', 99, n.id, a.id, 2500000, now() - interval '1 day', '/api/v1/x402/offers/{offerId}/purchase'
        FROM networks n JOIN assets a ON a.network_id = n.id WHERE n.caip2 = '${anvil.network}';`)
    server = spawn("node_modules/.bin/tsx", ["bin/main.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        PORT: String(port),
        LOG_LEVEL: process.env["BENCH_SERVER_LOG"] === undefined ? "Error" : "Info",
        CHAIN_RPC_URLS: `${anvil.network}=${anvil.rpcUrl}`,
        CHAIN_CONFIRMATIONS: `${anvil.network}=1`,
        X402_FACILITATOR_URL: facilitator.url,
        OUTBOUND_ALLOWED_HOSTS: `${anvil.host},${facilitator.host}`
      },
      stdio: ["ignore", process.env["BENCH_SERVER_LOG"] === undefined ? "ignore" : openSync(process.env["BENCH_SERVER_LOG"], "a"), "inherit"]
    })
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error("the server did not start")
      // each attempt bounded: a request that gets no answer is retried rather than awaited for ever
      const up = await fetch(`${base}/api/v1/protocols`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false)
      if (up) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const signIn = await fetch(`${base}/api/v1/auth/sign-in`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@demo.agent-directory.dev", password: "demo-owner-password" })
    })
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!
    const csrf = ((await signIn.json()) as { data: { csrfToken: string } }).data.csrfToken
    const withSession: typeof fetch = (input, init) => {
      const request = new Request(input, init)
      request.headers.set("cookie", cookie)
      request.headers.set("x-csrf-token", csrf)
      return fetch(request)
    }
    const client = x402Client.fromConfig({
      schemes: [{ network: "eip155:*", client: new ExactEvmScheme(toClientEvmSigner(buyer as never, anvil.publicClient as never)) }],
      spendControls: { allowedAssets: [{ network: anvil.network as `${string}:${string}`, asset: token }] }
    })
    const pay = wrapFetchWithPayment(withSession, client)
    const purchaseUrl = `${base}/api/v1/x402/offers/${DemoOffers.foreign.id}/purchase?workspaceId=${DemoWorkspaces.acme.id}&priceId=${priceId}`
    const paid: Array<number> = []
    const reads: Array<number> = []
    // one warm-up of each, not counted
    for (let i = -1; i < purchases; i++) {
      const t0 = performance.now()
      const response = await pay(purchaseUrl, { method: "POST", signal: AbortSignal.timeout(120_000) })
      const body = await response.text()
      if (response.status !== 200) throw new Error(`purchase answered ${response.status}: ${body}`)
      const t1 = performance.now()
      const read = await withSession(`${base}/api/v1/offers/${DemoOffers.foreign.id}`)
      await read.text()
      if (read.status !== 200) throw new Error(`read answered ${read.status}`)
      if (i >= 0) {
        paid.push(t1 - t0)
        reads.push(performance.now() - t1)
      }
    }
    const ms = (v: number) => `${v.toFixed(1)} ms`
    return [
      { figure: "x402 purchase p50", measured: ms(quantile(paid, 0.5)), reference: ms(quantile(reads, 0.5)), ratio: (quantile(reads, 0.5) / quantile(paid, 0.5)).toFixed(3) },
      { figure: "x402 purchase p99", measured: ms(quantile(paid, 0.99)), reference: ms(quantile(reads, 0.99)), ratio: (quantile(reads, 0.99) / quantile(paid, 0.99)).toFixed(3) }
    ]
  } finally {
    if (server !== undefined) {
      server.kill("SIGTERM")
      await new Promise((resolve) => server!.once("exit", resolve))
    }
    await facilitator.stop()
    await anvil.stop()
  }
}

const run = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const buyer = DemoWorkspaces.outsider.id

  // orders paid, beside plain INSERTs of the same rows
  const o0 = performance.now()
  for (let i = 0; i < count; i++) {
    yield* sql.withTransaction(Effect.gen(function*() {
      const order = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
      const payment = yield* openPayment({
        orderId: order.id, rail: "PROCESSOR", reference: `bench-${i}`, transactionIntentId: null, expiresAt: order.paymentDueAt
      })
      yield* confirmPayment(payment.id, { transactionHash: null })
    }))
  }
  const ordersMs = performance.now() - o0
  const [template] = yield* sql<Record<string, unknown>>`SELECT network_id, asset_id FROM orders WHERE workspace_id = ${buyer} LIMIT 1`
  const r0 = performance.now()
  for (let i = 0; i < count; i++) {
    const orderId = randomUUID()
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`INSERT INTO orders (id, order_number, state, version, workspace_id, product_code, product_name, network_id,
          asset_id, subtotal_units, discount_units, total_units, terms_version, policy_version, created_at, updated_at)
        VALUES (${orderId}, ${`REF-${orderId}`}, 'ACTIVE', 3, ${buyer}, 'PRO', 'Pro', ${template!["network_id"] as string},
          ${template!["asset_id"] as string}, 10000000, 0, 10000000, 1, 1, now(), now())`
      yield* sql`INSERT INTO payments (id, order_id, rail, state, units, expires_at, created_at)
        VALUES (${randomUUID()}, ${orderId}, 'PROCESSOR', 'CONFIRMED', 10000000, now(), now())`
      yield* sql`INSERT INTO entitlements (id, order_id, code, state, source, effective_from, policy_version)
        VALUES (${randomUUID()}, ${orderId}, 'PRO', 'ACTIVE', 'ORDER', now(), 1)`
    }))
  }
  const referenceMs = performance.now() - r0

  // processor events applied, beside the signature check alone
  const webhooks = yield* ProcessorWebhooks
  const events: Array<{ body: string; header: string }> = []
  for (let i = 0; i < count; i++) {
    const paymentId = yield* sql.withTransaction(Effect.gen(function*() {
      const order = yield* placeOrder({ workspaceId: buyer, offerPriceId: publishedPrice, quantity: 1, buyerAccountId: null })
      return (yield* openPayment({
        orderId: order.id, rail: "PROCESSOR", reference: `bench-event-${i}`, transactionIntentId: null, expiresAt: order.paymentDueAt
      })).id
    }))
    const body = JSON.stringify({ id: `evt_bench_${i}`, object: "event", type: "payment_intent.succeeded",
      data: { object: { id: `pi_bench_${i}`, metadata: { paymentId } } } }, null, 2)
    events.push({ body, header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) })
  }
  const w0 = performance.now()
  for (const event of events) {
    const receipt = yield* sql.withTransaction(webhooks.receive({ provider: "stripe", headers: { "stripe-signature": event.header }, body: event.body }))
    if (receipt.outcome !== "APPLIED") return yield* Effect.dieMessage(`event not applied: ${receipt.outcome}`)
  }
  const webhookMs = performance.now() - w0
  const v0 = performance.now()
  for (const event of events) Stripe.webhooks.constructEvent(event.body, event.header, secret, 300)
  const verifyMs = performance.now() - v0
  return [
    { figure: "orders paid /s", measured: perSecond(count, ordersMs), reference: perSecond(count, referenceMs), ratio: (referenceMs / ordersMs).toFixed(2) },
    { figure: "processor events applied /s", measured: perSecond(count, webhookMs), reference: perSecond(count, verifyMs), ratio: (verifyMs / webhookMs).toFixed(2) }
  ]
})

const main = () =>
  withScratchDatabase("commerce", serverUrl, async (url) => {
    const config = testConfigLayer({
      processorWebhooks: { providers: new Map([["stripe", { scheme: "stripe", secret: Redacted.make(secret) }]]) }
    })
    const base = Layer.mergeAll(DbServer(Redacted.make(url), migrate), IdsLive).pipe(Layer.provideMerge(config))
    const layer = Layer.mergeAll(ProcessorWebhooks.Default, AuthLive).pipe(Layer.provideMerge(base))
    const rows = await Effect.runPromise(
      Effect.zipRight(seedDemoData, run).pipe(Effect.provide(layer), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Error), Effect.orDie) as Effect.Effect<
        ReadonlyArray<Record<string, unknown>>
      >
    )
    console.log(`\nbench:commerce on PostgreSQL, ${count} orders and events (offer ${DemoOffers.published.id})`)
    console.table(rows)
    if (purchases > 0) {
      const latency = await x402Latency(url)
      console.log(`${purchases} x402 purchases (reference: a GET of the offer on the same server)`)
      console.table(latency)
    }
  })

void main()
