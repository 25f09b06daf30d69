/**
 * Buying an offer in Chromium, paid on chain (docs/payments.md, the ONCHAIN rail) against anvil
 * with the test PaymentToken (test/commerce/payments/support.ts: the outsider's offer PUBLISHED,
 * priced 2.5 tokens on anvil, paid out to anvil account 4). The demo owner's browser wallet is a
 * test EIP-1193 provider signing with anvil account 3's key (holding the tokens) and sending to
 * anvil. The owner opens `/offers/{offerId}/buy` signed out, signs in and comes back, chooses the
 * price, a quantity and the Acme workspace and places the order; then pays with the wallet:
 *
 * 1. the address is not a wallet of the owner's yet, so the page registers it with a signed
 *    Sign-In with Ethereum message, which the service parses and refuses for its domain (the test
 *    server's PUBLIC_BASE_URL is not the page's origin): the refusal is shown, nothing is paid;
 * 2. the wallet registered by the test, the transfer is sent with `eth_sendTransaction`, its bytes
 *    handed to the service, and the page follows the order while blocks are mined until the
 *    watcher confirms it: ACTIVE with its entitlement, the tokens at the payout address, and the
 *    workspace page lists the entitlement.
 *
 * axe finds no serious violation on the buy page.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Fiber, Schedule } from "effect"
import { getAddress } from "viem"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { balanceOf, paymentOverrides, seedSoldOffer, SoldOffer, SoldPrice, SoldPriceUnits, startPaymentChain } from "../commerce/payments/support.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { browser, openPage, origin, seriousViolations, step } from "./support.js"
import { injectWallet, makeTestWallet } from "./wallet.js"

const chain = await startPaymentChain()
afterAll(async () => {
  await chain.facilitator.stop()
  await chain.anvil.stop()
})
const server = makeTestServer(paymentOverrides(chain), { edge: true })
const acme = DemoWorkspaces.acme.id

/**
 * The owner's wallet (the chain's buyer, anvil account 3) registered in Acme on anvil's network, as
 * Wallets_RegisterWallet would: the page's Sign-In with Ethereum message names the page's host,
 * and the test server's PUBLIC_BASE_URL is another, so the page cannot register it here.
 */
const registerWallet = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [network] = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${chain.anvil.network}`
  yield* sql`INSERT INTO wallets (id, owner_account_id, network_id, address, created_at, workspace_id)
    VALUES ('0190000d-0000-7000-8000-0000000000e4', ${DemoAccounts.owner.id}, ${network!.id}, ${getAddress(chain.buyer)}, now(), ${acme})
    ON CONFLICT DO NOTHING`
}).pipe(Effect.orDie)

layer(server.layer, { timeout: 180_000 })("buying an offer in Chromium", (it) => {
  it.scoped("choose a price, place the order, pay from the wallet on chain, see it ACTIVE with its entitlement", () =>
    Effect.gen(function*() {
      yield* seedSoldOffer(chain)
      // the browser keeps the session cookie until its `expires`, on the browser's clock
      server.clock.advance(Date.now() - TestEpoch.getTime())
      const base = yield* origin
      const b = yield* browser
      const { page, messages } = yield* openPage(b)
      const wallet = makeTestWallet({ privateKey: chain.anvil.privateKeys[3]!, chainId: chain.anvil.chainId, rpcUrl: chain.anvil.rpcUrl })
      yield* Effect.promise(() => injectWallet(page, wallet))

      // signed out, the page sends the person to sign in and back
      yield* Effect.promise(() => page.goto(`${base}/offers/${SoldOffer}/buy`))
      yield* step(page, "signed-out", Effect.promise(() => page.getByRole("link", { name: "Sign in", exact: true }).last().click()))
      yield* Effect.promise(() => page.getByLabel("Email").fill(DemoAccounts.owner.email))
      yield* Effect.promise(() => page.getByLabel("Password").fill(DemoAccounts.owner.password))
      yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())
      yield* step(page, "buy", Effect.promise(() => page.getByRole("heading", { level: 1, name: /^Buy / }).waitFor()))
      yield* step(page, "form", Effect.promise(() => page.getByRole("button", { name: "Place the order" }).waitFor()))
      expect(yield* seriousViolations(page)).toEqual([])

      // the price on anvil, one unit, for Acme
      yield* Effect.promise(() => page.locator(`#price-${SoldPrice}`).check())
      yield* Effect.promise(() => page.getByLabel("Quantity").fill("1"))
      yield* Effect.promise(() => page.getByLabel("For the workspace").selectOption(acme))
      yield* Effect.promise(() => page.getByRole("button", { name: "Place the order" }).click())
      const state = page.getByTestId("order-state")
      yield* step(page, "ordered", Effect.promise(() => state.filter({ hasText: "CREATED" }).waitFor()))

      // the wallet's address is not a wallet of the owner's yet: the page registers it with a signed
      // Sign-In with Ethereum message, which the service parses and refuses for its domain (this
      // page's host is not the test server's PUBLIC_BASE_URL); nothing is paid
      const pay = page.getByRole("button", { name: "Pay with my wallet" })
      yield* Effect.promise(() => pay.click())
      yield* step(page, "siwe", Effect.promise(() =>
        page.getByRole("alert").filter({ hasText: "domain and uri must name this service's origin" }).waitFor()))
      expect(wallet.calls).toEqual(["eth_requestAccounts", "personal_sign"])
      wallet.calls.length = 0

      // registered, the wallet pays: the transfer sent, then confirmed as blocks are mined (2 confirmations)
      yield* registerWallet
      const payoutBefore = yield* balanceOf(chain, chain.payout)
      yield* Effect.promise(() => pay.click())
      yield* step(page, "sent", Effect.promise(() => page.getByRole("status").filter({ hasText: "the order is paid once the chain confirms it" }).waitFor()))
      expect(wallet.calls).toEqual(["eth_requestAccounts", "eth_chainId", "eth_sendTransaction"])
      const miner = yield* Effect.fork(Effect.repeat(
        Effect.promise(() => chain.anvil.testClient.mine({ blocks: 1 })),
        Schedule.spaced("500 millis")
      ))
      yield* step(page, "active", Effect.promise(() => state.filter({ hasText: "ACTIVE" }).waitFor({ timeout: 60_000 })))
      yield* Fiber.interrupt(miner)
      yield* step(page, "entitlement", Effect.promise(() => page.getByRole("listitem").filter({ hasText: "OUTSIDER_PLAN: ACTIVE" }).waitFor()))
      expect((yield* balanceOf(chain, chain.payout)) - payoutBefore).toBe(SoldPriceUnits)
      expect(yield* seriousViolations(page)).toEqual([])

      // the workspace lists the order and the entitlement
      yield* Effect.promise(() => page.getByRole("link", { name: "See it in your workspace" }).click())
      yield* step(page, "workspace-orders", Effect.promise(() =>
        page.getByRole("table", { name: "Entitlements" }).getByRole("row").filter({ hasText: "OUTSIDER_PLAN" }).waitFor()))
      // the two refusals above (payer-wallet-required, then the registration's proof-invalid) are the only errors
      expect(messages.filter((m) => /^error|pageerror|Refused/.test(m))).toEqual([
        expect.stringMatching(/status of 422/),
        expect.stringMatching(/status of 422/)
      ])
    }), 240_000)
})
