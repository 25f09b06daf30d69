/**
 * The directory's A2A interface (A2A 1.0, src/a2aServer/) with `@a2a-js/sdk`'s real client
 * against the real listening test server: the directory's card (validated against A2A 1.0)
 * resolved by the SDK's `ClientFactory`, which picks each binding (JSON-RPC, HTTP+JSON);
 * messages invoking `search` and `resolve` answered as REST answers them; problems (unknown
 * skill, invalid arguments, missing scope) in the answer; 401 for a bad key; the budget charged
 * per skill call (429 once spent, before the SDK sees the request); the SDK's own errors for
 * what the agent does not do (streaming, tasks, an unsupported version).
 */
import { type Client } from "@a2a-js/sdk/client"
import { type Message, type Part, Role } from "@a2a-js/sdk"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import express from "express"
import { randomUUID } from "node:crypto"
import { IncomingMessage, ServerResponse } from "node:http"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { a2aRequestCost } from "../../src/a2aServer/A2aEndpoint.js"
import { DemoAgents, DemoRegistries } from "../../demo/agents/seed.js"
import { directoryTool } from "../../src/mcpServer/Tools.js"
import { baseUrl, clientFactory, expectA2aCard, fetchTo } from "../support/a2a.js"
import { testConfig } from "../support/config.js"
import { call, expectProblem } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const PublicBaseUrl = testConfig().publicBaseUrl
const text = (value: string): Part => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "text/plain" })
const data = (value: unknown): Part => ({ content: { $case: "data", value }, metadata: undefined, filename: "", mediaType: "application/json" })

/** A user message for `skill` (none: the default) with `parts`. */
const userMessage = (parts: Array<Part>, skill?: string): Message => ({
  messageId: randomUUID(),
  contextId: "",
  taskId: "",
  role: Role.ROLE_USER,
  parts,
  metadata: skill === undefined ? undefined : { skill },
  extensions: [],
  referenceTaskIds: []
})

/** Sends `message` and reads the answer: one agent message with a text part and a data part. */
const send = (client: Client, message: Message) =>
  Effect.promise(async () => {
    const result = await client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined })
    expect("messageId" in result, JSON.stringify(result)).toBe(true)
    const answer = result as Message
    expect(answer.role).toBe(Role.ROLE_AGENT)
    const [first, second] = answer.parts
    expect(first?.content?.$case).toBe("text")
    expect(second?.content?.$case).toBe("data")
    return { metadata: answer.metadata as Record<string, unknown>, text: first!.content!.value as string, data: second!.content!.value as any }
  })

/** A client of the directory from its card (resolved over HTTP from the test server), on `transport`, with `headers`. */
const directoryClient = (transport: "JSONRPC" | "HTTP+JSON", headers: Record<string, string> = {}) =>
  Effect.flatMap(baseUrl, (base) => Effect.promise(() => clientFactory(fetchTo(base, headers), transport).createFromUrl(base)))

const server = makeTestServer()

layer(server.layer, { excludeTestServices: true })("A2A interface of the directory (SDK client)", (it) => {
  it.effect("the card lists the JSON-RPC and HTTP+JSON interfaces at protocol 1.0 and is a valid A2A 1.0 card", () =>
    Effect.gen(function*() {
      const card = (yield* call("GET", "/.well-known/agent-card.json")).body
      expectA2aCard(card)
      expect(card.supportedInterfaces).toEqual([
        { url: `${PublicBaseUrl}/a2a/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { url: `${PublicBaseUrl}/a2a/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }
      ])
      expect(card.skills.map((s: any) => s.id)).toEqual(["search", "resolve"])
    }))

  for (const transport of ["JSONRPC", "HTTP+JSON"] as const) {
    it.effect(`${transport}: search answers the REST page of Agents_ListAgents; a text part is the query`, () =>
      Effect.gen(function*() {
        const client = yield* directoryClient(transport)
        const rest = yield* call("GET", "/api/v1/agents?limit=3")
        expect(rest.status).toBe(200)
        const page = yield* send(client, userMessage([data({ limit: 3 })], "search"))
        expect(page.metadata).toEqual({ skill: "search", outcome: "success", operationId: "Agents_ListAgents" })
        expect(page.data.data).toEqual(rest.body.data)
        expect(page.data.nextCursor).toBe(rest.body.nextCursor)
        expect(page.text).toContain(`${rest.body.data.length} agent(s):`)

        const atlas = DemoAgents[0]
        const byText = yield* send(client, userMessage([text(atlas.name)]))
        expect(byText.metadata["skill"]).toBe("search")
        const restByText = yield* call("GET", `/api/v1/agents?q=${encodeURIComponent(atlas.name)}`)
        expect(byText.data.data).toEqual(restByText.body.data)
        expect(byText.data.data.map((a: any) => a.publicId)).toContain(atlas.id)
      }))
  }

  it.effect("resolve answers Agents_ResolveAgentIdentities' results", () =>
    Effect.gen(function*() {
      const client = yield* directoryClient("JSONRPC")
      const locators = [
        { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: DemoRegistries.erc8004, nativeId: "1" }
      ]
      const rest = yield* call("POST", "/api/v1/resolve/agent-identities", { body: { locators }, idempotencyKey: null })
      expect(rest.status, rest.text).toBe(200)
      const answer = yield* send(client, userMessage([data({ locators })], "resolve"))
      expect(answer.metadata).toEqual({ skill: "resolve", outcome: "success", operationId: "Agents_ResolveAgentIdentities" })
      expect(answer.data.data).toEqual(rest.body.data)
    }))

  it.effect("problems are answered in the message: unknown skill, invalid arguments, missing scope", () =>
    Effect.gen(function*() {
      const client = yield* directoryClient("HTTP+JSON")
      const unknown = yield* send(client, userMessage([data({})], "translate"))
      expect(unknown.metadata).toEqual({ skill: "translate", outcome: "problem" })
      expect(unknown.data).toMatchObject({ type: "https://agent-directory.dev/problems/invalid-request", status: 400 })
      expect(unknown.data.errors).toEqual([{ in: "body", pointer: "/message/metadata/skill", detail: "must be one of search, resolve" }])

      const invalid = yield* send(client, userMessage([data({ limit: 0, bogus: true })], "search"))
      expect(invalid.metadata["outcome"]).toBe("problem")
      expect(invalid.data.status).toBe(400)
      expect(invalid.data.errors.map((e: any) => e.pointer).sort()).toEqual(["/bogus", "/limit"])
      expect(invalid.text).not.toContain("bogus\":true")

      // an API key without agents:read (used from its allowed origin): the operation's x-required-scopes apply to the skill
      const narrow = yield* directoryClient("JSONRPC", { "x-api-key": DemoApiKeys.browser.key, origin: DemoApiKeys.browser.allowedOrigins[0] })
      const refused = yield* send(narrow, userMessage([data({})], "search"))
      expect(refused.data).toMatchObject({ type: "https://agent-directory.dev/problems/insufficient-scope", status: 403 })
      const allowed = yield* directoryClient("JSONRPC", { authorization: `Bearer ${DemoApiKeys.agentsOnly.key}` })
      expect((yield* send(allowed, userMessage([data({ limit: 1 })], "search"))).metadata["outcome"]).toBe("success")
    }))

  it.effect("a bad key is the REST 401; what the agent does not do is the SDK's error", () =>
    Effect.gen(function*() {
      const message = { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "x" }] }
      const bad = yield* call("POST", "/a2a/jsonrpc", {
        body: { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } },
        headers: { "x-api-key": DemoApiKeys.revoked.key, "a2a-version": "1.0" },
        idempotencyKey: null
      })
      expectProblem(bad, 401)
      const restBad = yield* call("POST", "/a2a/rest/message:send", {
        body: { message },
        headers: { authorization: `Bearer ${DemoApiKeys.revoked.key}`, "a2a-version": "1.0" },
        idempotencyKey: null
      })
      expectProblem(restBad, 401)

      // no streaming (the card says so), no tasks kept, only protocol 1.0
      const stream = yield* call("POST", "/a2a/jsonrpc", {
        body: { jsonrpc: "2.0", id: 2, method: "SendStreamingMessage", params: { message } },
        headers: { "a2a-version": "1.0" },
        idempotencyKey: null
      })
      expect(stream.status).toBe(200)
      expect(stream.body).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32004 } })
      const task = yield* call("GET", "/a2a/rest/tasks/nope", { headers: { "a2a-version": "1.0" } })
      expect(task.status).toBe(404)
      // the REST binding, called in process, leaves Express's process-wide prototypes as they were:
      // another Express server of the process still gets http.IncomingMessage requests
      expect(Object.getPrototypeOf(express.request)).toBe(IncomingMessage.prototype)
      expect(Object.getPrototypeOf(express.response)).toBe(ServerResponse.prototype)
      const legacy = yield* call("POST", "/a2a/jsonrpc", {
        body: { jsonrpc: "2.0", id: 3, method: "SendMessage", params: { message } },
        headers: { "a2a-version": "0.3" },
        idempotencyKey: null
      })
      expect(legacy.body).toMatchObject({ id: 3, error: { code: -32009 } })
      expect(legacy.headers["cache-control"]).toBe("no-store")
    }))
})

const budget = makeTestServer({ budgets: { ...testConfig().budgets, apiKey: { limit: 3, windowSeconds: 60 } } })

layer(budget.layer, { excludeTestServices: true })("A2A interface: request budgets", (it) => {
  it.effect("each message is charged its skill's x-rate-cost to the caller's budget; a spent budget is the REST 429", () =>
    Effect.gen(function*() {
      const key = DemoApiKeys.public.key
      const client = yield* directoryClient("HTTP+JSON", { "x-api-key": key })
      // Agents_ListAgents costs 1 (the card was read without the key: the anonymous budget)
      yield* send(client, userMessage([data({ limit: 1 })], "search"))
      yield* send(client, userMessage([data({ limit: 1 })], "search"))
      const last = yield* call("POST", "/a2a/jsonrpc", {
        body: { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ data: { limit: 1 } }] } } },
        headers: { "x-api-key": key, "a2a-version": "1.0" },
        idempotencyKey: null
      })
      expect(last.status, last.text).toBe(200)
      expect(last.headers["ratelimit"]).toMatch(/^"api-key";r=0;t=\d+$/)
      const spent = yield* call("POST", "/a2a/rest/message:send", {
        body: { message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "x" }] } },
        headers: { "x-api-key": key, "a2a-version": "1.0" },
        idempotencyKey: null
      })
      expectProblem(spent, 429, "rate-limited")
      expect(spent.headers["retry-after"]).toBeDefined()
      // the same budget as REST: spent there too (REST reads answer it in RateLimit, without a 429)
      expect((yield* call("GET", "/api/v1/agents", { headers: { "x-api-key": key } })).headers["ratelimit"]).toMatch(/^"api-key";r=0;/)
    }))
})

describe("A2A interface: what a request costs", () => {
  it("a message costs its skill's operation x-rate-cost in either binding; anything else 1", () => {
    const resolveCost = directoryTool("resolve_agent_identities")!.policy.cost
    const searchCost = directoryTool("search_agents")!.policy.cost
    const message = (skill?: string) => ({ messageId: "m", role: "ROLE_USER", parts: [], ...(skill === undefined ? {} : { metadata: { skill } }) })
    expect(a2aRequestCost("JSONRPC", "/", { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: message("resolve") } })).toBe(resolveCost)
    expect(a2aRequestCost("JSONRPC", "/", { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: message() } })).toBe(searchCost)
    expect(a2aRequestCost("HTTP+JSON", "/message:send", { message: message("resolve") })).toBe(resolveCost)
    expect(a2aRequestCost("HTTP+JSON", "/tenant-a/message:send", { message: message("search") })).toBe(searchCost)
    expect(a2aRequestCost("HTTP+JSON", "/message:send", { message: message("translate") })).toBe(1)
    expect(a2aRequestCost("HTTP+JSON", "/tasks/x", undefined)).toBe(1)
    expect(a2aRequestCost("JSONRPC", "/", { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } })).toBe(1)
    expect(a2aRequestCost("JSONRPC", "/", undefined)).toBe(1)
  })
})
