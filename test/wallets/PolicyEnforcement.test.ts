/**
 * Wallet policies end to end on anvil: the platform signer's address (anvil account 0) is registered
 * as a wallet of the anvil network by a real SIWE signature, given a COMPLETE policy (the TestToken
 * only, at most 100 units a transaction), and the intents service (layers/TransactionIntentsLive.ts,
 * with the wallets area's `IntentPolicyLive`) refuses a PLATFORM transfer over the limit (FAILED
 * `policy-violation`, never broadcast) and sends one within it.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { createSiweMessage, generateSiweNonce } from "viem/siwe"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { IdsSequence } from "../../layers/Ids.js"
import { TransactionIntents } from "../../layers/TransactionIntents.js"
import { ChainIntentsLive } from "../../src/workflows.js"
import { testConfigLayer } from "../support/config.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"
import { chainOverrides, erc20, startTokenChain } from "./intents/support.js"

const { anvil, token } = await startTokenChain()
const overrides = chainOverrides(anvil)
const server = makeTestServer(overrides)
const intents = ChainIntentsLive.pipe(Layer.provide(testConfigLayer(overrides)), Layer.merge(IdsSequence("0000000d")))
const platform = anvil.accounts[0]!
const recipient = anvil.accounts[2]!.address

const preparePlatformTransfer = (amount: bigint, n: number) =>
  Effect.gen(function*() {
    const service = yield* TransactionIntents
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(service.prepare({
      network: anvil.network,
      signer: "PLATFORM",
      to: token,
      abi: erc20,
      functionName: "transfer",
      args: [recipient, amount],
      purpose: { kind: "test-policy", id: `0000000d-0000-7000-8000-${String(n).padStart(12, "0")}` },
      workspaceId: DemoWorkspaces.acme.id,
      ownerAccountId: null
    }))
  })

/** The intent once it left PREPARED. */
const settledIntent = (id: string) =>
  waitFor(
    `intent ${id} sent or refused`,
    until(Effect.flatMap(TransactionIntents, (s) => s.find(id)), (i) => i !== undefined && i.state !== "PREPARED"),
    30_000,
    200
  )

layer(Layer.provideMerge(intents, server.layer), { timeout: 120_000 })("wallet policies enforced on the platform's signatures", (it) => {
  it.effect("a COMPLETE policy refuses a PLATFORM intent over its per-transaction limit and lets one within it through", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const message = createSiweMessage({
        address: platform.address,
        chainId: anvil.chainId,
        domain: "directory.test",
        uri: "https://directory.test/wallets",
        version: "1",
        nonce: generateSiweNonce(),
        issuedAt: new Date(server.clock.unsafeCurrentTimeMillis())
      })
      const signature = yield* Effect.promise(() => anvil.wallet(0).signMessage({ account: platform, message }))
      const registered = yield* call("POST", "/api/v1/wallets", {
        session: owner,
        body: { workspaceId: DemoWorkspaces.acme.id, account: `${anvil.network}:${platform.address}`, message, signature }
      })
      expect(registered.status, registered.text).toBe(201)
      expect(registered.body.data.network).toBe(anvil.network)

      const created = yield* call("POST", `/api/v1/wallets/${registered.body.data.walletPublicId}/policies`, {
        session: owner,
        body: { phase: "CREATE", rules: { allowedNetworks: [anvil.network], allowedContracts: [token], perTransactionLimit: "100" } }
      })
      expect(created.status, created.text).toBe(202)
      yield* waitFor(
        "policy COMPLETE",
        until(
          Effect.map(call("GET", `/api/v1/wallet-policies/${created.body.data.policyId}`, { session: owner }), (r) => r.body.data),
          (p) => p.state === "COMPLETE"
        ),
        30_000,
        200
      )

      const over = yield* preparePlatformTransfer(500n, 1)
      const refused = yield* settledIntent(over.id)
      expect(refused).toMatchObject({ state: "FAILED", failureCode: "policy-violation", transactionHash: null })

      const within = yield* preparePlatformTransfer(50n, 2)
      const sent = yield* settledIntent(within.id)
      expect(["SUBMITTED", "OBSERVED", "CONFIRMED"]).toContain(sent.state)
      expect(sent.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    }))
})

afterAll(() => anvil.stop())
