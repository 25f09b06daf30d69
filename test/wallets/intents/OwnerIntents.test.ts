/**
 * OWNER transaction intents on anvil: prepared for a TestToken transfer (decoded call, EIP-1559
 * fees, gas with its margin, the sender's pending nonce, the unsigned transaction), read with
 * Wallets_GetTransactionIntent by the owner and the workspace's members only.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { decodeFunctionData, getAddress, parseTransaction } from "viem"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { IdsSequence } from "../../../layers/Ids.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import { ChainIntentsLive } from "../../../src/workflows.js"
import { testConfigLayer } from "../../support/config.js"
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

layer(Layer.provideMerge(intents, server.layer), { timeout: 60_000 })("transaction intents: OWNER", (it) => {
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
})

afterAll(() => anvil.stop())
