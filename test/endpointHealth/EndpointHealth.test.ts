/**
 * Endpoint health (src/endpointHealth/): probes of agents' stored
 * endpoints against real local servers, recorded in `agent_endpoint_probes` with the
 * agent's evidence mark, and the `ProbeAgentEndpoints` / `PurgeEndpointProbes` crons on the
 * test server's engine (manual clock).
 *
 * - A2A interfaces imported for real (Agents_ImportAgentSource of a card served locally):
 *   a 405 is ok with a latency, a 503 is `HTTP_STATUS`;
 * - MCP servers (the SDK's server, test/support/mcpServer.ts): Streamable HTTP answers
 *   `initialize` + `ping` → ok; one requiring OAuth (401) → ok; the same URL listed again as a
 *   registration endpoint is probed once; a DISABLED connection is not probed;
 * - a server that never answers → `TIMEOUT` within the configured timeout;
 * - `localhost` (a loopback name not in OUTBOUND_ALLOWED_HOSTS) → `TARGET_REFUSED`, and the
 *   server behind it saw no connection.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, HashMap, Layer, Logger, LogLevel } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAgentCard } from "../../demo/agents/imports/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { EndpointHealth } from "../../src/endpointHealth/EndpointHealth.js"
import type { EndpointProbe } from "../../src/endpointHealth/Repo.js"
import { IdsLive } from "../../layers/Ids.js"
import { OutboundLive } from "../../layers/Outbound.js"
import { configLayer, testConfig } from "../support/config.js"
import { call, signIn } from "../support/http.js"
import { TestMcpServer } from "../support/mcpServer.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { pause } from "../support/time.js"
import { until, waitFor } from "../support/waitFor.js"
import { awaitCronScheduled } from "../support/workflows.js"
import { clearMarks, markOf } from "../support/evidenceMarks.js"

const minute = 60_000
// generous: the embedded database shares the event loop, and the machine may be busy
const timeoutMs = 3000

// local servers are reachable as 127.0.0.1 only (not as "localhost"); a probe waits at most 3 s; a round every 5 minutes
const config = testConfig({
  outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] },
  endpointProbes: { intervalMinutes: 5, timeoutMs }
})
const server = makeTestServer(config)

/** The probing service, as the server's crons build it, on the test's database. */
const Health = EndpointHealth.Default.pipe(
  Layer.provide(OutboundLive(config.outbound)),
  Layer.provide(configLayer(config)),
  Layer.provide(IdsLive)
)

const beacon = DemoAgents[1].id
const delta = DemoAgents[3].id
const forge = DemoAgents[5].id

/** A local HTTP server: `/card.json` (an A2A card naming `/rpc` and `/down`), `/rpc` 405, `/down` 503, `/hang` never answers. */
interface LocalHost {
  readonly origin: string
  /** Requests by path, and TCP connections accepted (`connections`). */
  readonly hits: Record<string, number>
}

const LocalHost = Effect.acquireRelease(
  Effect.async<{ readonly host: LocalHost; readonly http: ReturnType<typeof createServer> }>((resume) => {
    const hits: Record<string, number> = {}
    let origin = ""
    const http = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? "/", origin).pathname
      hits[path] = (hits[path] ?? 0) + 1
      if (path === "/card.json") {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({
          ...DemoAgentCard,
          name: "Beacon Monitor",
          url: `${origin}/rpc`,
          additionalInterfaces: [{ url: `${origin}/down`, transport: "HTTP+JSON" }]
        }))
      } else if (path === "/rpc") {
        res.writeHead(405, { allow: "POST" }).end()
      } else if (path === "/down") {
        res.writeHead(503).end()
      } else if (path !== "/hang") { // /hang never answers
        res.writeHead(404).end()
      }
    })
    http.on("connection", () => {
      hits["connections"] = (hits["connections"] ?? 0) + 1
    })
    http.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
      resume(Effect.succeed({ host: { origin, hits }, http }))
    })
  }),
  ({ http }) =>
    Effect.sync(() => http.closeAllConnections()).pipe(
      Effect.zipRight(Effect.async<void>((resume) => {
        http.close(() => resume(Effect.void))
      }))
    )
).pipe(Effect.map(({ host }) => host))

/** An import row for `agent` (the endpoints inserted by SQL reference one). */
const importRow = (agent: string, id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO agent_imports (id, agent_id, kind, url, state, requested_by, created_at, updated_at)
      VALUES (${id}, ${agent}, 'ERC8004_REGISTRATION', 'https://x.example/r.json', 'SUCCEEDED', ${DemoAccounts.owner.id}, ${TestEpoch}, ${TestEpoch})`)

/** The stored probes of `agent`, in insertion order of their URLs. */
const storedProbes = (agent: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ kind: string; url: string; ok: boolean; latencyMs: number | null; failureCode: string | null; probedAt: string }>`
      SELECT endpoint_kind AS kind, url, ok, latency_ms AS "latencyMs", failure_code AS "failureCode", api_ts(probed_at) AS "probedAt"
      FROM agent_endpoint_probes WHERE agent_id = ${agent} ORDER BY probed_at, url`)

/** Whether `agent`'s evidence was marked since `clearMarks` (test/support/evidenceMarks.ts: seen even once drained). */
const marked = (agent: string) => Effect.map(markOf(agent), (at) => at !== undefined)

const probeAgent = (agent: string) => Effect.flatMap(EndpointHealth, (health) => health.probeAgent(agent)).pipe(Effect.provide(Health))

const summary = (probes: ReadonlyArray<EndpointProbe>) =>
  probes.map((p) => ({ kind: p.kind, url: p.url, ok: p.ok, failureCode: p.failureCode, answered: p.latencyMs !== null }))

layer(server.layer, { excludeTestServices: true, timeout: 120_000 })("endpoint health probes", (it) => {
  it.scoped("A2A interfaces of a really imported card: 405 ok with a latency, 503 HTTP_STATUS; stored with the evidence mark", () =>
    Effect.gen(function*() {
      const host = yield* LocalHost
      const owner = yield* signIn("owner")
      const started = yield* call("POST", `/api/v1/agents/${beacon}/imports`, {
        session: owner,
        body: { kind: "A2A_AGENT_CARD", url: `${host.origin}/card.json` }
      })
      expect(started.status, started.text).toBe(202)
      const imported = yield* waitFor(
        "the import to end",
        until(
          call("GET", `/api/v1/agents/${beacon}/imports/${started.body.data.id}`, { session: owner }),
          (reply) => ["SUCCEEDED", "FAILED"].includes(reply.body.data.state),
          (reply) => reply.text
        ),
        20_000,
        50
      )
      expect(imported.body.data.state).not.toBe("FAILED")
      yield* clearMarks
      expect(yield* marked(beacon)).toBe(false)

      const probes = yield* probeAgent(beacon)
      expect(summary(probes)).toEqual([
        { kind: "A2A_INTERFACE", url: `${host.origin}/rpc`, ok: true, failureCode: null, answered: true },
        { kind: "A2A_INTERFACE", url: `${host.origin}/down`, ok: false, failureCode: "HTTP_STATUS", answered: true }
      ])
      expect(host.hits["/rpc"]).toBe(1)
      expect(host.hits["/down"]).toBe(1)
      const stored = yield* storedProbes(beacon)
      expect(stored.map((p) => [p.kind, p.url, p.ok, p.failureCode]).sort()).toEqual([
        ["A2A_INTERFACE", `${host.origin}/down`, false, "HTTP_STATUS"],
        ["A2A_INTERFACE", `${host.origin}/rpc`, true, null]
      ])
      expect(stored.every((p) => typeof p.latencyMs === "number" && p.latencyMs >= 0 && p.latencyMs < timeoutMs)).toBe(true)
      expect(yield* marked(beacon)).toBe(true)
    }))

  it.scoped("MCP servers: initialize + ping ok, a 401 (OAuth required) ok, a URL listed twice probed once, DISABLED not probed", () =>
    Effect.gen(function*() {
      const mcp = yield* TestMcpServer()
      const sql = yield* SqlClient.SqlClient
      const connection = (n: number, url: string, transport: string, state: string) =>
        sql`INSERT INTO mcp_connections (id, agent_id, name, server_url, state, transport, created_at, updated_at)
          VALUES (${`0000000d-0000-7000-8000-00000000000${n}`}, ${delta}, ${`MCP ${n}`}, ${url}, ${state}, ${transport},
                  ${new Date(TestEpoch.getTime() + n)}, ${new Date(TestEpoch.getTime() + n)})`
      yield* connection(1, `${mcp.origin}/mcp`, "STREAMABLE_HTTP", "CONNECTED")
      yield* connection(2, `${mcp.origin}/protected`, "AUTO", "AUTH_REQUIRED")
      yield* connection(3, `${mcp.origin}/disabled`, "AUTO", "DISABLED")
      const importId = "0000000d-0000-7000-8000-0000000000a1"
      yield* importRow(delta, importId)
      yield* sql`INSERT INTO agent_registration_endpoints (agent_id, position, import_id, name, endpoint)
        VALUES (${delta}, 0, ${importId}, 'MCP', ${`${mcp.origin}/mcp`}), (${delta}, 1, ${importId}, 'agentWallet', 'eip155:8453:0x1111111111111111111111111111111111111111')`
      yield* clearMarks

      const probes = yield* probeAgent(delta)
      expect(summary(probes)).toEqual([
        { kind: "MCP_SERVER", url: `${mcp.origin}/mcp`, ok: true, failureCode: null, answered: true },
        { kind: "MCP_SERVER", url: `${mcp.origin}/protected`, ok: true, failureCode: null, answered: true }
      ])
      expect((yield* storedProbes(delta)).map((p) => [p.url, p.ok])).toEqual([
        [`${mcp.origin}/mcp`, true],
        [`${mcp.origin}/protected`, true]
      ])
      expect(yield* marked(delta)).toBe(true)
    }))

  it.scoped("a server that never answers is TIMEOUT within the timeout; localhost (not allowed) is TARGET_REFUSED with no connection", () =>
    Effect.gen(function*() {
      const host = yield* LocalHost
      const other = yield* LocalHost // reached only as localhost: refused
      const sql = yield* SqlClient.SqlClient
      const importId = "0000000d-0000-7000-8000-0000000000a2"
      yield* importRow(forge, importId)
      const refused = other.origin.replace("127.0.0.1", "localhost")
      yield* sql`INSERT INTO agent_interfaces (agent_id, position, import_id, url, protocol_binding)
        VALUES (${forge}, 0, ${importId}, ${`${host.origin}/hang`}, 'JSONRPC'),
               (${forge}, 1, ${importId}, ${`${refused}/rpc`}, 'JSONRPC')`

      const started = Date.now()
      const probes = yield* probeAgent(forge)
      const elapsed = Date.now() - started
      expect(summary(probes)).toEqual([
        { kind: "A2A_INTERFACE", url: `${host.origin}/hang`, ok: false, failureCode: "TIMEOUT", answered: false },
        { kind: "A2A_INTERFACE", url: `${refused}/rpc`, ok: false, failureCode: "TARGET_REFUSED", answered: false }
      ])
      // both probes run side by side: the round took about one timeout
      expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 50)
      expect(elapsed).toBeLessThan(timeoutMs + 3000)
      expect(host.hits["/hang"]).toBe(1)
      // the refused target's server saw no connection at all
      expect(other.hits).toEqual({})
    }))

  it.scoped("a failed probe is logged with the URL's origin and path only: a key in its query string reaches no log", () =>
    Effect.gen(function*() {
      const host = yield* LocalHost
      const sql = yield* SqlClient.SqlClient
      const agent = DemoAgents[2].id
      const importId = "0000000d-0000-7000-8000-0000000000a6"
      const secret = "sk-probe-0123456789abcdef"
      yield* importRow(agent, importId)
      yield* sql`INSERT INTO agent_interfaces (agent_id, position, import_id, url, protocol_binding)
        VALUES (${agent}, 0, ${importId}, ${`${host.origin}/down?key=${secret}#token=${secret}`}, 'JSONRPC')`
      const events: Array<{ readonly message: unknown; readonly annotations: Record<string, unknown> }> = []
      const lines: Array<string> = []
      const capturing = Logger.make<unknown, void>((options) => {
        events.push({ message: options.message, annotations: Object.fromEntries(HashMap.toEntries(options.annotations)) })
        lines.push(Logger.logfmtLogger.log(options), Logger.jsonLogger.log(options))
      })
      const probes = yield* probeAgent(agent).pipe(
        Effect.provide(Layer.merge(Logger.replace(Logger.defaultLogger, capturing), Logger.minimumLogLevel(LogLevel.All)))
      )
      // (the demo agent's other endpoints are probed too)
      expect(probes.filter((p) => p.url.startsWith(host.origin)).map((p) => [p.ok, p.failureCode])).toEqual([[false, "HTTP_STATUS"]])
      const failed = events.filter((e) => e.message === "endpoint probe failed" || (Array.isArray(e.message) && e.message[0] === "endpoint probe failed"))
      expect(failed.map((e) => e.annotations["url"])).toContain(`${host.origin}/down`)
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) expect(line).not.toContain(secret)
    }))

  it.scoped("an agent that is not listed is not probed, by probeAgent nor by a round; a round probes the listed ones", () =>
    Effect.gen(function*() {
      const host = yield* LocalHost
      const sql = yield* SqlClient.SqlClient
      const harbor = DemoAgents[7].id
      const echo = DemoAgents[4].id
      for (const [agent, importId] of [[harbor, "0000000d-0000-7000-8000-0000000000a4"], [echo, "0000000d-0000-7000-8000-0000000000a5"]] as const) {
        yield* importRow(agent, importId)
        yield* sql`INSERT INTO agent_interfaces (agent_id, position, import_id, url, protocol_binding)
          VALUES (${agent}, 0, ${importId}, ${`${host.origin}/rpc?agent=${agent}`}, 'JSONRPC')`
      }
      yield* sql`UPDATE agents SET listed_at = NULL WHERE id = ${harbor}`

      expect(yield* probeAgent(harbor)).toEqual([])
      const round = yield* Effect.flatMap(EndpointHealth, (health) => health.probeAll).pipe(Effect.provide(Health))
      expect(round.cutOff).toBe(false)
      expect(round.probes.filter((p) => p.url.startsWith(host.origin)).map((p) => [p.agentId, p.ok])).toEqual([[echo, true]])
      expect(host.hits["/rpc"]).toBe(1)
      expect(yield* storedProbes(harbor)).toEqual([])
      expect(round.failed).toBe(round.probes.filter((p) => !p.ok).length)
    }))

  it.scoped("the ProbeAgentEndpoints cron probes at 00:05 UTC (manual clock); the purge cron deletes probes older than 90 days", () =>
    Effect.gen(function*() {
      const host = yield* LocalHost
      const sql = yield* SqlClient.SqlClient
      const gamma = DemoAgents[6].id
      const importId = "0000000d-0000-7000-8000-0000000000a3"
      yield* importRow(gamma, importId)
      yield* sql`INSERT INTO agent_registration_endpoints (agent_id, position, import_id, name, endpoint)
        VALUES (${gamma}, 0, ${importId}, 'A2A', ${`${host.origin}/rpc`})`
      const old = (days: number) => new Date(TestEpoch.getTime() - days * 86_400_000)
      yield* sql`INSERT INTO agent_endpoint_probes (id, agent_id, endpoint_kind, url, probed_at, ok, latency_ms, failure_code)
        VALUES ('0000000d-0000-7000-8000-0000000000b1', ${gamma}, 'A2A_INTERFACE', 'https://old.example', ${old(91)}, false, NULL, 'TIMEOUT'),
               ('0000000d-0000-7000-8000-0000000000b2', ${gamma}, 'A2A_INTERFACE', 'https://kept.example', ${old(89)}, true, 12, NULL)`
      yield* clearMarks

      // the engine holds the cron's first occurrence once the runner took its shard
      const holds = <E, R>(check: Effect.Effect<boolean, E, R>, what: string) =>
        waitFor(what, until(check, (held) => held), 30_000, 50)
      yield* awaitCronScheduled("ProbeAgentEndpoints")
      yield* pause(300)
      expect(host.hits["/rpc"]).toBeUndefined()

      const tick = new Date(TestEpoch.getTime() + 5 * minute + 500)
      server.clock.set(tick)
      const fresh = Effect.map(storedProbes(gamma), (rows) => rows.filter((r) => r.url === `${host.origin}/rpc`))
      yield* holds(Effect.map(fresh, (rows) => rows.length === 1), "the cron's probe")
      const [probe] = yield* fresh
      expect(probe).toMatchObject({ kind: "REGISTRATION_ENDPOINT", ok: true, failureCode: null, probedAt: tick.toISOString() })
      expect(yield* marked(gamma)).toBe(true)

      // 00:15: the purge deletes the 91-day-old probe, keeps the 89-day-old one
      yield* awaitCronScheduled("PurgeEndpointProbes")
      server.clock.set(new Date(TestEpoch.getTime() + 15 * minute + 500))
      const urls = Effect.map(storedProbes(gamma), (rows) => rows.map((r) => r.url))
      yield* holds(Effect.map(urls, (u) => !u.includes("https://old.example")), "the purge")
      expect(yield* urls).toContain("https://kept.example")
    }))
})
