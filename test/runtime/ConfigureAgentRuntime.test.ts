/**
 * Runtime_ConfigureAgentRuntime and Runtime_GetAgentRuntime through
 * the HTTP stack: create (201) and replace (200) with optimistic concurrency, tool
 * grants mirrored into the agent's runtime tools (and taken by tool versions an MCP
 * catalog adds later), unknown providers, roles, visibility, retired agents and
 * idempotent replays. No credential ever reaches a response.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { IdsSequence } from "../../layers/Ids.js"
import { DemoMcpConnections, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { McpConnectionsRepo } from "../../src/mcp/connections/Repo.js"
import { syncRuntimeTools } from "../../src/mcp/RuntimeTools.js"
import type { DemoAccounts } from "../../demo/accounts/seed.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const Key = "sk-configure-test-secret-7f3a"
const server = makeTestServer({
  modelProfiles: { local: { kind: "openai", baseUrl: "http://127.0.0.1:1/v1", apiKey: Redacted.make(Key), prices: {} } }
})
const path = (agent: string) => `/api/v1/agents/${agent}/runtime`

const put = (agent: string, body: unknown, account: keyof typeof DemoAccounts = "member", idempotencyKey?: string) =>
  Effect.gen(function*() {
    const reply = yield* call("PUT", path(agent), {
      body, session: yield* signIn(account), ...(idempotencyKey === undefined ? {} : { idempotencyKey })
    })
    expect(reply.text).not.toContain(Key)
    return reply
  })
const get = (agent: string, account: keyof typeof DemoAccounts = "member") =>
  Effect.gen(function*() {
    const reply = yield* call("GET", path(agent), { session: yield* signIn(account) })
    expect(reply.text).not.toContain(Key)
    return reply
  })

const tools = (agent: string) =>
  Effect.gen(function*() {
    const reply = yield* call("GET", `/api/v1/agents/${agent}/tools`, { session: yield* signIn("member") })
    expect(reply.status, reply.text).toBe(200)
    return (reply.body.data as Array<{ stableName: string; version: number; grantState: string | null }>)
      .map((t) => [t.stableName, t.version, t.grantState])
  })

const body = {
  provider: "local",
  model: "qwen3-8b",
  instructions: "You watch the status page.",
  temperature: 0.7,
  maxOutputTokens: 2000,
  toolGrants: [{ stableName: "status.read", grant: "GRANTED" }]
}

layer(server.layer)("Runtime_ConfigureAgentRuntime / Runtime_GetAgentRuntime", (it) => {
  it.effect("creates (201, version 1) without expectedVersion, reads it back, replays the same key", () =>
    Effect.gen(function*() {
      const agent = DemoRuntimeAgents.unconfigured
      expectProblem(yield* get(agent), 422, "configuration-missing")
      const key = randomUUID()
      const created = yield* put(agent, body, "member", key)
      expect(created.status, created.text).toBe(201)
      expect(created.headers["cache-control"]).toBe("no-store")
      expectMeta(created)
      const at = "2026-06-01T00:00:00.000Z"
      expect(created.body.data).toEqual({
        entityPublicId: agent, provider: "local", model: "qwen3-8b", instructions: "You watch the status page.",
        temperature: 0.7, maxOutputTokens: 2000, toolGrants: [{ stableName: "status.read", grant: "GRANTED" }],
        version: 1, createdAt: at, updatedAt: at
      })
      const read = yield* get(agent, "admin") // VIEWER: every workspace role reads
      expect(read.status, read.text).toBe(200)
      expect(read.headers["cache-control"]).toBe("private, no-cache")
      expect(read.body.data).toEqual(created.body.data)

      // the same key and body: the stored answer, 201 again; a different body: refused
      const replay = yield* put(agent, body, "member", key)
      expect(replay.status).toBe(201)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.body.data).toEqual(created.body.data)
      expectProblem(yield* put(agent, { ...body, model: "other" }, "member", key), 409, "idempotency-key-reuse")

      // the agent can now be sent messages (it has a runtime)
      const again = yield* put(agent, body)
      expectProblem(again, 409, "version-conflict")
    }))

  it.effect("replaces (200, version + 1) with the current expectedVersion; 409 without it, with a stale one, or to create", () =>
    Effect.gen(function*() {
      const agent = DemoRuntimeAgents.configured
      const before = (yield* get(agent)).body.data
      expect(before).toMatchObject({ provider: "deterministic", model: "demo-echo-1", version: 1, temperature: null, maxOutputTokens: null })
      expectProblem(yield* put(agent, { ...body, provider: "deterministic" }), 409, "version-conflict")
      expectProblem(yield* put(agent, { ...body, expectedVersion: 7 }), 409, "version-conflict")
      const replaced = yield* put(agent, {
        provider: "deterministic", model: "demo-echo-2", instructions: "", temperature: null, expectedVersion: 1
      })
      expect(replaced.status, replaced.text).toBe(200)
      expect(replaced.body.data).toEqual({
        ...before, model: "demo-echo-2", instructions: "", temperature: null, maxOutputTokens: null, toolGrants: [],
        version: 2, updatedAt: "2026-06-01T00:00:00.000Z"
      })
      expectProblem(yield* put(agent, { ...body, expectedVersion: 1 }), 409, "version-conflict")
      const third = yield* put(agent, { ...body, expectedVersion: 2 })
      expect(third.status, third.text).toBe(200)
      expect(third.body.data.version).toBe(3)
      // creating with expectedVersion: there is nothing to expect
      const sql = yield* SqlClient.SqlClient
      const [fresh] = yield* sql<{ id: string }>`SELECT a.id FROM agents a
        WHERE a.workspace_id = (SELECT workspace_id FROM agents WHERE id = ${agent})
          AND NOT EXISTS (SELECT 1 FROM agent_runtime_configs c WHERE c.agent_id = a.id) LIMIT 1`
      if (fresh !== undefined) expectProblem(yield* put(fresh.id, { ...body, expectedVersion: 1 }), 409, "version-conflict")
    }))

  it.effect("mirrors the grants into every version of the agent's tools; new MCP tool versions take their grant", () =>
    Effect.gen(function*() {
      const agent = DemoRuntimeAgents.configured
      const current = (yield* get(agent)).body.data.version
      const reply = yield* put(agent, {
        provider: "deterministic", model: "demo-echo-1", instructions: "You are Atlas.", expectedVersion: current,
        toolGrants: [
          { stableName: "web.fetch", grant: "APPROVAL_REQUIRED" },
          { stableName: "docs.search", grant: "GRANTED" },
          { stableName: "atlas-docs.lookup", grant: "APPROVAL_REQUIRED" }
        ]
      })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data.toolGrants).toEqual([
        { stableName: "atlas-docs.lookup", grant: "APPROVAL_REQUIRED" },
        { stableName: "docs.search", grant: "GRANTED" },
        { stableName: "web.fetch", grant: "APPROVAL_REQUIRED" }
      ])
      const listed = yield* tools(agent)
      expect(listed).toEqual(expect.arrayContaining([
        ["docs.search", 2, "GRANTED"], ["email.send", 1, null], ["web.fetch", 1, "APPROVAL_REQUIRED"]
      ]))

      // a catalog refresh adds tools: a granted name takes its grant, another none
      yield* syncRuntimeTools({
        agentId: agent,
        connectionId: DemoMcpConnections.docs.id,
        connectionName: "Atlas docs",
        implementationVersion: "2025-06-18",
        tools: [
          { name: "lookup", description: "Look a page up.", inputSchema: { type: "object" } },
          { name: "index", description: "Index a page.", inputSchema: { type: "object" } }
        ],
        at: new Date("2026-06-01T00:00:00.000Z")
      }).pipe(Effect.provide([McpConnectionsRepo.Default, IdsSequence("0000000d")]))
      expect(yield* tools(agent)).toEqual(expect.arrayContaining([
        ["atlas-docs.lookup", 1, "APPROVAL_REQUIRED"], ["atlas-docs.index", 1, null]
      ]))

      // grants taken away: every version null again
      const cleared = yield* put(agent, {
        provider: "deterministic", model: "demo-echo-1", instructions: "You are Atlas.", expectedVersion: current + 1
      })
      expect(cleared.status, cleared.text).toBe(200)
      expect((yield* tools(agent)).every(([, , grant]) => grant === null)).toBe(true)
    }))

  it.effect("422 model-profile-unknown naming /provider; 400 for a repeated grant and out-of-range settings", () =>
    Effect.gen(function*() {
      const agent = DemoRuntimeAgents.configured
      const unknown = yield* put(agent, { ...body, provider: "gpt-from-nowhere" })
      expectProblem(unknown, 422, "model-profile-unknown")
      expect(unknown.body.errors).toEqual([{ in: "body", pointer: "/provider", detail: "must name a configured model profile" }])
      expect(unknown.body.detail).toContain("deterministic, local")
      const twice = yield* put(agent, {
        ...body, toolGrants: [{ stableName: "a", grant: "GRANTED" }, { stableName: "a", grant: "APPROVAL_REQUIRED" }]
      })
      expectProblem(twice, 400, "invalid-request")
      expect(twice.body.errors[0].pointer).toBe("/toolGrants/1/stableName")
      for (
        const [field, value] of [
          ["temperature", 2.5], ["maxOutputTokens", 0], ["maxOutputTokens", 200_001], ["model", ""], ["provider", ""],
          ["toolGrants", [{ stableName: "a", grant: "ALWAYS" }]], ["expectedVersion", 0], ["apiKey", "sk-x"]
        ] as const
      ) {
        const reply = yield* put(agent, { ...body, [field]: value })
        expectProblem(reply, 400)
        expect(reply.text).not.toContain("sk-x")
      }
    }))

  it.effect("403 for roles other than OWNER, ADMIN, EDITOR; 404 for agents of other workspaces; 409 for a retired agent", () =>
    Effect.gen(function*() {
      expectProblem(yield* put(DemoRuntimeAgents.configured, body, "admin"), 403, "role-required")
      expectProblem(yield* put(DemoRuntimeAgents.foreign, body), 404, "agent-not-found")
      expectProblem(yield* put(DemoRuntimeAgents.unoperated, body), 404, "agent-not-found")
      expectProblem(yield* get(DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* get(randomUUID()), 404, "agent-not-found")
      const owner = yield* get(DemoRuntimeAgents.foreign, "outsider")
      expect(owner.status, owner.text).toBe(200)

      const sql = yield* SqlClient.SqlClient
      const [was] = yield* sql<{ listedAt: Date | null }>`SELECT listed_at AS "listedAt" FROM agents WHERE id = ${DemoRuntimeAgents.configured}`
      yield* sql`UPDATE agents SET state = 'RETIRED', retired_at = now(), listed_at = NULL WHERE id = ${DemoRuntimeAgents.configured}`
      const retired = yield* put(DemoRuntimeAgents.configured, { ...body, expectedVersion: 1 }, "owner")
      yield* sql`UPDATE agents SET state = 'ACTIVE', retired_at = NULL, listed_at = ${was!.listedAt} WHERE id = ${DemoRuntimeAgents.configured}`
      expectProblem(retired, 409, "invalid-state")
    }))
})
