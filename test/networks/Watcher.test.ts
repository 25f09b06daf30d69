/**
 * The block watcher (src/networks/watcher/) and Networks_ListNetworks on a real anvil, with the
 * real server and its engine: the networks list; an intent SUBMITTED → OBSERVED → CONFIRMED at
 * depth 2 (blocks mined by the test, automine off); a reverted transaction → FAILED; a reorg
 * (`anvil_reorg`) that drops the intent's block → SUBMITTED again, then observed in its new
 * block; a proven agent address's transfer as a CHAIN_OBSERVATION activity item with its
 * explorer link. Intent rows are written with SQL (SUBMITTED with the hash of a real transaction).
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import type { Hash, Hex } from "viem"
import { DemoAgents } from "../../demo/agents/seed.js"
import { startAnvil } from "../../demo/chain/anvil.js"
import { call, signIn } from "../support/http.js"
import { testConfig } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"

const anvil = await startAnvil()
afterAll(() => anvil.stop())
await anvil.testClient.setAutomine(false)
const network = anvil.network
const explorer = "https://explorer.test"

const server = makeTestServer({
  chainRpcUrls: new Map([[network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[network, 2]]),
    explorerUrls: new Map([[network, explorer]]),
    pollIntervalMs: 100,
    signerKey: Option.some(Redacted.make(anvil.privateKeys[0]!))
  }
})
const atlas = DemoAgents[0].id

/** A transaction of account `from` to `to`, signed and sent raw (not mined: automine is off); its hash and raw form. */
const send = (from: number, to: `0x${string}`, gas?: bigint) =>
  Effect.promise(async () => {
    const wallet = anvil.wallet(from)
    const request = await wallet.prepareTransactionRequest({
      account: wallet.account!,
      chain: wallet.chain,
      to,
      value: 1n,
      ...(gas === undefined ? {} : { gas })
    })
    const raw = await wallet.signTransaction(request as never)
    const hash = await anvil.publicClient.sendRawTransaction({ serializedTransaction: raw })
    return { hash, raw: raw as Hex }
  })

const mine = (blocks = 1) => Effect.promise(() => anvil.testClient.mine({ blocks }))

/** A SUBMITTED intent for a sent transaction. */
const submittedIntent = (hash: Hash, from: string, to: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    yield* sql`INSERT INTO transaction_intents (id, network, state, signer, purpose_kind, purpose_id, from_address, to_address, data,
        call, value, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, nonce, transaction_hash, expires_at, created_at,
        submitted_at, updated_at)
      VALUES (${id}, ${network}, 'SUBMITTED', 'PLATFORM', 'watcher-test', ${randomUUID()}, ${from}, ${to}, '0x',
        ${JSON.stringify({ functionName: "transfer", signature: "transfer()", args: [] })}::jsonb, 1, 21000, 1, 1, 0, ${hash},
        now() + interval '1 hour', now(), now(), now())`
    return id
  }).pipe(Effect.orDie)

const intent = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; blockNumber: string | null; blockHash: string | null; failureCode: string | null }>`
      SELECT state, block_number::text AS "blockNumber", block_hash AS "blockHash", failure_code AS "failureCode"
        FROM transaction_intents WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

const inState = (id: string, state: string) =>
  waitFor(`intent ${state}`, Effect.map(intent(id), (row) => row.state === state ? row : undefined), 20_000)

/** Waits until the watcher's cursor is at the node's head. */
const caughtUp = Effect.gen(function*() {
  const head = yield* Effect.promise(() => anvil.publicClient.getBlockNumber({ cacheTime: 0 }))
  return yield* waitFor(
    `cursor at ${head}`,
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ n: string }>`SELECT block_number::text AS n FROM chain_cursors WHERE network = ${network}`).pipe(
      Effect.map((rows) => rows[0] !== undefined && BigInt(rows[0].n) >= head ? true : undefined)
    ),
    20_000
  )
})

const addr = (i: number) => anvil.accounts[i]!.address

layer(server.layer, { timeout: 120_000 })("block watcher on anvil", (it) => {
  it.effect("Networks_ListNetworks: the configured network with its row, explorer and depth", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/api/v1/networks")
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toContain("public")
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ id: string; key: string }>`SELECT id, key FROM networks WHERE caip2 = ${network}`
      expect(reply.body.data).toEqual([{
        publicId: row!.id,
        network,
        key: row!.key,
        family: "EVM",
        displayName: expect.any(String),
        explorerUrl: explorer,
        confirmations: 2
      }])
    }))

  it.effect("an intent: SUBMITTED → OBSERVED in its block → CONFIRMED at depth 2", () =>
    Effect.gen(function*() {
      yield* caughtUp
      const tx = yield* send(1, addr(2))
      const id = yield* submittedIntent(tx.hash, addr(1), addr(2))
      yield* mine()
      const receipt = yield* Effect.promise(() => anvil.publicClient.getTransactionReceipt({ hash: tx.hash }))
      const observed = yield* inState(id, "OBSERVED")
      expect(observed).toMatchObject({ blockNumber: receipt.blockNumber.toString(), blockHash: receipt.blockHash, failureCode: null })
      // depth 1 of 2: still OBSERVED after the watcher caught up
      yield* caughtUp
      expect((yield* intent(id)).state).toBe("OBSERVED")
      yield* mine()
      const confirmed = yield* inState(id, "CONFIRMED")
      expect(confirmed.blockHash).toBe(receipt.blockHash)
    }))

  it.effect("a reverted transaction: FAILED, failure code reverted", () =>
    Effect.gen(function*() {
      // a contract whose code always reverts (PUSH1 0 PUSH1 0 REVERT)
      const reverter = "0x00000000000000000000000000000000000bad01" as const
      yield* Effect.promise(() => anvil.testClient.setCode({ address: reverter, bytecode: "0x60006000fd" }))
      yield* caughtUp
      const tx = yield* send(3, reverter, 100_000n)
      const id = yield* submittedIntent(tx.hash, addr(3), reverter)
      yield* mine()
      const failed = yield* inState(id, "FAILED")
      expect(failed.failureCode).toBe("reverted")
    }))

  it.effect("a reorg that drops the intent's block: back to SUBMITTED, then observed in its new block", () =>
    Effect.gen(function*() {
      yield* caughtUp
      const tx = yield* send(4, addr(5))
      const id = yield* submittedIntent(tx.hash, addr(4), addr(5))
      yield* mine()
      const first = yield* inState(id, "OBSERVED")
      yield* caughtUp
      // the intent's block (the head) replaced by an empty one
      yield* Effect.promise(() => anvil.testClient.request({ method: "anvil_reorg", params: [1, []] } as never))
      const back = yield* inState(id, "SUBMITTED")
      expect(back).toMatchObject({ blockNumber: null, blockHash: null })
      // the same signed transaction sent again (it may still be in the pool)
      yield* Effect.promise(() => anvil.publicClient.sendRawTransaction({ serializedTransaction: tx.raw }).catch(() => undefined))
      yield* mine()
      const again = yield* inState(id, "OBSERVED")
      const receipt = yield* Effect.promise(() => anvil.publicClient.getTransactionReceipt({ hash: tx.hash }))
      expect(again).toMatchObject({ blockNumber: receipt.blockNumber.toString(), blockHash: receipt.blockHash })
      expect(again.blockHash).not.toBe(first.blockHash)
      yield* mine()
      yield* inState(id, "CONFIRMED")
    }))

  it.effect("a proven agent address's transfer: CHAIN_OBSERVATION activity with its explorer link", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const account = anvil.accounts[6]!
      const challenge = yield* call("POST", `/api/v1/agents/${atlas}/identity-challenges`, {
        body: { networkFamily: "EVM", network, protocol: null, registry: null, locatorKind: "ADDRESS", nativeId: account.address },
        session
      })
      expect(challenge.status, challenge.text).toBe(201)
      const signature = yield* Effect.promise(() => account.signMessage!({ message: challenge.body.data.message }))
      const proof = yield* call("POST", `/api/v1/agents/${atlas}/identities`, {
        body: { challengeId: challenge.body.data.challengeId, signature },
        session
      })
      expect(proof.status, proof.text).toBe(201)
      yield* caughtUp
      const tx = yield* send(6, addr(7))
      yield* mine()
      const item = yield* waitFor(
        "the transfer in the agent's activity",
        call("GET", `/api/v1/agents/${atlas}/activity?sourceKinds=CHAIN_OBSERVATION`).pipe(
          Effect.map((r) => (r.body.data as Array<any>).find((i) => i.transactionReference === tx.hash))
        ),
        20_000
      )
      expect(item).toMatchObject({
        activityKey: "chain.transaction",
        sourceKind: "CHAIN_OBSERVATION",
        transactionReference: tx.hash,
        explorerUrl: `${explorer}/tx/${tx.hash}`,
        network: { key: expect.any(String), displayName: expect.any(String) }
      })
      expect(item.summary).toContain("block")
      // a transaction of an address nobody proved is not recorded
      const other = yield* send(8, addr(9))
      yield* mine()
      yield* caughtUp
      const items = (yield* call("GET", `/api/v1/agents/${atlas}/activity?sourceKinds=CHAIN_OBSERVATION`)).body.data as Array<any>
      expect(items.some((i) => i.transactionReference === other.hash)).toBe(false)
    }))

  it.effect("an ERC-721 Transfer of an agent's registry token: chain.token_transfer, deduplicated by hash and log index", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // a registry whose code emits Transfer(0, caller, 42) (LOG4, no data) on any call
      const registry = "0x00000000000000000000000000000000000E8004" as const
      const code = `0x602a336000${"7f"}ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef60006000a400` as const
      yield* Effect.promise(() => anvil.testClient.setCode({ address: registry, bytecode: code }))
      const [row] = yield* sql<{ key: string }>`SELECT key FROM networks WHERE caip2 = ${network}`
      yield* sql`INSERT INTO agent_identities (id, agent_id, family, kind, network, scope, native_id, locator, binding, created_at)
        VALUES (${randomUUID()}, ${atlas}, 'EVM', 'REGISTRY_TOKEN', ${row!.key}, ${registry}, '42',
          ${`evm:${row!.key}:${registry}:42`}, 'REGISTRY_BOUND', now())`
      yield* caughtUp
      const tx = yield* send(2, registry, 100_000n)
      yield* mine()
      const receipt = yield* Effect.promise(() => anvil.publicClient.getTransactionReceipt({ hash: tx.hash }))
      expect(receipt.status).toBe("success")
      const item = yield* waitFor(
        "the token transfer in the agent's activity",
        call("GET", `/api/v1/agents/${atlas}/activity?activityKeys=chain.token_transfer`).pipe(
          Effect.map((r) => (r.body.data as Array<any>).find((i) => i.transactionReference === tx.hash))
        ),
        20_000
      )
      expect(item).toMatchObject({ sourceKind: "CHAIN_OBSERVATION", explorerUrl: `${explorer}/tx/${tx.hash}` })
      expect(item.summary).toContain("#42")
      const [stored] = yield* sql<{ dedupeKey: string }>`SELECT dedupe_key AS "dedupeKey" FROM agent_activity
        WHERE agent_id = ${atlas} AND transaction_reference = ${tx.hash}`
      expect(stored!.dedupeKey).toBe(`${network}:${tx.hash}:${receipt.logs[0]!.logIndex}`)
    }))

  it.effect("a reorg drops the CHAIN_OBSERVATION items of its blocks; the transaction re-observed records it again", () =>
    Effect.gen(function*() {
      // accounts[6] was proven for Atlas by the test above
      const activity = (hash: string) =>
        call("GET", `/api/v1/agents/${atlas}/activity?sourceKinds=CHAIN_OBSERVATION`).pipe(
          Effect.map((r) => (r.body.data as Array<any>).filter((i) => i.transactionReference === hash))
        )
      yield* caughtUp
      const tx = yield* send(6, addr(7))
      yield* mine()
      yield* waitFor("the item", Effect.map(activity(tx.hash), (items) => items.length === 1 ? items : undefined), 20_000)
      yield* caughtUp
      yield* Effect.promise(() => anvil.testClient.request({ method: "anvil_reorg", params: [1, []] } as never))
      yield* waitFor("the item gone", Effect.map(activity(tx.hash), (items) => items.length === 0 ? true : undefined), 20_000)
      yield* Effect.promise(() => anvil.publicClient.sendRawTransaction({ serializedTransaction: tx.raw }).catch(() => undefined))
      yield* mine()
      yield* waitFor("the item again", Effect.map(activity(tx.hash), (items) => items.length === 1 ? items : undefined), 20_000)
    }))
})
