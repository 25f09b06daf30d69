/**
 * Selling and buying through the directory, end to end over HTTP, on an empty directory (no demo
 * data) with anvil, an EIP-3009 PaymentToken and the local x402 facilitator (demo/chain/), a real
 * SMTP server for sign-up, and the engine's clock (docs/commerce.md, payments.md,
 * processor-webhooks.md, runtime-access.md, ads.md):
 *
 * 1. a seller signs up, makes a workspace and an agent with a runtime, creates an offer selling
 *    its runtime for one day, prices it in the token over x402 (the token named by its CAIP-19 id)
 *    and publishes it;
 * 2. a buyer in another workspace buys it with `@x402/fetch` from a test wallet: the order is
 *    paid (ACTIVE, `paidAt`), the payment CONFIRMED, the entitlement ACTIVE, the tokens at the
 *    seller's payout address;
 * 3. the buyer runs the seller's agent (Runtime_SendMessage on a conversation with it);
 * 4. the day passes on the engine's clock: the lifecycle cron expires the entitlement and the
 *    next run is refused with 402 naming the offer;
 * 5. a second order is paid by a signed processor webhook (Standard Webhooks); the same event
 *    with one byte changed, sent first, is refused and changes nothing;
 * 6. the seller refunds it: REFUND_PENDING, then the processor's refund event makes the order and
 *    the payment REFUNDED and the entitlement REVOKED;
 * 7. an ad package (the operator's rows, sold by the platform's workspace) is bought like any
 *    offer, its campaign created, submitted, approved by an administrator, made ACTIVE by the
 *    clock, served by Growth_ServeAd, and the served token records an impression.
 *
 * Every state is read through the API.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { x402Client } from "@x402/core/client"
import { decodePaymentResponseHeader } from "@x402/core/http"
import { ExactEvmScheme, toClientEvmSigner } from "@x402/evm"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Effect, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { Webhook } from "standardwebhooks"
import { IdsSequence } from "../../layers/Ids.js"
import { createAccount } from "../../src/accounts/AccountCreation.js"
import { totpCode } from "../../src/accounts/mfa/Totp.js"
import { testConfig } from "../support/config.js"
import { call, expectProblem, type Session, signInWith } from "../support/http.js"
import { SmtpInbox } from "../support/smtp.js"
import { makeMailTestServer, testDb } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"
import { balanceOf, paymentOverrides, startPaymentChain } from "./payments/support.js"

const minute = 60_000
const day = 24 * 60 * minute

const chain = await startPaymentChain()
afterAll(async () => {
  await chain.facilitator.stop()
  await chain.anvil.stop()
})

/** The operator's bootstrap account and its workspace, which sells the ad packages (ADS_PLATFORM_WORKSPACE_ID). */
const operatorIds = IdsSequence("0000a0d0")
const platformWorkspace = "0000a0d0-0000-7000-8000-000000000002"
const processorSecret = `whsec_${randomBytes(32).toString("base64")}`

const server = makeMailTestServer({
  ...paymentOverrides(chain),
  // the people stay signed in across the day the entitlement lasts
  sessionTtlSeconds: 3 * 24 * 3600,
  ads: { ...testConfig().ads, platformWorkspaceId: Option.some(platformWorkspace) },
  processorWebhooks: { providers: new Map([["acme-pay", { scheme: "standard", secret: Redacted.make(processorSecret) }]]) }
}, { db: testDb(true) })

/** The `#token=` of the mail's link to `path`. */
const linkToken = (mail: { readonly links: ReadonlyArray<string> }, path: string) => {
  const link = mail.links.find((l) => l.startsWith(`https://directory.test${path}#token=`))
  expect(link, mail.links.join(", ")).toBeDefined()
  return link!.split("#token=")[1]!
}

/** Signs up, verifies from the mailed link, signs in and makes a workspace; returns the session and the workspace. */
const join = (email: string, displayName: string, workspaceName: string) =>
  Effect.gen(function*() {
    const inbox = yield* SmtpInbox
    const password = `${displayName.toLowerCase()}-quiet-lantern-harbor-57`
    const signedUp = yield* call("POST", "/api/v1/auth/sign-up", { body: { email, password, displayName } })
    expect(signedUp.status, signedUp.text).toBe(202)
    const mail = yield* inbox.waitFor(email, { subject: /verify/i })
    const verified = yield* call("POST", "/api/v1/auth/email-verification", { body: { token: linkToken(mail, "/verify-email") } })
    expect(verified.status, verified.text).toBe(200)
    const session = yield* signInWith(email, password)
    const workspace = yield* call("POST", "/api/v1/workspaces", { session, body: { name: workspaceName } })
    expect(workspace.status, workspace.text).toBe(201)
    return { session, workspaceId: workspace.body.data.publicId as string }
  })

/** Asserts a 2xx and returns the envelope's data. */
const ok = (reply: { readonly status: number; readonly text: string; readonly body: any }, status = 200) => {
  expect(reply.status, reply.text).toBe(status)
  return reply.body.data
}

/** The server's base URL (a real listener on 127.0.0.1). */
const baseUrl = Effect.map(HttpServer.HttpServer, (s) => `http://127.0.0.1:${(s.address as HttpServer.TcpAddress).port}`)

/** A fetch carrying the session (cookie and CSRF token), as a browser would. */
const sessionFetch = (session: Session): typeof fetch => (input, init) => {
  const request = new Request(input, init)
  request.headers.set("cookie", session.cookie)
  request.headers.set("x-csrf-token", session.csrf)
  return fetch(request)
}

/** An x402 client paying from the buyer's anvil wallet (account 3), allowed to spend the test token only. */
const payingClient = () =>
  x402Client.fromConfig({
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(toClientEvmSigner(chain.anvil.accounts[3] as never, chain.anvil.publicClient as never)) }],
    spendControls: { allowedAssets: [{ network: chain.anvil.network as `${string}:${string}`, asset: chain.token }] }
  })

/** A Standard Webhooks delivery of the processor "acme-pay", signed at the server's clock; `tamper` changes one byte after signing. */
const processorEvent = (id: string, type: string, data: Record<string, unknown>, tamper = false) => {
  const at = new Date(server.clock.unsafeCurrentTimeMillis())
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data })
  const signature = new Webhook(processorSecret).sign(id, at, body)
  // one byte of the signed body changed: the payment id's last character
  const sent = tamper ? body.replace(/"paymentId":"([^"]*)(.)"/, (_m, head: string, last: string) => `"paymentId":"${head}${last === "0" ? "1" : "0"}"`) : body
  if (tamper) expect(sent.length === body.length && sent !== body).toBe(true)
  return call("POST", "/api/v1/webhooks/acme-pay", {
    raw: sent,
    contentType: "application/json",
    idempotencyKey: null,
    headers: { "webhook-id": id, "webhook-timestamp": Math.floor(at.getTime() / 1000).toString(), "webhook-signature": signature }
  })
}

layer(server.layer, { timeout: 300_000 })("commerce journey on an empty directory", (it) => {
  it.effect("offer → x402 purchase → run → expiry → processor payment → refund → an ad served", () =>
    Effect.gen(function*() {
      // the operator bootstraps the deployment: the first administrator and the platform's workspace
      yield* createAccount({
        email: "root@example.com",
        password: "sturdy-granite-falcon-31",
        displayName: "Root",
        workspaceName: "Agent Directory Platform"
      }).pipe(Effect.provide(operatorIds), Effect.orDie)

      // 1. the seller: a workspace, an agent with a runtime, an offer of its runtime priced in the token over x402
      const seller = yield* join("seller@example.com", "Sally", "Sally's Agents")
      const agent = ok(yield* call("POST", "/api/v1/agents", {
        session: seller.session,
        body: { workspaceId: seller.workspaceId, name: "Quill", canonicalSlug: "quill-writer", tagline: "Writes for you." }
      }), 201)
      ok(yield* call("PUT", `/api/v1/agents/${agent.publicId}/runtime`, {
        session: seller.session,
        body: { provider: "deterministic", model: "demo-echo-1", instructions: "You are Quill, a writer." }
      }), 201)
      const networks = ok(yield* call("GET", "/api/v1/networks"))
      const network = networks.find((n: { network: string }) => n.network === chain.anvil.network)
      expect(network, JSON.stringify(networks)).toBeDefined()
      const created = ok(yield* call("POST", "/api/v1/offers", {
        session: seller.session,
        body: {
          agentId: agent.publicId,
          title: "Quill by the day",
          slug: "quill-day",
          description: "Converse with Quill for a day.",
          pricingModel: "SUBSCRIPTION",
          termsMarkdown: "# Terms\n\nOne day of conversations with Quill.",
          fulfillment: { entitlementDays: 1, runtimeAccess: true, payoutAddress: chain.payout }
        }
      }), 201)
      expect(created).toMatchObject({ state: "DRAFT", version: 1, fulfillment: { entitlementCode: "QUILL_DAY", runtimeAccess: true } })
      const priced = ok(yield* call("PUT", `/api/v1/offers/${created.id}/prices`, {
        session: seller.session,
        body: {
          version: 1,
          prices: [{
            networkPublicId: network.publicId,
            assetPublicId: `${chain.anvil.network}/erc20:${chain.token}`,
            units: "2500000",
            x402: true
          }]
        }
      }))
      expect(priced.prices).toEqual([expect.objectContaining({
        networkPublicId: network.publicId,
        units: "2500000",
        x402ResourceTemplate: "/api/v1/x402/offers/{offerId}/purchase"
      })])
      const price = priced.prices[0]
      const published = ok(yield* call("POST", `/api/v1/offers/${created.id}/publish`, { session: seller.session, body: { version: priced.version } }))
      expect(published.state).toBe("PUBLISHED")
      const listed = ok(yield* call("GET", `/api/v1/agents/${agent.publicId}/offers`))
      expect(listed.map((o: { id: string }) => o.id)).toEqual([created.id])

      // 2. the buyer, in another workspace, buys it with @x402/fetch from its wallet
      const buyer = yield* join("buyer@example.com", "Bert", "Bert's Bureau")
      const payoutBefore = yield* balanceOf(chain, chain.payout)
      const purchaseUrl = `${yield* baseUrl}/api/v1/x402/offers/${created.id}/purchase?workspaceId=${buyer.workspaceId}&priceId=${price.id}`
      const response = yield* Effect.promise(() => wrapFetchWithPayment(sessionFetch(buyer.session), payingClient())(purchaseUrl, { method: "POST" }))
      const purchase = yield* Effect.promise(() => response.json() as Promise<any>)
      expect(response.status, JSON.stringify(purchase)).toBe(200)
      const settlement = decodePaymentResponseHeader(response.headers.get("payment-response")!)
      expect(settlement).toMatchObject({ success: true, network: chain.anvil.network })
      const firstOrderId: string = purchase.data.id
      const firstOrder = ok(yield* call("GET", `/api/v1/orders/${firstOrderId}`, { session: buyer.session }))
      expect(firstOrder).toMatchObject({
        state: "ACTIVE",
        workspacePublicId: buyer.workspaceId,
        totalUnits: "2500000",
        payments: [{ rail: "X402", state: "CONFIRMED", units: "2500000", transactionHash: settlement.transaction }],
        entitlements: [{ code: "QUILL_DAY", state: "ACTIVE", source: "ORDER" }]
      })
      expect(firstOrder.paidAt).not.toBeNull()
      expect((yield* balanceOf(chain, chain.payout)) - payoutBefore).toBe(2_500_000n)
      // the seller sees the order of its offer too
      expect(ok(yield* call("GET", `/api/v1/orders/${firstOrderId}`, { session: seller.session })).id).toBe(firstOrderId)
      const entitlements = () => call("GET", `/api/v1/workspaces/${buyer.workspaceId}/entitlements`, { session: buyer.session })
      expect(ok(yield* entitlements())).toEqual([expect.objectContaining({ code: "QUILL_DAY", state: "ACTIVE" })])

      // 3. the buyer runs the seller's agent
      const conversation = ok(yield* call("POST", `/api/v1/agents/${agent.publicId}/conversations`, {
        session: buyer.session,
        body: { title: "Bert and Quill" }
      }), 201)
      const messages = `/api/v1/conversations/${conversation.id}/messages`
      const sent = ok(yield* call("POST", messages, { session: buyer.session, body: { content: "Write me a haiku." } }), 202)
      yield* waitFor("the run to succeed", Effect.map(call("GET", `/api/v1/runs/${sent.run.id}`, { session: buyer.session }), (r) =>
        r.body.data?.state === "SUCCEEDED" ? r.body.data : undefined), 60_000)

      // 4. a day later the lifecycle cron has expired the entitlement; the next run is refused with 402
      server.clock.advance(day + 2 * minute)
      yield* waitFor("the entitlement EXPIRED", until(Effect.map(entitlements(), (r) => r.body.data?.[0]?.state), (s) => s === "EXPIRED", (s) => `still ${s}`), 60_000)
      const refused = yield* call("POST", messages, { session: buyer.session, body: { content: "Another one." } })
      expectProblem(refused, 402, "payment-required")
      expect(refused.body.offerIds).toEqual([created.id])

      // 5. a second order, paid through the processor: a PENDING payment, then its signed webhook
      const secondOrder = ok(yield* call("POST", "/api/v1/orders", {
        session: buyer.session,
        body: { offerPriceId: price.id, workspaceId: buyer.workspaceId }
      }), 201)
      expect(secondOrder).toMatchObject({ state: "CREATED", totalUnits: "2500000" })
      const opened = ok(yield* call("POST", `/api/v1/orders/${secondOrder.id}/payments`, { session: buyer.session, body: { rail: "PROCESSOR" } }), 201)
      const paymentId: string = opened.payment.id
      const orderOf = (id: string) => Effect.map(call("GET", `/api/v1/orders/${id}`, { session: buyer.session }), (r) => ok(r))
      const pending = yield* orderOf(secondOrder.id)
      expect(pending).toMatchObject({ state: "PAYMENT_PENDING", payments: [{ id: paymentId, rail: "PROCESSOR", state: "PENDING" }], entitlements: [] })
      // the event with one byte changed: refused, nothing changed (the same event id is then still new)
      expectProblem(yield* processorEvent("msg_paid_2", "payment.succeeded", { paymentId }, true), 401, "webhook-signature-invalid")
      expect(yield* orderOf(secondOrder.id)).toEqual(pending)
      const applied = ok(yield* processorEvent("msg_paid_2", "payment.succeeded", { paymentId }))
      expect(applied).toMatchObject({ provider: "acme-pay", eventId: "msg_paid_2", outcome: "APPLIED", paymentId, duplicate: false })
      const paid = yield* orderOf(secondOrder.id)
      expect(paid).toMatchObject({
        state: "ACTIVE",
        version: pending.version + 2,
        payments: [{ id: paymentId, state: "CONFIRMED" }],
        entitlements: [{ code: "QUILL_DAY", state: "ACTIVE" }]
      })
      // the replayed event changes nothing; the tampered one still does not either
      expect(ok(yield* processorEvent("msg_paid_2", "payment.succeeded", { paymentId }))).toMatchObject({ duplicate: true })
      expectProblem(yield* processorEvent("msg_paid_2", "payment.succeeded", { paymentId }, true), 401, "webhook-signature-invalid")
      expect(yield* orderOf(secondOrder.id)).toEqual(paid)
      // runs again on the new entitlement
      const rerun = ok(yield* call("POST", messages, { session: buyer.session, body: { content: "Another one." } }), 202)
      // finished before the next message: a conversation's active run answers 409 before any entitlement is asked
      yield* waitFor("the second run to succeed", Effect.map(call("GET", `/api/v1/runs/${rerun.run.id}`, { session: buyer.session }), (r) =>
        r.body.data?.state === "SUCCEEDED" ? r.body.data : undefined), 60_000)

      // 6. the seller refunds it: REFUND_PENDING, then the processor's refund event completes it
      const refunding = ok(yield* call("POST", `/api/v1/orders/${secondOrder.id}/refund`, {
        session: seller.session,
        body: { expectedVersion: (yield* orderOf(secondOrder.id)).version, reason: "The buyer asked for it back." }
      }), 202)
      expect(refunding).toMatchObject({ state: "REFUND_PENDING", payments: [{ id: paymentId, state: "REFUND_PENDING" }] })
      ok(yield* processorEvent("msg_refund_2", "payment.refunded", { paymentId }))
      expect(yield* orderOf(secondOrder.id)).toMatchObject({
        state: "REFUNDED",
        payments: [{ id: paymentId, state: "REFUNDED" }],
        entitlements: [{ code: "QUILL_DAY", state: "REVOKED" }]
      })
      expectProblem(yield* call("POST", messages, { session: buyer.session, body: { content: "And again." } }), 402, "payment-required")

      // 7. ads: the operator adds a package (its rows; docs/ads.md), the platform's workspace sells it within a minute
      const sql = yield* SqlClient.SqlClient
      const adPackage = "0000a0d0-0000-7000-8000-0000000000a1"
      const adVersion = "0000a0d0-0000-7000-8000-0000000000a2"
      yield* sql`INSERT INTO ad_packages (id, code, name, placement_kind, created_at)
                 VALUES (${adPackage}, 'AD_STRIP', 'Strip ad placement', 'STRIP', ${new Date(server.clock.unsafeCurrentTimeMillis())})`
      yield* sql`INSERT INTO ad_package_versions (id, package_id, version, asset_id, price_units, duration_days, created_at)
                 VALUES (${adVersion}, ${adPackage}, 1, ${price.assetPublicId}, 5000000, 7, ${new Date(server.clock.unsafeCurrentTimeMillis())})`
      server.clock.advance(minute + 5_000)
      const adPrice = yield* waitFor("the package's offer price", Effect.map(
        sql<{ id: string | null }>`SELECT offer_price_id AS id FROM ad_package_versions WHERE id = ${adVersion}`,
        (rows) => rows[0]?.id ?? undefined
      ), 60_000)
      // the buyer buys it like any offer, paid through the processor
      const adOrder = ok(yield* call("POST", "/api/v1/orders", { session: buyer.session, body: { offerPriceId: adPrice, workspaceId: buyer.workspaceId } }), 201)
      const adPayment = ok(yield* call("POST", `/api/v1/orders/${adOrder.id}/payments`, { session: buyer.session, body: { rail: "PROCESSOR" } }), 201)
      ok(yield* processorEvent("msg_ad_1", "payment.succeeded", { paymentId: adPayment.payment.id }))
      expect(yield* orderOf(adOrder.id)).toMatchObject({ state: "ACTIVE", productCode: "AD_STRIP" })
      const campaign = ok(yield* call("POST", "/api/v1/ads/campaigns", {
        session: buyer.session,
        body: {
          workspaceId: buyer.workspaceId,
          orderId: adOrder.id,
          packageVersionId: adVersion,
          name: "Bert's Bureau in German",
          destinationUrl: "https://bureau.example/de",
          startAt: new Date(server.clock.unsafeCurrentTimeMillis()).toISOString(),
          headline: "Bert's Bureau spricht Deutsch",
          targets: [{ dimension: "LANGUAGE", value: "de" }]
        }
      }), 201)
      expect(campaign).toMatchObject({ state: "DRAFT", version: 1 })
      const submitted = ok(yield* call("POST", `/api/v1/ads/campaigns/${campaign.id}/submit`, { session: buyer.session, body: { expectedVersion: 1 } }))
      expect(submitted).toMatchObject({ state: "SUBMITTED", version: 2 })
      // an administrator (with the second factor administrator operations need) approves it
      const admin = yield* signInWith("root@example.com", "sturdy-granite-falcon-31")
      const totp = ok(yield* call("POST", "/api/v1/me/mfa/totp", { session: admin }))
      const codeNow = totpCode(totp.secret, new Date(server.clock.unsafeCurrentTimeMillis() - 30_000))
      ok(yield* call("POST", "/api/v1/me/mfa/totp/confirm", { session: admin, body: { code: codeNow } }))
      const approved = ok(yield* call("POST", `/api/v1/admin/ads/campaigns/${campaign.id}/review`, {
        session: admin,
        body: {
          decision: "APPROVE",
          expectedVersion: 2,
          decisionCode: "POLICY_OK",
          publicDecision: "The campaign meets the ad policy.",
          privateDecision: "Checked the destination.",
          dryRun: false,
          confirmation: `APPROVE ${campaign.id}`
        }
      }), 202)
      expect(approved.campaign).toMatchObject({ state: "APPROVED", version: 3 })
      server.clock.advance(minute + 5_000)
      const campaignOf = Effect.map(call("GET", "/api/v1/ads/campaigns", { session: buyer.session }), (r) =>
        (ok(r) as Array<any>).find((c) => c.id === campaign.id))
      yield* waitFor("the campaign ACTIVE", until(campaignOf, (c) => c?.state === "ACTIVE", (c) => `still ${c?.state}`), 60_000)
      const served = ok(yield* call("GET", "/api/v1/ads/serve?placement=STRIP&language=de&visitor=visitor-1"))
      expect(served).toMatchObject({ campaignId: campaign.id, placementKind: "STRIP", creative: { headline: "Bert's Bureau spricht Deutsch" } })
      expect(ok(yield* call("GET", "/api/v1/ads/serve?placement=STRIP&language=en"))).toBeNull()
      ok(yield* call("POST", "/api/v1/ads/events", { body: { token: served.token, kind: "IMPRESSION" } }), 202)
      expect((yield* campaignOf).metrics).toEqual({ impressions: "1", clicks: "0", uniqueVisitors: "1" })
    }))
})
