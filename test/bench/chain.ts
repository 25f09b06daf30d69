/**
 * `npm run bench:chain`: the chain work on a local anvil, on the embedded database (or, with
 * `DATABASE_URL`, a scratch PostgreSQL database created and dropped here), each figure beside a
 * reference that does only the unavoidable part:
 *
 * - **intents prepared per second**: `BENCH_PREPARES` (200) `TransactionIntents.prepare` of an ERC-20
 *   `transfer` (layers/TransactionIntentsLive.ts: viem encoding, EIP-1559 fees, gas estimate, the
 *   owner's pending nonce, the row written and read back) — reference: the same viem encoding and
 *   RPC reads (`encodeFunctionData`, `estimateFeesPerGas`, `estimateGas`, `getTransactionCount`) alone.
 * - **blocks watched per second**: `BENCH_BLOCKS` (20) blocks of `BENCH_TRANSFERS` (100)
 *   transfers each, every one to one of `BENCH_WATCHED` (1,000) addresses proven for listed
 *   agents, processed by the watcher's ticks (src/networks/watcher/Watcher.ts: block fetch,
 *   watched-set lookup, one transaction per block with its cursor advance and one
 *   CHAIN_OBSERVATION item per transfer) — reference: a loop doing only the RPC block fetches
 *   (`eth_getBlockByNumber` with transactions) of the same blocks.
 * - **inclusion → CONFIRMED at depth 2**: a transaction of a SUBMITTED intent is mined, the
 *   next block at once; the time until the intent reads CONFIRMED, with the watcher's loop
 *   polling every `CHAIN_POLL_INTERVAL_MS` (`BENCH_POLL_MS`, 100), over `BENCH_CONFIRMS` (10)
 *   tries (median and max) — reference: the poll interval itself.
 *
 * Prints a small table.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import pg from "pg"
import { encodeFunctionData, type Hash } from "viem"
import { startAnvil } from "../../demo/chain/anvil.js"
import { compileContracts, deployContract } from "../../demo/chain/contracts.js"
import { Chain } from "../../layers/Chain.js"
import { DbEmbedded, DbServer } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { makeWatcher } from "../../src/networks/index.js"
import { TransactionIntents } from "../../layers/TransactionIntents.js"
import { ChainIntentsLive, IntentOutcomesLive } from "../../src/workflows.js"
import { ensureNetworkRows } from "../../src/networks/Networks.js"
import { testConfig, testConfigLayer } from "../support/config.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const blocks = Number(process.env["BENCH_BLOCKS"] ?? 20)
const transfers = Number(process.env["BENCH_TRANSFERS"] ?? 100)
const watchedCount = Number(process.env["BENCH_WATCHED"] ?? 1000)
const pollMs = Number(process.env["BENCH_POLL_MS"] ?? 100)
const confirms = Number(process.env["BENCH_CONFIRMS"] ?? 10)
const prepares = Number(process.env["BENCH_PREPARES"] ?? 200)

const admin = async (text: string) => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const main = async () => {
  const anvil = await startAnvil()
  // an ERC-20 the prepared intents transfer, minted to the sender (automine still on)
  const token = await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "TestToken", ["Bench", "BNC", 18])
  const abi = compileContracts()["TestToken"]!.abi
  await anvil.publicClient.waitForTransactionReceipt({
    hash: await anvil.wallet(0).writeContract({
      address: token, abi, functionName: "mint", args: [anvil.accounts[0]!.address, 10n ** 24n], account: anvil.accounts[0]!, chain: anvil.wallet(0).chain
    }),
    pollingInterval: 50
  })
  await anvil.testClient.setAutomine(false)
  let scratch: string | undefined
  try {
    let db: ReturnType<typeof DbEmbedded>
    if (serverUrl === "") db = DbEmbedded({ dataDir: "memory://" }, migrate)
    else {
      scratch = `bench_chain_${randomBytes(4).toString("hex")}`
      await admin(`CREATE DATABASE ${scratch}`)
      const url = new URL(serverUrl)
      url.pathname = `/${scratch}`
      db = DbServer(Redacted.make(url.toString()), migrate)
    }
    const config = testConfigLayer({
      chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
      outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
      chain: { ...testConfig().chain, confirmations: new Map([[anvil.network, 2]]), pollIntervalMs: pollMs }
    })
    const layer = Layer.mergeAll(ChainIntentsLive, IntentOutcomesLive, IdsLive, db).pipe(Layer.provideMerge(config))
    const rows = await Effect.runPromise(run(anvil, token, abi).pipe(Effect.provide(layer), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Error)))
    console.log(`\nbench:chain on ${serverUrl === "" ? "the embedded database" : "PostgreSQL"}, anvil ${anvil.network}`)
    console.table(rows)
  } finally {
    await anvil.stop()
    if (scratch !== undefined) await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`)
  }
}

type Anvil = Awaited<ReturnType<typeof startAnvil>>

const run = (anvil: Anvil, token: `0x${string}`, abi: import("viem").Abi) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const network = anvil.network
    const client = anvil.publicClient
    yield* ensureNetworkRows

    // intents prepared, beside the bare viem encoding and RPC reads
    const intents = yield* TransactionIntents
    const viemClient = yield* (yield* Chain).client(network)
    const from = anvil.accounts[0]!.address
    const args = [anvil.accounts[1]!.address, 1n] as const
    const p0 = performance.now()
    for (let i = 0; i < prepares; i++) {
      yield* intents.prepare({
        network,
        signer: "OWNER",
        from,
        to: token,
        abi,
        functionName: "transfer",
        args,
        purpose: { kind: "bench", id: randomUUID() },
        workspaceId: null,
        ownerAccountId: null
      })
    }
    const prepareMs = performance.now() - p0
    const q0 = performance.now()
    for (let i = 0; i < prepares; i++) {
      yield* Effect.promise(async () => {
        const data = encodeFunctionData({ abi, functionName: "transfer", args })
        await viemClient.estimateFeesPerGas()
        await viemClient.estimateGas({ account: from, to: token, data })
        await viemClient.getTransactionCount({ address: from, blockTag: "pending" })
      })
    }
    const encodeMs = performance.now() - q0
    // the watched set: listed agents, each with one proven OWNER address
    yield* sql.unsafe(`INSERT INTO agents (id, canonical_slug, name, description, star_count, verification_state, listed_at, created_at, updated_at)
      SELECT md5('bench-agent' || g)::uuid, 'bench-chain-agent-' || g, 'Bench agent ' || g, '', 0, 'UNVERIFIED', now(), now(), now()
      FROM generate_series(1, ${watchedCount}) g`)
    yield* sql.unsafe(`INSERT INTO agent_wallet_relations (id, agent_id, network_id, address, relation, proof_kind, proof_reference, verified_at)
      SELECT md5('bench-rel' || g)::uuid, md5('bench-agent' || g)::uuid, (SELECT id FROM networks WHERE caip2 = '${network}'),
        '0x' || substr(md5('bench-addr' || g), 1, 32) || substr(md5('bench-addr2' || g), 1, 8), 'OWNER', 'SIGNATURE', 'bench', now()
      FROM generate_series(1, ${watchedCount}) g`)
    const watched = (yield* sql<{ address: string }>`SELECT address FROM agent_wallet_relations ORDER BY address LIMIT ${transfers}`)
      .map((r) => r.address as `0x${string}`)
    const watcher = yield* makeWatcher(network)
    yield* watcher.tick // starts at the head
    const rpcSend = (from: number, to: `0x${string}`) =>
      client.request({ method: "eth_sendTransaction", params: [{ from: anvil.accounts[from]!.address, to, value: "0x1", gas: "0x5208" }] } as never) as Promise<Hash>

    // blocks of `transfers` transfers to watched addresses (10 senders)
    const startBlock = yield* Effect.promise(() => client.getBlockNumber({ cacheTime: 0 }))
    for (let b = 0; b < blocks; b++) {
      yield* Effect.promise(async () => {
        for (let i = 0; i < transfers; i += 10) {
          await Promise.all(Array.from({ length: Math.min(10, transfers - i) }, (_, s) => rpcSend(s, watched[(i + s) % watched.length]!)))
        }
        await anvil.testClient.mine({ blocks: 1 })
      })
    }
    const head = yield* Effect.promise(() => client.getBlockNumber({ cacheTime: 0 }))
    const txCount = Number(head - startBlock) * transfers

    // reference: the RPC block fetches only
    const r0 = performance.now()
    for (let n = startBlock + 1n; n <= head; n++) {
      yield* Effect.promise(() => client.getBlock({ blockNumber: n, includeTransactions: true }))
    }
    const refMs = performance.now() - r0

    // the watcher
    const w0 = performance.now()
    let cursor = startBlock
    while (cursor < head) cursor = (yield* watcher.tick).cursor
    const watchMs = performance.now() - w0
    const [recorded] = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM agent_activity WHERE source_kind = 'CHAIN_OBSERVATION'`
    if (Number(recorded!.n) !== txCount) throw new Error(`expected ${txCount} observations, found ${recorded!.n}`)
    const nBlocks = Number(head - startBlock)

    // inclusion → CONFIRMED at depth 2, the watcher's loop running
    const loop = yield* Effect.gen(function*() {
      while (true) {
        const r = yield* watcher.tick.pipe(Effect.orElseSucceed(() => undefined))
        if (r?.behind !== true) yield* Effect.sleep(pollMs)
      }
    }).pipe(Effect.fork)
    const delays: Array<number> = []
    for (let i = 0; i < confirms; i++) {
      const hash = yield* Effect.promise(() => rpcSend(0, anvil.accounts[1]!.address))
      const id = randomUUID()
      yield* sql`INSERT INTO transaction_intents (id, network, state, signer, purpose_kind, purpose_id, from_address, to_address, data,
          call, value, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, nonce, transaction_hash, expires_at, created_at,
          submitted_at, updated_at)
        VALUES (${id}, ${network}, 'SUBMITTED', 'PLATFORM', 'bench', ${randomUUID()}, ${anvil.accounts[0]!.address},
          ${anvil.accounts[1]!.address}, '0x', ${JSON.stringify({ functionName: "transfer", signature: "transfer()", args: [] })}::jsonb,
          1, 21000, 1, 1, 0, ${hash}, now() + interval '1 hour', now(), now(), now())`
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      const t0 = performance.now()
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      while (true) {
        const [row] = yield* sql<{ state: string }>`SELECT state FROM transaction_intents WHERE id = ${id}`
        if (row?.state === "CONFIRMED") break
        yield* Effect.sleep(5)
      }
      delays.push(performance.now() - t0)
    }
    yield* Fiber.interrupt(loop)

    const fixed = (x: number, d = 1) => x.toFixed(d)
    return [
      {
        measure: `intents prepared per second (${prepares}, ERC-20 transfer)`,
        service: fixed(prepares / (prepareMs / 1000)),
        reference: fixed(prepares / (encodeMs / 1000)),
        ratio: fixed(prepareMs / encodeMs, 2)
      },
      {
        measure: `blocks watched per second (${watchedCount} watched, ${transfers} transfers a block)`,
        service: fixed(nBlocks / (watchMs / 1000)),
        reference: fixed(nBlocks / (refMs / 1000)),
        ratio: fixed(watchMs / refMs, 2)
      },
      {
        measure: "transactions observed per second",
        service: fixed(txCount / (watchMs / 1000), 0),
        reference: fixed(txCount / (refMs / 1000), 0),
        ratio: fixed(watchMs / refMs, 2)
      },
      {
        measure: `inclusion → CONFIRMED at depth 2, ms (median of ${confirms}; max ${fixed(Math.max(...delays), 0)})`,
        service: fixed(median(delays), 0),
        reference: `${pollMs} (poll interval)`,
        ratio: fixed(median(delays) / pollMs, 2)
      }
    ]
  })

await main()
