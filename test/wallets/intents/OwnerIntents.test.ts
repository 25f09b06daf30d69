/**
 * OWNER transaction intents on anvil: prepared for a TestToken transfer (decoded call, EIP-1559
 * fees, gas with its margin, the sender's pending nonce, the unsigned transaction), read with
 * Wallets_GetTransactionIntent by the owner and the workspace's members only, signed by the
 * owner's key and submitted with Wallets_SubmitTransactionIntent (broadcast once, receipt on
 * anvil); tampered or foreign signatures are refused naming the field; an expired one is 410.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { decodeFunctionData, getAddress, type Hex, parseTransaction } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { IdsSequence } from "../../../layers/Ids.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import { ChainIntentsLive } from "../../../src/workflows.js"
import { testConfigLayer } from "../../support/config.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { chainOverrides, erc20, startTokenChain } from "./support.js"

const { anvil, token } = await startTokenChain()
const overrides = chainOverrides(anvil)
const server = makeTestServer(overrides)
/** The service as the areas use it, on the server's database. */
const intents = ChainIntentsLive.pipe(Layer.provide(testConfigLayer(overrides)), Layer.merge(IdsSequence("0000000c")))
const owner = anvil.accounts[1]!
const recipient = anvil.accounts[2]!.address

const prepareTransfer = (amount: bigint) =>
  Effect.gen(function*() {
    const service = yield* TransactionIntents
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(service.prepare({
      network: anvil.network,
      signer: "OWNER",
      from: owner.address,
      to: token,
      abi: erc20,
      functionName: "transfer",
      args: [recipient, amount],
      purpose: { kind: "test-transfer", id: "0000000c-0000-7000-8000-00000000ffff" },
      workspaceId: DemoWorkspaces.acme.id,
      ownerAccountId: DemoAccounts.owner.id
    }))
  })


/** Signs an intent's unsigned transaction with `key`, `tamper` changing fields first. */
const sign = (unsigned: string, key: Hex, tamper: Record<string, unknown> = {}) =>
  Effect.promise(() => {
    const { r: _r, s: _s, v: _v, yParity: _y, ...tx } = parseTransaction(unsigned as Hex) as Record<string, unknown>
    return privateKeyToAccount(key).signTransaction({ ...tx, ...tamper } as never)
  })

const submit = (session: Session, intentId: string, signedTransaction: string) =>
  call("POST", `/api/v1/transaction-intents/${intentId}/submit`, { body: { signedTransaction }, session })

layer(Layer.provideMerge(intents, server.layer), { timeout: 180_000 })("transaction intents: OWNER", (it) => {
  it.effect("prepare encodes the call, estimates fees and gas, reads the pending nonce; find reads it back", () =>
    Effect.gen(function*() {
      const intent = yield* prepareTransfer(25n)
      expect(intent).toMatchObject({
        network: anvil.network,
        state: "AWAITING_SIGNATURE",
        signer: "OWNER",
        from: owner.address,
        to: getAddress(token),
        value: 0n,
        nonce: yield* Effect.promise(() => anvil.publicClient.getTransactionCount({ address: owner.address, blockTag: "pending" })),
        call: { functionName: "transfer", signature: "transfer(address,uint256)", args: [recipient, "25"] },
        transactionHash: null,
        typedData: null
      })
      expect(decodeFunctionData({ abi: erc20, data: intent.data as `0x${string}` }).args).toEqual([recipient, 25n])
      const estimate = yield* Effect.promise(() =>
        anvil.publicClient.estimateGas({ account: owner.address, to: token, data: intent.data as `0x${string}` })
      )
      expect(intent.fees.gasLimit).toBe(estimate + estimate * 20n / 100n)
      expect(intent.fees.maxFeePerGas >= intent.fees.maxPriorityFeePerGas).toBe(true)
      const unsigned = parseTransaction(intent.unsignedTransaction as `0x${string}`)
      expect(unsigned).toMatchObject({ type: "eip1559", chainId: anvil.chainId, nonce: intent.nonce, to: token.toLowerCase(), gas: intent.fees.gasLimit })
      const service = yield* TransactionIntents
      expect(yield* service.find(intent.id)).toEqual(intent)
      expect((yield* service.forPurpose({ kind: "test-transfer", id: "0000000c-0000-7000-8000-00000000ffff" }))[0]).toEqual(intent)
    }))
  it.effect("the owner reads and submits a signed intent: broadcast once, SUBMITTED, its receipt on anvil", () =>
    Effect.gen(function*() {
      const intent = yield* prepareTransfer(40n)
      const owner0 = yield* signIn("owner")
      const member = yield* signIn("member")
      const outsider = yield* signIn("outsider")
      const read = yield* call("GET", `/api/v1/transaction-intents/${intent.id}`, { session: owner0 })
      expect(read.status, read.text).toBe(200)
      expect(read.body.data).toMatchObject({ id: intent.id, state: "AWAITING_SIGNATURE", value: "0", unsignedTransaction: intent.unsignedTransaction })
      // a member of the workspace reads it; an outsider does not see it
      expect((yield* call("GET", `/api/v1/transaction-intents/${intent.id}`, { session: member })).status).toBe(200)
      expectProblem(yield* call("GET", `/api/v1/transaction-intents/${intent.id}`, { session: outsider }), 404, "transaction-intent-not-found")
      const key = anvil.privateKeys[1]!
      // tampered value, recipient, nonce; another signer; garbage
      expectProblem(yield* submit(owner0, intent.id, yield* sign(intent.unsignedTransaction!, key, { value: 1n })), 422, "signed-transaction-mismatch")
      const tampered = yield* submit(owner0, intent.id, yield* sign(intent.unsignedTransaction!, key, { to: anvil.accounts[3]!.address }))
      expectProblem(tampered, 422, "signed-transaction-mismatch")
      expect(tampered.body.detail).toContain("`to`")
      const badValue = yield* submit(owner0, intent.id, yield* sign(intent.unsignedTransaction!, key, { value: 5n }))
      expect(badValue.body.detail).toContain("`value`")
      expect(badValue.body.detail).not.toContain("5")
      const foreign = yield* submit(owner0, intent.id, yield* sign(intent.unsignedTransaction!, anvil.privateKeys[4]!))
      expectProblem(foreign, 422, "signed-transaction-mismatch")
      expect(foreign.body.detail).toContain("signer")
      expectProblem(yield* submit(owner0, intent.id, "0x02abcd"), 422, "signed-transaction-mismatch")
      // a member may read but not submit
      const signed = yield* sign(intent.unsignedTransaction!, key)
      expectProblem(yield* submit(member, intent.id, signed), 403, "forbidden")
      expectProblem(yield* submit(outsider, intent.id, signed), 404, "transaction-intent-not-found")
      const before = yield* Effect.promise(() => anvil.publicClient.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [recipient] }))
      const ok = yield* submit(owner0, intent.id, signed)
      expect(ok.status, ok.text).toBe(200)
      expect(ok.body.data).toMatchObject({ state: "SUBMITTED", transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
      const receipt = yield* Effect.promise(() =>
        anvil.publicClient.waitForTransactionReceipt({ hash: ok.body.data.transactionHash, pollingInterval: 50 })
      )
      expect(receipt.status).toBe("success")
      const after = yield* Effect.promise(() => anvil.publicClient.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [recipient] }))
      expect(after - before).toBe(40n)
      // the same bytes again: the intent as it is, no second broadcast; other bytes: 409
      const again = yield* submit(owner0, intent.id, signed)
      expect(again.status, again.text).toBe(200)
      expect(again.body.data.transactionHash).toBe(ok.body.data.transactionHash)
      expect(yield* Effect.promise(() => anvil.publicClient.getTransactionCount({ address: owner.address }))).toBe(intent.nonce! + 1)
      expectProblem(yield* submit(owner0, intent.id, yield* sign(intent.unsignedTransaction!, key, { value: 1n })), 409, "invalid-state")
    }))

  it.effect("a transaction the owner's wallet sent is submitted by its hash: checked on the node, its own nonce and fees recorded", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const intent = yield* prepareTransfer(7n)
      const key = anvil.privateKeys[1]!
      const byHash = (transactionHash: string) =>
        call("POST", `/api/v1/transaction-intents/${intent.id}/submit`, { body: { transactionHash }, session })
      const sendRaw = (raw: Hex) => Effect.promise(() => anvil.publicClient.sendRawTransaction({ serializedTransaction: raw }))
      // exactly one of the two
      const signed = yield* sign(intent.unsignedTransaction!, key)
      const both = yield* call("POST", `/api/v1/transaction-intents/${intent.id}/submit`, {
        body: { signedTransaction: signed, transactionHash: `0x${"1".repeat(64)}` },
        session
      })
      expectProblem(both, 400, "invalid-request")
      expect(both.text).toContain("exactly one of signedTransaction and transactionHash")
      expectProblem(yield* call("POST", `/api/v1/transaction-intents/${intent.id}/submit`, { body: {}, session }), 400, "invalid-request")
      expectProblem(yield* byHash("0x1234"), 400, "invalid-request")
      // a hash the node does not know
      expectProblem(yield* byHash(`0x${"ab".repeat(32)}`), 422, "transaction-unknown")
      // the wallet sent another call (the tokens' recipient as `to`): named, never the value
      const other = yield* sendRaw(yield* sign(intent.unsignedTransaction!, key, { to: recipient }))
      const mismatch = yield* byHash(other)
      expectProblem(mismatch, 422, "signed-transaction-mismatch")
      expect(mismatch.body.detail).toContain("`to`")
      expect(mismatch.text).not.toContain(recipient.slice(2).toLowerCase())
      // the wallet's own choices: the next nonce (the other call took the planned one), higher fees
      const planned = parseTransaction(intent.unsignedTransaction! as Hex)
      const ownFee = planned.maxFeePerGas! + 1_000n
      const hash = yield* sendRaw(yield* sign(intent.unsignedTransaction!, key, { nonce: intent.nonce! + 1, maxFeePerGas: ownFee }))
      const ok = yield* byHash(hash)
      expect(ok.status, ok.text).toBe(200)
      expect(ok.body.data).toMatchObject({ state: "SUBMITTED", transactionHash: hash, nonce: intent.nonce! + 1 })
      expect(ok.body.data.fees.maxFeePerGas).toBe(String(ownFee))
      const again = yield* byHash(hash)
      expect(again.status, again.text).toBe(200)
      expect(again.body.data.transactionHash).toBe(hash)
      expectProblem(yield* byHash(other), 409, "invalid-state")
      const receipt = yield* Effect.promise(() => anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 }))
      expect(receipt.status).toBe("success")
    }))

  it.effect("a nonce already used is refused by the node (422 transaction-rejected); an expired intent is 410 and EXPIRED", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const stale = yield* prepareTransfer(1n)
      const fresh = yield* prepareTransfer(2n)
      expect(fresh.nonce).toBe(stale.nonce)
      const first = yield* submit(session, fresh.id, yield* sign(fresh.unsignedTransaction!, anvil.privateKeys[1]!))
      expect(first.status, first.text).toBe(200)
      yield* Effect.promise(() => anvil.publicClient.waitForTransactionReceipt({ hash: first.body.data.transactionHash, pollingInterval: 50 }))
      const rejected = yield* submit(session, stale.id, yield* sign(stale.unsignedTransaction!, anvil.privateKeys[1]!))
      expectProblem(rejected, 422, "transaction-rejected")
      expect((yield* call("GET", `/api/v1/transaction-intents/${stale.id}`, { session })).body.data.state).toBe("AWAITING_SIGNATURE")
      server.clock.advance(2 * 3600_000)
      const late = yield* prepareTransfer(3n)
      server.clock.advance(3601_000)
      expectProblem(yield* submit(session, late.id, yield* sign(late.unsignedTransaction!, anvil.privateKeys[1]!)), 410, "transaction-intent-expired")
      expect((yield* call("GET", `/api/v1/transaction-intents/${late.id}`, { session })).body.data.state).toBe("EXPIRED")
    }))
})

afterAll(() => anvil.stop())
