/**
 * PLATFORM transaction intents on anvil: the sender signs with the platform's key and broadcasts
 * a PREPARED intent exactly once, even from two concurrent sender rounds (one broadcast, one
 * nonce); the record comes before the broadcast, so a transaction the node lost is sent again
 * with the same bytes; a policy that refuses records the intent FAILED `policy-violation` and
 * calls the purpose's handler. The server runs no sender here (no network configured for it):
 * the rounds are the test's own, on the server's database.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { getAddress } from "viem"
import { ChainServicesLive } from "../../../layers/Chain.js"
import { IdsLive } from "../../../layers/Ids.js"
import {
  type IntentEvent,
  IntentOutcomes,
  IntentPolicy,
  type PrepareIntent,
  TransactionIntents
} from "../../../layers/TransactionIntents.js"
import { TransactionIntentsLive } from "../../../layers/TransactionIntentsLive.js"
import { PolicyViolation } from "../../../schema/errors.js"
import { senderRound } from "../../../src/wallets/intents/Sender.js"
import { testConfigLayer } from "../../support/config.js"
import { makeTestServer } from "../../support/TestServer.js"
import { chainOverrides, erc20, startTokenChain } from "./support.js"

const { anvil, token } = await startTokenChain()
const server = makeTestServer()
const platform = anvil.accounts[0]!.address

/** What the purpose's handler saw, in order. */
const events: Array<IntentEvent> = []
const outcomes = Layer.succeed(IntentOutcomes, new Map([["test-payout", (event: IntentEvent) => Effect.sync(() => void events.push(event))]]))

/** The service with the platform's key and `policy`. */
const service = (policy: Layer.Layer<IntentPolicy>) =>
  TransactionIntentsLive.pipe(
    Layer.provide([policy, outcomes]),
    Layer.provide(ChainServicesLive),
    Layer.provide(testConfigLayer(chainOverrides(anvil))),
    Layer.merge(IdsLive)
  )
const allowing = service(Layer.succeed(IntentPolicy, { check: () => Effect.void }))
const refusing = service(Layer.succeed(IntentPolicy, {
  check: () => Effect.fail(new PolicyViolation({ detail: "The transaction exceeds the wallet's per-transaction limit." }))
}))

let purposeCount = 0
const payout = (amount: bigint): PrepareIntent => ({
  network: anvil.network,
  signer: "PLATFORM",
  to: token,
  abi: erc20,
  functionName: "transfer",
  args: [anvil.accounts[5]!.address, amount],
  purpose: { kind: "test-payout", id: `0000000d-0000-7000-8000-${(0xf00 + ++purposeCount).toString(16).padStart(12, "0")}` },
  workspaceId: null,
  ownerAccountId: null
})

const prepare = (input: PrepareIntent) =>
  Effect.flatMap(TransactionIntents, (s) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(s.prepare(input))))

const balance = Effect.promise(() =>
  anvil.publicClient.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [anvil.accounts[5]!.address] })
)
const platformNonce = Effect.promise(() => anvil.publicClient.getTransactionCount({ address: platform, blockTag: "pending" }))

layer(server.layer, { timeout: 60_000 })("transaction intents: PLATFORM", (it) => {
  it.effect("two concurrent sender rounds send a PREPARED intent once: one broadcast, one nonce", () =>
    Effect.gen(function*() {
      const intent = yield* prepare(payout(7n))
      expect(intent).toMatchObject({ state: "PREPARED", signer: "PLATFORM", from: getAddress(platform), nonce: null, unsignedTransaction: null })
      const nonce = yield* platformNonce
      const before = yield* balance
      yield* Effect.all([senderRound, senderRound, senderRound], { concurrency: 3 })
      const s = yield* TransactionIntents
      const sent = (yield* s.find(intent.id))!
      expect(sent).toMatchObject({ state: "SUBMITTED", nonce, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
      expect(sent.unsignedTransaction).not.toBeNull()
      const receipt = yield* Effect.promise(() =>
        anvil.publicClient.waitForTransactionReceipt({ hash: sent.transactionHash as `0x${string}`, pollingInterval: 50 })
      )
      expect(receipt.status).toBe("success")
      expect(yield* platformNonce).toBe(nonce + 1)
      expect((yield* balance) - before).toBe(7n)
      // the handler saw SUBMITTED once
      expect(events.filter((e) => e.intent.id === intent.id).map((e) => e.state)).toEqual(["SUBMITTED"])
      // sending it again does nothing
      expect((yield* s.submitByPlatform(intent.id)).transactionHash).toBe(sent.transactionHash)
      expect(yield* platformNonce).toBe(nonce + 1)
    }).pipe(Effect.provide(allowing)))

  it.effect("intents sent one after another take consecutive nonces", () =>
    Effect.gen(function*() {
      const nonce = yield* platformNonce
      const a = yield* prepare(payout(1n))
      const b = yield* prepare(payout(2n))
      const s = yield* TransactionIntents
      const [sa, sb] = yield* Effect.all([s.submitByPlatform(a.id), s.submitByPlatform(b.id)], { concurrency: 2 })
      expect([sa.nonce, sb.nonce].sort()).toEqual([nonce, nonce + 1])
    }).pipe(Effect.provide(allowing)))

  it.effect("a SUBMITTED intent the node lost is broadcast again with the same bytes", () =>
    Effect.gen(function*() {
      yield* Effect.promise(() => anvil.testClient.setAutomine(false))
      const intent = yield* prepare(payout(3n))
      const s = yield* TransactionIntents
      const sent = yield* s.submitByPlatform(intent.id)
      expect(sent.state).toBe("SUBMITTED")
      // the node forgets it (as after a crash before the broadcast, or a dropped mempool)
      yield* Effect.promise(() => anvil.testClient.request({ method: "anvil_dropAllTransactions" as never, params: [] as never }))
      expect(yield* Effect.promise(() => anvil.publicClient.getTransaction({ hash: sent.transactionHash as `0x${string}` }).then(() => true, () => false))).toBe(false)
      expect(yield* s.rebroadcast(0)).toBe(1)
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      const receipt = yield* Effect.promise(() =>
        anvil.publicClient.waitForTransactionReceipt({ hash: sent.transactionHash as `0x${string}`, pollingInterval: 50 })
      )
      expect(receipt.status).toBe("success")
      // known now: nothing to send
      expect(yield* s.rebroadcast(0)).toBe(0)
      yield* Effect.promise(() => anvil.testClient.setAutomine(true))
    }).pipe(Effect.provide(allowing)))

  it.effect("a refused policy records the intent FAILED policy-violation and calls the handler; nothing is signed", () =>
    Effect.gen(function*() {
      const nonce = yield* platformNonce
      const intent = yield* prepare(payout(9n))
      const s = yield* TransactionIntents
      const refused = yield* Effect.flip(s.submitByPlatform(intent.id))
      expect(refused._tag).toBe("PolicyViolation")
      expect(yield* s.find(intent.id)).toMatchObject({ state: "FAILED", failureCode: "policy-violation", transactionHash: null })
      expect(events.filter((e) => e.intent.id === intent.id).map((e) => [e.state, e.intent.failureCode])).toEqual([["FAILED", "policy-violation"]])
      // a sender round leaves it FAILED
      yield* senderRound
      expect((yield* s.find(intent.id))!.state).toBe("FAILED")
      expect(yield* platformNonce).toBe(nonce)
    }).pipe(Effect.provide(refusing)))
})

afterAll(() => anvil.stop())
