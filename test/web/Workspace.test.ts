/**
 * The workspace side in Chromium: the demo owner signs in, opens the Acme workspace (members,
 * orders, entitlements, webhooks), registers an agent, proves its EVM address by signing the
 * directory's challenge with the browser's wallet (a test EIP-1193 provider answering with a
 * viem account of anvil's test mnemonic; first with no wallet, then refused, then signed), and
 * subscribes a webhook endpoint (its secret shown once), reads its deliveries and deletes it.
 * axe finds no serious violation on the workspace and proof pages.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Hex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { AnvilMnemonic } from "../../demo/chain/anvil.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { browser, openPage, origin, seriousViolations, step } from "./support.js"
import { injectWallet, makeTestWallet } from "./wallet.js"

const server = makeTestServer({}, { edge: true })
const acme = DemoWorkspaces.acme.id
/** Anvil's test account 7, on Base (eip155:8453, a network of the demo directory). */
const privateKey = `0x${Buffer.from(mnemonicToAccount(AnvilMnemonic, { addressIndex: 7 }).getHdKey().privateKey!).toString("hex")}` as Hex

layer(server.layer, { timeout: 180_000 })("the workspace in Chromium", (it) => {
  it.scoped("register an agent, prove its address with the wallet, subscribe and delete a webhook", () =>
    Effect.gen(function*() {
      // the browser keeps the session cookie until its `expires`, on the browser's clock
      server.clock.advance(Date.now() - TestEpoch.getTime())
      const base = yield* origin
      const b = yield* browser
      const { page, messages } = yield* openPage(b)
      const wallet = makeTestWallet({ privateKey, chainId: 8453 })

      yield* Effect.promise(() => page.goto(`${base}/sign-in?next=${encodeURIComponent(`/workspaces/${acme}`)}`))
      yield* step(page, "sign-in", Effect.promise(() => page.getByLabel("Email").fill(DemoAccounts.owner.email)))
      yield* Effect.promise(() => page.getByLabel("Password").fill(DemoAccounts.owner.password))
      yield* Effect.promise(() => page.getByRole("button", { name: "Sign in" }).click())
      yield* step(page, "workspace", Effect.promise(() => page.getByRole("heading", { level: 1, name: DemoWorkspaces.acme.name }).waitFor()))
      for (const section of ["Members", "Agents", "Orders and entitlements", "Webhooks"]) {
        yield* step(page, "sections", Effect.promise(() => page.getByRole("heading", { level: 2, name: section }).waitFor()))
      }
      // the demo's orders of Acme, as the API lists them
      const sql = yield* SqlClient.SqlClient
      const orders = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM orders WHERE workspace_id = ${acme}`
      const rows = page.getByRole("table", { name: "Orders" }).getByRole("row")
      if (orders[0]!.n > 0) {
        yield* step(page, "orders", Effect.promise(() => rows.nth(1).waitFor()))
        expect(yield* Effect.promise(() => rows.count())).toBe(Math.min(orders[0]!.n, 100) + 1)
      }
      expect(yield* seriousViolations(page)).toEqual([])

      // register an agent
      yield* Effect.promise(() => page.getByLabel("Agent's name").fill("Pike Pricer"))
      yield* Effect.promise(() => page.getByLabel(/^Slug/).fill("pike-pricer"))
      yield* Effect.promise(() => page.getByLabel("Tagline").fill("Prices pikes."))
      yield* Effect.promise(() => page.getByRole("button", { name: "Register agent" }).click())
      const proveLink = page.getByRole("link", { name: "Prove its EVM address" })
      yield* step(page, "registered", Effect.promise(() => proveLink.waitFor()))
      yield* Effect.promise(() => proveLink.click())
      yield* step(page, "prove", Effect.promise(() => page.getByRole("heading", { level: 1, name: "Prove an address of Pike Pricer" }).waitFor()))
      const agentId = /\/agents\/([0-9a-f-]{36})\/prove$/.exec(page.url())![1]!
      const proveButton = page.getByRole("button", { name: "Prove with my wallet" })

      // no wallet in this browser yet: said so
      yield* Effect.promise(() => proveButton.click())
      yield* step(page, "no-wallet", Effect.promise(() => page.getByRole("alert").filter({ hasText: "No Ethereum wallet was found" }).waitFor()))

      // the wallet, from the next load on (the tab keeps its session); the person refuses first
      yield* Effect.promise(() => injectWallet(page, wallet))
      yield* Effect.promise(() => page.reload())
      yield* step(page, "reloaded", Effect.promise(() => proveButton.waitFor()))
      wallet.refuseNext()
      yield* Effect.promise(() => proveButton.click())
      yield* step(page, "refused", Effect.promise(() => page.getByRole("alert").filter({ hasText: "You declined the request in your wallet" }).waitFor()))
      expect(wallet.calls).toEqual(["eth_requestAccounts"])

      // then signs: the address is proven
      yield* Effect.promise(() => proveButton.click())
      const proven = page.getByRole("status").filter({ hasText: "Proven:" })
      yield* step(page, "proven", Effect.promise(() => proven.waitFor()))
      expect(yield* Effect.promise(() => proven.innerText())).toContain(wallet.address)
      expect(wallet.calls).toEqual(["eth_requestAccounts", "eth_requestAccounts", "eth_chainId", "personal_sign"])
      expect(yield* seriousViolations(page)).toEqual([])
      // the agent's public profile: the address among its locators, proven
      const profile = yield* Effect.promise(() => fetch(`${base}/api/v1/agents/${agentId}`).then((r) => r.json() as Promise<any>))
      expect(profile.data.locators).toContainEqual(expect.objectContaining({
        networkFamily: "EVM",
        locatorKind: "ADDRESS",
        nativeId: expect.stringMatching(new RegExp(wallet.address.slice(2), "i")),
        provenAt: expect.any(String)
      }))
      expect(yield* Effect.promise(() => proven.innerText())).toContain(profile.data.verificationState)

      // a webhook subscription: the secret shown once, its deliveries, deleted
      yield* Effect.promise(() => page.goto(`${base}/workspaces/${acme}`))
      yield* step(page, "webhooks", Effect.promise(() => page.getByLabel("Endpoint URL (https)").fill("https://hooks.example.com/pike")))
      yield* Effect.promise(() => page.getByRole("button", { name: "Subscribe" }).click())
      const secret = page.locator(".shown-once code").filter({ hasText: "whsec_" })
      yield* step(page, "subscribed", Effect.promise(() => secret.waitFor()))
      const item = page.locator(".subscriptions li").filter({ hasText: "https://hooks.example.com/pike" })
      yield* Effect.promise(() => item.getByRole("button", { name: /^Deliveries/ }).click())
      yield* step(page, "deliveries", Effect.promise(() => item.getByText("No delivery yet.").waitFor()))
      expect(yield* seriousViolations(page)).toEqual([])
      yield* Effect.promise(() => item.getByRole("button", { name: /^Delete/ }).click())
      yield* step(page, "deleted", Effect.promise(() => item.waitFor({ state: "detached" })))
      expect(messages.filter((m) => /^error|pageerror|Refused/.test(m))).toEqual([])
    }), 240_000)
})
