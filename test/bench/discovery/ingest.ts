/**
 * The discovery benchmark's ingestion part (`run()`; alone: `npm run bench:ingest`), on the embedded
 * database or, with `DATABASE_URL`, a scratch PostgreSQL database created and dropped here:
 *
 * - **MCP registry**: a local registry speaking the v0.1 API with `BENCH_SERVERS` (25,000) servers,
 *   ingested in full by one upstream sync (`runSync`: 100-server pages, one transaction each, agents,
 *   entries and server versions written) — reference: the same pages fetched and parsed, nothing written.
 * - **ERC-8004 chain**: a local anvil whose Identity Registry holds `BENCH_REGISTRATIONS` (5,000)
 *   registrations (mined in full blocks) with `data:` registration files (half with an MCP endpoint), ingested by one sync
 *   (logs, files decoded, batches of 500) — reference: the same `eth_getLogs` requests alone.
 *
 * Each figure is agents per second (the aim: at least 1,000), beside its reference.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { pathToFileURL } from "node:url"
import pg from "pg"
import { type Address, encodeFunctionData, parseAbiItem } from "viem"
import { startAnvil } from "../../../demo/chain/anvil.js"
import { compileContracts, deployContract } from "../../../demo/chain/contracts.js"
import { AppConfig } from "../../../layers/AppConfig.js"
import { ChainLive } from "../../../layers/Chain.js"
import { DbEmbedded, DbServer } from "../../../layers/Db.js"
import { IdsLive } from "../../../layers/Ids.js"
import { Outbound, OutboundLive } from "../../../layers/Outbound.js"
import { migrate } from "../../../src/db/migrate.js"
import { runSync, SyncDependencies } from "../../../src/registry/upstream/Sync.js"
import { testConfig, testConfigLayer } from "../../support/config.js"
import { startRegistryServer, type UpstreamVersion } from "../../registry/support.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const serverCount = Number(process.env["BENCH_SERVERS"] ?? 25_000)
const registrations = Number(process.env["BENCH_REGISTRATIONS"] ?? 5_000)

const admin = async (text: string) => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

const file = (i: number) => `data:application/json;base64,${Buffer.from(JSON.stringify({
  type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
  name: `Chain agent ${i}`,
  description: `Registered agent number ${i}`,
  endpoints: i % 2 === 0 ? [{ name: "MCP", endpoint: `https://agent${i}.example/mcp` }] : []
})).toString("base64")}`

/** One row of the figures. */
export interface IngestFigure {
  readonly source: string
  readonly agents: number
  readonly seconds: number
  readonly agentsPerSecond: number
  readonly referencePerSecond: number
}

/** Runs the ingestion benchmark; its figures (also printed). */
export const run = async (): Promise<ReadonlyArray<IngestFigure>> => {
  const upstream: Array<UpstreamVersion> = Array.from({ length: serverCount }, (_, i) => ({
    name: `io.github.bench/server-${String(i).padStart(6, "0")}`,
    version: "1.0.0",
    title: `Bench server ${i}`,
    description: `Bench server number ${i}`,
    status: "active",
    updatedAt: "2026-05-01T00:00:00Z",
    isLatest: true,
    ...(i % 3 === 0 ? { remoteUrl: `https://s${i}.example/mcp` } : {})
  }))
  const registry = await startRegistryServer(upstream)
  const anvil = await startAnvil()
  const identity = await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "IdentityRegistry")
  const abi = compileContracts()["IdentityRegistry"]!.abi
  // the registrations, sent with explicit nonces into the pool, then mined until the pool is empty
  await anvil.testClient.setAutomine(false)
  const wallet = anvil.wallet(0)
  const sender = anvil.accounts[0]!.address
  let nonce = await anvil.publicClient.getTransactionCount({ address: sender })
  for (let i = 0; i < registrations; i++) {
    await wallet.sendTransaction({
      to: identity as Address, data: encodeFunctionData({ abi, functionName: "register", args: [file(i)] }), gas: 1_000_000n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n,
      nonce: nonce++, account: wallet.account!, chain: wallet.chain
    })
  }
  console.error(`sent ${registrations} registrations`)
  while (await anvil.publicClient.getTransactionCount({ address: sender, blockTag: "latest" }) < nonce) {
    await anvil.testClient.mine({ blocks: 1 })
  }
  await anvil.testClient.setAutomine(true)
  console.error("mined")

  let scratch: string | undefined
  try {
    let db: ReturnType<typeof DbEmbedded>
    if (serverUrl === "") db = DbEmbedded({ dataDir: "memory://" }, migrate)
    else {
      scratch = `bench_ingest_${randomBytes(4).toString("hex")}`
      await admin(`CREATE DATABASE ${scratch}`)
      const url = new URL(serverUrl)
      url.pathname = `/${scratch}`
      db = DbServer(Redacted.make(url.toString()), migrate)
    }
    const config = testConfigLayer({
      chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
      outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"], maxBytes: 50 * 1024 * 1024 }
    })
    const outbound = Layer.unwrapEffect(Effect.map(AppConfig, (c) => OutboundLive(c.outbound)))
    const layer = SyncDependencies.pipe(
      Layer.provideMerge(ChainLive),
      Layer.provideMerge(outbound),
      Layer.provideMerge(Layer.mergeAll(IdsLive, db)),
      Layer.provideMerge(config)
    )
    const figures = await Effect.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const fetch = (yield* Outbound).fetch
      const at = new Date()
      yield* sql`INSERT INTO upstream_sources (id, kind, display_name, base_url, domains, sync_interval_seconds, state, created_at, updated_at)
        VALUES ('01900000-0000-7000-8000-00000000b001', 'MCP_REGISTRY', 'bench registry', ${registry.origin}, '[]', 3600, 'ACTIVE', ${at}, ${at})`
      yield* sql`INSERT INTO upstream_sources (id, kind, display_name, network_caip2, registry_address, domains, sync_interval_seconds, state, created_at, updated_at)
        VALUES ('01900000-0000-7000-8000-00000000b002', 'ERC8004', 'bench chain', ${anvil.network}, ${identity.toLowerCase()}, '[]', 3600, 'ACTIVE', ${at}, ${at})`

      // reference: the registry's pages fetched and parsed
      const r0 = performance.now()
      let cursor: string | undefined
      do {
        const body = yield* Effect.promise(async () =>
          (await fetch(`${registry.origin}/v0.1/servers?limit=100${cursor ? `&cursor=${cursor}` : ""}`)).json() as Promise<any>)
        cursor = body.metadata.nextCursor
      } while (cursor !== undefined)
      const registryRef = (performance.now() - r0) / 1000
      console.error("reference read")
      const t0 = performance.now()
      const mcp = yield* runSync("01900000-0000-7000-8000-00000000b001", true)
      const registrySeconds = (performance.now() - t0) / 1000
      console.error(`registry ingested in ${registrySeconds} s`)

      // reference: the logs alone
      const head = yield* Effect.promise(() => anvil.publicClient.getBlockNumber())
      const c0 = performance.now()
      for (let from = 0n; from <= head; from += 10_000n) {
        yield* Effect.promise(() => anvil.publicClient.getLogs({
          address: identity, event: parseAbiItem("event Registered(uint256 indexed agentId, string agentURI, address indexed owner)"),
          fromBlock: from, toBlock: from + 9_999n < head ? from + 9_999n : head
        }))
      }
      const chainRef = (performance.now() - c0) / 1000
      const c1 = performance.now()
      const chain = yield* runSync("01900000-0000-7000-8000-00000000b002", true)
      const chainSeconds = (performance.now() - c1) / 1000
      const [counted] = yield* sql<{ agents: number; servers: number }>`SELECT (SELECT count(*)::int FROM upstream_entries) AS agents,
        (SELECT count(*)::int FROM registry_servers) AS servers`
      if (counted!.agents !== serverCount + registrations) throw new Error(`ingested ${counted!.agents} entries: ${JSON.stringify({ mcp, chain })}`)
      const figure = (source: string, agents: number, seconds: number, ref: number): IngestFigure => ({
        source, agents, seconds: Math.round(seconds * 100) / 100, agentsPerSecond: Math.round(agents / seconds),
        referencePerSecond: Math.round(agents / ref)
      })
      return [
        figure(`MCP registry (${serverCount} servers)`, serverCount, registrySeconds, registryRef),
        figure(`ERC-8004 (${registrations} registrations)`, registrations, chainSeconds, chainRef)
      ]
    }).pipe(Effect.provide(layer), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Error)))
    console.log(`\nbench:ingest on ${serverUrl === "" ? "the embedded database" : "PostgreSQL"}`)
    console.table(figures)
    return figures
  } finally {
    await registry.stop()
    await anvil.stop()
    if (scratch !== undefined) await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`)
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().then(() => process.exit(0), (error) => {
    console.error(error)
    process.exit(1)
  })
}
