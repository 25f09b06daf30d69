/**
 * The MCP subregistry fed by upstream sources, through the HTTP stack and the durable engine: a local MCP
 * registry speaking the v0.1 API (cursor pages, `updated_since`) and a local domain serving agent cards
 * are ingested (Partners_CreateUpstreamSource, Partners_SyncUpstreamSource); the directory's
 * `/v0.1/servers` answers validate against the registry's published schemas; re-syncing is idempotent;
 * entries deleted or gone upstream are marked vanished, never deleted; cards are re-read conditionally.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { UpstreamSync } from "../../src/registry/upstream/Sync.js"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { testConfig } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"
import { validateList, validateResponse } from "./ServerSchema.js"
import { startRegistryServer, startStaticServer, type UpstreamVersion } from "./support.js"

const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

/** 130 servers (three pages of the sync), the first 5 in two versions. */
const upstream: Array<UpstreamVersion> = Array.from({ length: 130 }, (_, i) => {
  const name = `io.github.example/server-${String(i).padStart(3, "0")}`
  const latest: UpstreamVersion = {
    name, version: "1.1.0", description: `Server ${i} does things`, title: `Server ${i}`, status: "active",
    updatedAt: "2026-05-01T00:00:00Z", isLatest: true, ...(i % 2 === 0 ? { remoteUrl: `https://s${i}.example/mcp` } : {})
  }
  return i < 5 ? [{ ...latest, version: "1.0.0", isLatest: false, updatedAt: "2026-04-01T00:00:00Z" }, latest] : [latest]
}).flat()

const create = (admin: Session, body: unknown) =>
  Effect.map(call("POST", "/api/v1/admin/upstream-sources", { session: admin, body }), (reply) => {
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data as { id: string; version: number }
  })

/** Asks for a sync and waits (at most 60 s) for its workflow to finish; the source after it. */
const syncNow = (admin: Session, sourceId: string, full = false) =>
  Effect.gen(function*() {
    const sources = (yield* call("GET", "/api/v1/admin/upstream-sources", { session: admin })).body.data as Array<{ id: string; version: number }>
    const version = sources.find((s) => s.id === sourceId)!.version
    const reply = yield* call("POST", `/api/v1/admin/upstream-sources/${sourceId}/sync`, { session: admin, body: { expectedVersion: version, full } })
    expect(reply.status, reply.text).toBe(202)
    expect(reply.body.data.version).toBe(version + 1)
    const id = yield* UpstreamSync.executionId({ sourceId, version: version + 1, dueAt: reply.body.data.nextSyncAt, full })
    yield* waitFor(`sync of ${sourceId}`, Effect.map(UpstreamSync.poll(id), (r) => (r === undefined ? undefined : true)), 120_000, 50)
    const after = (yield* call("GET", "/api/v1/admin/upstream-sources", { session: admin })).body.data as Array<any>
    return after.find((s) => s.id === sourceId)
  })

/** Every page of `/v0.1/servers?query`, each validated against the registry's `ServerList`. */
const allServers = (query: string) =>
  Effect.gen(function*() {
    const out: Array<any> = []
    let cursor: string | undefined
    do {
      const reply = yield* call("GET", `/v0.1/servers?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)
      expect(reply.status, reply.text).toBe(200)
      expect(validateList(reply.body)).toEqual([])
      expect(reply.body.metadata.count).toBe(reply.body.servers.length)
      out.push(...reply.body.servers)
      cursor = reply.body.metadata.nextCursor
    } while (cursor !== undefined)
    return out
  })

const counts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ agents: number; servers: number; latest: Date }>`SELECT
      (SELECT count(*)::int FROM agents) AS agents, (SELECT count(*)::int FROM registry_servers) AS servers,
      (SELECT max(updated_at) FROM registry_servers) AS latest`
  return row!
})

layer(server.layer, { excludeTestServices: true, timeout: 120_000 })("MCP subregistry and upstream sources", (it) => {
  it.scoped("a local v0.1 registry is ingested, served back in the registry's shapes, re-synced idempotently, deletions marked", () =>
    Effect.gen(function*() {
      const registry = yield* Effect.acquireRelease(Effect.promise(() => startRegistryServer(upstream)), (r) => Effect.promise(r.stop))
      const admin = yield* signIn("admin")
      const before = yield* counts
      const source = yield* create(admin, { kind: "MCP_REGISTRY", displayName: "Local registry", baseUrl: `${registry.origin}/` })
      expect(source).toMatchObject({ kind: "MCP_REGISTRY", baseUrl: registry.origin, state: "ACTIVE", version: 1, entries: { present: 0, vanished: 0 } })

      const synced = yield* syncNow(admin, source.id)
      expect(synced).toMatchObject({ state: "ACTIVE", failureCount: 0, watermark: "2026-05-01T00:00:00.000Z", entries: { present: 130, vanished: 0 } })
      // the full first read: three pages of 100, no updated_since
      expect(registry.requests.filter((r) => r.startsWith("/v0.1/servers"))).toHaveLength(2)
      const ingested = yield* counts
      expect(ingested.agents - before.agents).toBe(130)
      expect(ingested.servers - before.servers).toBe(135)

      // served back: every page validates against the registry's ServerList; our evidence under our key
      const latest = (yield* allServers("version=latest&limit=50")).filter((s) => s.server.name.startsWith("io.github.example/"))
      expect(latest).toHaveLength(130)
      const first = latest[0]
      expect(first.server).toMatchObject({ name: "io.github.example/server-000", version: "1.1.0", description: "Server 0 does things" })
      expect(first.server.packages).toEqual([{ registryType: "npm", identifier: "@example/server-000", version: "1.1.0", transport: { type: "stdio" } }])
      expect(first._meta["io.modelcontextprotocol.registry/official"]).toEqual({
        status: "active", publishedAt: "2025-09-01T00:00:00.000Z", updatedAt: "2026-05-01T00:00:00.000Z",
        statusChangedAt: expect.any(String), isLatest: true
      })
      expect(first._meta["dev.agent-directory/evidence"]).toMatchObject({
        verificationState: "UNVERIFIED", findingsCount: null, trust: { feedbackCount: 0, averageRatingPpm: null },
        health: { probedAt: null, ok: null, latencyMs: null }, source: { id: source.id, kind: "MCP_REGISTRY", state: "PRESENT" }
      })
      // the agent is in the directory, UNVERIFIED
      const profile = yield* call("GET", `/api/v1/agents/${first._meta["dev.agent-directory/evidence"].agentId}`)
      expect(profile.status, profile.text).toBe(200)
      expect(profile.body.data).toMatchObject({ name: "Server 0", verificationState: "UNVERIFIED" })

      // search, versions, one version (the name URL-encoded)
      const found = yield* call("GET", "/v0.1/servers?search=SERVER-12&version=latest")
      expect(found.body.servers.map((s: any) => s.server.name)).toEqual(
        Array.from({ length: 10 }, (_, i) => `io.github.example/server-12${i}`)
      )
      const versions = yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/server-001")}/versions`)
      expect(versions.status, versions.text).toBe(200)
      expect(validateList(versions.body)).toEqual([])
      expect(versions.body.servers.map((s: any) => [s.server.version, s._meta["io.modelcontextprotocol.registry/official"].isLatest]))
        .toEqual([["1.0.0", false], ["1.1.0", true]].sort((a, b) => a[0]! < b[0]! ? 1 : -1))
      const one = yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/server-001")}/versions/1.0.0`)
      expect(one.status, one.text).toBe(200)
      expect(validateResponse(one.body)).toEqual([])
      expect(one.body.server.version).toBe("1.0.0")
      const newest = yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/server-001")}/versions/latest`)
      expect(newest.body.server.version).toBe("1.1.0")
      expectProblem(yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/none")}/versions`), 404, "mcp-server-not-found")
      expectProblem(yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/server-001")}/versions/9.9.9`), 404, "mcp-server-not-found")
      expectProblem(yield* call("GET", "/v0.1/servers?limit=0"), 400, "invalid-request")
      expectProblem(yield* call("GET", "/v0.1/servers?updated_since=yesterday"), 400, "invalid-request")
      const page = yield* call("GET", "/v0.1/servers?limit=2")
      expectProblem(yield* call("GET", `/v0.1/servers?limit=2&search=x&cursor=${encodeURIComponent(page.body.metadata.nextCursor)}`), 400, "invalid-cursor")

      // an incremental re-sync with nothing new upstream changes nothing
      registry.requests.length = 0
      const again = yield* syncNow(admin, source.id)
      expect(registry.requests).toEqual(["/v0.1/servers?limit=100&updated_since=2026-05-01T00%3A00%3A00.000Z"])
      expect(again.entries).toEqual({ present: 130, vanished: 0 })
      expect(yield* counts).toEqual(ingested)

      // upstream deletes one server and updates another: only those change
      const at = (name: string) => upstream.findIndex((v) => v.name === name && v.isLatest)
      upstream[at("io.github.example/server-010")] = { ...upstream[at("io.github.example/server-010")]!, status: "deleted", updatedAt: "2026-05-10T00:00:00Z" }
      upstream[at("io.github.example/server-011")] = { ...upstream[at("io.github.example/server-011")]!, description: "Now with more", updatedAt: "2026-05-11T00:00:00Z" }
      const third = yield* syncNow(admin, source.id)
      expect(third).toMatchObject({ watermark: "2026-05-11T00:00:00.000Z", entries: { present: 129, vanished: 1 } })
      expect((yield* counts).agents).toBe(ingested.agents)
      expect((yield* call("GET", "/v0.1/servers?search=server-011&version=latest")).body.servers[0].server.description).toBe("Now with more")
      // a deleted server is answered only when asked for, marked, with its agent kept
      expectProblem(yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/server-010")}/versions/latest`), 404, "mcp-server-not-found")
      const gone = yield* call("GET", `/v0.1/servers/${encodeURIComponent("io.github.example/server-010")}/versions/latest?include_deleted=true`)
      expect(gone.status, gone.text).toBe(200)
      expect(validateResponse(gone.body)).toEqual([])
      expect(gone.body._meta["io.modelcontextprotocol.registry/official"].status).toBe("deleted")
      expect(gone.body._meta["dev.agent-directory/evidence"].source.state).toBe("VANISHED")
      // incremental mirrors see the changes (deleted included) with updated_since
      const changes = yield* allServers("updated_since=2026-05-05T00:00:00Z")
      expect(changes.map((s) => s.server.name).filter((n) => n.startsWith("io.github.example/"))).toEqual([
        "io.github.example/server-010", "io.github.example/server-011"
      ])

      // a full re-read marks a server that disappeared upstream altogether
      upstream.splice(at("io.github.example/server-129"), 1)
      const full = yield* syncNow(admin, source.id, true)
      expect(full.entries).toEqual({ present: 128, vanished: 2 })
      const sql = yield* SqlClient.SqlClient
      const [entry] = yield* sql<{ state: string; vanishedAt: Date | null }>`SELECT state, vanished_at AS "vanishedAt" FROM upstream_entries
        WHERE source_id = ${source.id} AND external_key = 'io.github.example/server-129'`
      expect(entry!.state).toBe("VANISHED")
      expect(entry!.vanishedAt).not.toBeNull()
      expect((yield* counts).agents).toBe(ingested.agents)
    }), 300_000)

  it.scoped("well-known agent cards are ingested, re-read conditionally, and a card gone marks its entry", () =>
    Effect.gen(function*() {
      const cards = new Map<string, unknown>([
        ["/.well-known/agent-card.json", { name: "Weather Agent", description: "Forecasts for anywhere", url: "https://weather.example/a2a", skills: [] }]
      ])
      const site = yield* Effect.acquireRelease(Effect.promise(() => startStaticServer(cards)), (s) => Effect.promise(s.stop))
      const admin = yield* signIn("admin")
      const source = yield* create(admin, { kind: "WELL_KNOWN", displayName: "Partner domains", domains: [site.origin], syncIntervalSeconds: 600 })
      const first = yield* syncNow(admin, source.id)
      expect(first).toMatchObject({ state: "ACTIVE", entries: { present: 1, vanished: 0 } })
      const sql = yield* SqlClient.SqlClient
      const agent = yield* sql<{ name: string; verificationState: string }>`SELECT a.name, a.verification_state AS "verificationState"
        FROM upstream_entries e JOIN agents a ON a.id = e.agent_id WHERE e.source_id = ${source.id}`
      expect(agent).toEqual([{ name: "Weather Agent", verificationState: "UNVERIFIED" }])
      // the second read sends the validators and gets 304
      yield* syncNow(admin, source.id)
      expect(site.requests.map((r) => [r.conditional, r.status])).toEqual([[false, 200], [true, 304]])
      // the card disappears: marked, not deleted
      cards.clear()
      const third = yield* syncNow(admin, source.id)
      expect(third.entries).toEqual({ present: 0, vanished: 1 })
      expect(yield* sql`SELECT 1 FROM agents a JOIN upstream_entries e ON e.agent_id = a.id WHERE e.source_id = ${source.id}`).toHaveLength(1)
    }), 300_000)

  it.scoped("an unreachable upstream is a recorded failure; a stale version is refused", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const source = yield* create(admin, { kind: "MCP_REGISTRY", displayName: "Nowhere", baseUrl: "http://127.0.0.1:9/" })
      const failed = yield* syncNow(admin, source.id)
      expect(failed).toMatchObject({ state: "ACTIVE", failureCount: 1, lastFailure: "network-error" })
      expectProblem(
        yield* call("POST", `/api/v1/admin/upstream-sources/${source.id}/sync`, { session: admin, body: { expectedVersion: 1 } }),
        409,
        "version-conflict"
      )
      expectProblem(
        yield* call("POST", "/api/v1/admin/upstream-sources/01900000-0000-7000-8000-000000000000/sync", { session: admin, body: { expectedVersion: 1 } }),
        404,
        "upstream-source-not-found"
      )
      expectProblem(yield* call("POST", "/api/v1/admin/upstream-sources", { session: admin, body: { kind: "ERC8004", displayName: "x", network: "base" } }), 400, "invalid-request")
    }), 300_000)
})
