/**
 * An ERC-8004 Identity Registry on a local anvil chain ingested as an upstream source: its `Registered`
 * and `URIUpdated` logs read through the configured chain (and, for a network that is not configured,
 * through the source's RPC URL), each registration file read from its URI (`data:` and http), an `MCP`
 * endpoint served as an MCP server of the subregistry; a URI update re-reads the file; a re-sync changes
 * nothing; a file gone marks its entry vanished.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Address } from "viem"
import { startAnvil } from "../../demo/chain/anvil.js"
import { compileContracts, deployContract } from "../../demo/chain/contracts.js"
import { UpstreamSync } from "../../src/registry/upstream/Sync.js"
import { call, type Session, signIn } from "../support/http.js"
import { testConfig } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"
import { validateResponse } from "./ServerSchema.js"
import { startStaticServer } from "./support.js"

const anvil = await startAnvil()
const registry = await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "IdentityRegistry")
const abi = compileContracts()["IdentityRegistry"]!.abi

const files = new Map<string, unknown>()
const site = await startStaticServer(files)

const registration = (name: string, description: string, endpoints: Array<Record<string, string>>) => ({
  type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
  name,
  description,
  endpoints,
  registrations: []
})

const send = async (functionName: "register" | "setAgentURI", args: ReadonlyArray<unknown>) => {
  const wallet = anvil.wallet(0)
  const hash = await wallet.writeContract({ abi, address: registry as Address, functionName, args: args as Array<unknown>, account: wallet.account!, chain: wallet.chain })
  await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

// token 0: a data: URI with an MCP endpoint; token 1: a file over http; token 2: no URI
const dataUri = `data:application/json;base64,${Buffer.from(JSON.stringify(registration("Weather Oracle", "Forecasts on chain", [
  { name: "MCP", endpoint: "https://weather.example/mcp", version: "2025-06-18" },
  { name: "A2A", endpoint: "https://weather.example/.well-known/agent-card.json" }
]))).toString("base64")}`
files.set("/agents/1.json", registration("Ledger Scout", "Reads ledgers", [{ name: "A2A", endpoint: "https://scout.example/card" }]))
await send("register", [dataUri])
await send("register", [`${site.origin}/agents/1.json`])
await send("register", [])

const server = makeTestServer({
  chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] }
})

const syncNow = (admin: Session, sourceId: string, full = false) =>
  Effect.gen(function*() {
    const list = (yield* call("GET", "/api/v1/admin/upstream-sources", { session: admin })).body.data as Array<{ id: string; version: number }>
    const version = list.find((s) => s.id === sourceId)!.version
    const reply = yield* call("POST", `/api/v1/admin/upstream-sources/${sourceId}/sync`, { session: admin, body: { expectedVersion: version, full } })
    expect(reply.status, reply.text).toBe(202)
    const id = yield* UpstreamSync.executionId({ sourceId, version: version + 1, dueAt: reply.body.data.nextSyncAt, full })
    yield* waitFor(`sync of ${sourceId}`, Effect.map(UpstreamSync.poll(id), (r) => (r === undefined ? undefined : true)), 120_000, 50)
    return ((yield* call("GET", "/api/v1/admin/upstream-sources", { session: admin })).body.data as Array<any>).find((s) => s.id === sourceId)
  })

const agentsOf = (sourceId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ key: string; name: string; description: string; state: string; verificationState: string }>`
      SELECT e.external_key AS key, a.name, a.description, e.state, a.verification_state AS "verificationState"
      FROM upstream_entries e JOIN agents a ON a.id = e.agent_id WHERE e.source_id = ${sourceId} ORDER BY e.external_key`)

layer(server.layer, { excludeTestServices: true, timeout: 120_000 })("ERC-8004 upstream source", (it) => {
  it.scoped("registrations are ingested from the chain's logs and their files, updated, re-synced idempotently, marked when gone", () =>
    Effect.gen(function*() {
      yield* Effect.addFinalizer(() => Effect.promise(async () => {
        await site.stop()
        await anvil.stop()
      }))
      const admin = yield* signIn("admin")
      const created = yield* call("POST", "/api/v1/admin/upstream-sources", {
        session: admin,
        body: { kind: "ERC8004", displayName: "Local identity registry", network: anvil.network, registryAddress: registry }
      })
      expect(created.status, created.text).toBe(201)
      const sourceId = created.body.data.id as string
      const first = yield* syncNow(admin, sourceId)
      const head = yield* Effect.promise(() => anvil.publicClient.getBlockNumber())
      expect(first).toMatchObject({ state: "ACTIVE", failureCount: 0, watermark: String(head + 1n), entries: { present: 2, vanished: 0 } })
      expect(yield* agentsOf(sourceId)).toEqual([
        { key: "0", name: "Weather Oracle", description: "Forecasts on chain", state: "PRESENT", verificationState: "UNVERIFIED" },
        { key: "1", name: "Ledger Scout", description: "Reads ledgers", state: "PRESENT", verificationState: "UNVERIFIED" }
      ])
      // the MCP endpoint is an MCP server of the subregistry
      const name = `dev.agent-directory/eip155-${anvil.chainId}-${registry.slice(2, 10).toLowerCase()}-0`
      const served = yield* call("GET", `/v0.1/servers/${encodeURIComponent(name)}/versions/latest`)
      expect(served.status, served.text).toBe(200)
      expect(validateResponse(served.body)).toEqual([])
      expect(served.body.server).toEqual({
        name, title: "Weather Oracle", description: "Forecasts on chain", version: "1.0.0",
        remotes: [{ type: "streamable-http", url: "https://weather.example/mcp" }]
      })
      expect(served.body._meta["dev.agent-directory/evidence"]).toMatchObject({ verificationState: "UNVERIFIED", source: { id: sourceId, kind: "ERC8004", state: "PRESENT" } })

      // the owner points token 1 at a new file: the next (incremental) sync reads it
      files.set("/agents/1-v2.json", registration("Ledger Scout Pro", "Reads ledgers, faster", []))
      yield* Effect.promise(() => send("setAgentURI", [1n, `${site.origin}/agents/1-v2.json`]))
      const second = yield* syncNow(admin, sourceId)
      expect(second.entries).toEqual({ present: 2, vanished: 0 })
      expect((yield* agentsOf(sourceId))[1]).toMatchObject({ name: "Ledger Scout Pro", description: "Reads ledgers, faster" })
      expect(site.requests.map((r) => r.path)).toEqual(["/agents/1.json", "/agents/1-v2.json"])

      // nothing new on chain: nothing read, nothing changed
      const sql = yield* SqlClient.SqlClient
      const snapshot = yield* sql`SELECT id, name, description, updated_at FROM agents ORDER BY id`
      yield* syncNow(admin, sourceId)
      expect(site.requests).toHaveLength(2)
      expect(yield* sql`SELECT id, name, description, updated_at FROM agents ORDER BY id`).toEqual(snapshot)

      // a full re-read asks conditionally (304: unchanged); once the file is gone the entry is marked vanished
      yield* syncNow(admin, sourceId, true)
      expect(site.requests.at(-1)).toEqual({ path: "/agents/1-v2.json", conditional: true, status: 304 })
      files.delete("/agents/1-v2.json")
      const gone = yield* syncNow(admin, sourceId, true)
      expect(gone.entries).toEqual({ present: 1, vanished: 1 })
      expect((yield* agentsOf(sourceId)).map((a) => a.state)).toEqual(["PRESENT", "VANISHED"])
      expect(yield* sql`SELECT id, name FROM agents ORDER BY id`).toHaveLength(snapshot.length)

      // a network that is not configured is read through the source's RPC URL
      const other = yield* call("POST", "/api/v1/admin/upstream-sources", {
        session: admin,
        body: { kind: "ERC8004", displayName: "Elsewhere", network: "eip155:999999", registryAddress: registry, rpcUrl: anvil.rpcUrl }
      })
      expect(other.status, other.text).toBe(201)
      const viaRpc = yield* syncNow(admin, other.body.data.id)
      expect(viaRpc).toMatchObject({ failureCount: 0, entries: { present: 1, vanished: 0 } })
      const none = yield* call("POST", "/api/v1/admin/upstream-sources", {
        session: admin,
        body: { kind: "ERC8004", displayName: "Unknown", network: "eip155:999998", registryAddress: registry }
      })
      expect(yield* syncNow(admin, none.body.data.id)).toMatchObject({ failureCount: 1, lastFailure: "network-not-configured" })
    }), 300_000)
})
