/**
 * Onboarding end to end through the HTTP stack, on a production deployment's
 * first start (`DEPLOYMENT_ENV=production`, a migrated database with no data at all): the
 * first account (as `npm run accounts:create` makes it), an agent registered, an EVM address
 * proven by signing, an A2A Agent Card imported from a local HTTP server, an MCP connection
 * to a local MCP server built with the SDK with its real tools in the catalog and the runtime
 * tools, and the agent in the directory list. (The OAuth-protected connection is
 * test/mcp/McpOAuthFlow.test.ts's.)
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { IdsLive } from "../../layers/Ids.js"
import { createAccount } from "../../src/accounts/AccountCreation.js"
import { DemoAgentCard } from "../../demo/agents/imports/seed.js"
import { testConfig } from "../support/config.js"
import { call, type Session, signInWith } from "../support/http.js"
import { TestMcpServer } from "../support/mcpServer.js"
import { makeTestServer, testDb } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const server = makeTestServer(
  { environment: "production", outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } },
  { db: testDb(true) }
)

/** A local host serving one Agent Card at `/.well-known/agent-card.json`. */
const CardHost = Effect.acquireRelease(
  Effect.async<Server>((resume) => {
    const card = {
      ...DemoAgentCard,
      name: "Iris Indexer",
      provider: { organization: "Iris Labs", url: "https://iris.example" },
      skills: [{ id: "index", name: "Index papers", description: "Indexes research papers.", tags: ["research"] }]
    }
    const host = createServer((req, res) => {
      if (req.url === "/.well-known/agent-card.json") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card))
      else res.writeHead(404).end()
    })
    host.listen(0, "127.0.0.1", () => resume(Effect.succeed(host)))
  }),
  (host) => Effect.async<void>((resume) => {
    host.close(() => resume(Effect.void))
  })
).pipe(Effect.map((host) => `http://127.0.0.1:${(host.address() as AddressInfo).port}`))

/** Polls `path` (at most 20 s) until `done` holds of its `data`. */
const awaitData = <A>(path: string, session: Session, done: (data: A) => boolean) =>
  Effect.gen(function*() {
    const read = Effect.tap(call("GET", path, { session }), (reply) => {
      expect(reply.status, reply.text).toBe(200)
    })
    const reply = yield* waitFor(`${path} done`, until(read, (reply) => done(reply.body.data), (reply) => reply.text), 20_000, 50)
    return reply.body.data as A
  })

layer(server.layer, { excludeTestServices: true })("a fresh production deployment", (it) => {
  it.scoped("first account → agent → proven address → imported card → live MCP catalog and tools → listed", () =>
    Effect.gen(function*() {
      // the directory is empty
      const empty = yield* call("GET", "/api/v1/agents")
      expect(empty.status, empty.text).toBe(200)
      expect(empty.body.data).toEqual([])

      // the first account, as the CLI makes it, and its session
      const email = "ops@iris.example"
      const password = "correct horse battery staple"
      const { workspaceId } = yield* createAccount({ email, password, workspaceName: "Iris Labs" }).pipe(Effect.provide(IdsLive), Effect.orDie)
      const session = yield* signInWith(email, password)

      // register an agent: UNVERIFIED and listed
      const created = yield* call("POST", "/api/v1/agents", {
        session,
        body: { workspaceId, name: "Iris Indexer", canonicalSlug: "iris-indexer", tagline: "Indexes research papers" }
      })
      expect(created.status, created.text).toBe(201)
      const agent = created.body.data.entityId as string
      expect(created.body.data.verificationState).toBe("UNVERIFIED")

      // prove an EVM address by signing the challenge
      const account = privateKeyToAccount(generatePrivateKey())
      const challenge = yield* call("POST", `/api/v1/agents/${agent}/identity-challenges`, {
        session,
        body: { networkFamily: "EVM", network: "eip155:8453", protocol: null, registry: null, locatorKind: "ADDRESS", nativeId: account.address }
      })
      expect(challenge.status, challenge.text).toBe(201)
      const signature = yield* Effect.promise(() => account.signMessage({ message: challenge.body.data.message }))
      const proven = yield* call("POST", `/api/v1/agents/${agent}/identities`, {
        session,
        body: { challengeId: challenge.body.data.challengeId, signature }
      })
      expect(proven.status, proven.text).toBe(201)
      expect(proven.body.data).toMatchObject({ nativeId: account.address, caip2: "eip155:8453", verificationState: "VERIFIED" })

      // import its Agent Card from a local host: its skills and provider show on the profile
      const cardHost = yield* CardHost
      const started = yield* call("POST", `/api/v1/agents/${agent}/imports`, {
        session,
        body: { kind: "A2A_AGENT_CARD", url: `${cardHost}/.well-known/agent-card.json` }
      })
      expect(started.status, started.text).toBe(202)
      yield* awaitData<{ state: string }>(`/api/v1/agents/${agent}/imports/${started.body.data.id}`, session, (d) => d.state === "SUCCEEDED")
      const profile = (yield* call("GET", `/api/v1/agents/${agent}`)).body.data
      expect(profile.skills.map((s: { name: string }) => s.name)).toEqual(["Index papers"])
      expect(profile.provider).toMatchObject({ organization: "Iris Labs" })
      expect(profile.verificationState).toBe("VERIFIED")

      // an MCP connection to a local MCP server: its real tools in the catalog and as runtime tools
      const mcp = yield* TestMcpServer()
      const connection = yield* call("POST", `/api/v1/agents/${agent}/mcp/connections`, {
        session,
        body: { serverUrl: `${mcp.origin}/mcp` }
      })
      expect(connection.status, connection.text).toBe(201)
      const connections = `/api/v1/agents/${agent}/mcp/connections`
      yield* awaitData<{ state: string }>(`${connections}/${connection.body.data.id}`, session, (d) => d.state === "CONNECTED")
      const catalog = yield* call("GET", `${connections}/${connection.body.data.id}/catalog`, { session })
      expect(catalog.status, catalog.text).toBe(200)
      const names = ["alpha", "bravo", "charlie", "delta", "echo"]
      expect(catalog.body.data.tools.map((t: { name: string }) => t.name)).toEqual(names)
      const tools = yield* call("GET", `/api/v1/agents/${agent}/tools`, { session })
      expect(tools.status, tools.text).toBe(200)
      expect(tools.body.data.map((t: { stableName: string }) => t.stableName.split(".").at(-1)).sort()).toEqual(names)
      expect(tools.body.data.every((t: { definitionDigest: string }) => /^sha256:[0-9a-f]{64}$/.test(t.definitionDigest))).toBe(true)

      // the agent is in the directory
      const listed = yield* call("GET", "/api/v1/agents?q=iris")
      expect(listed.status, listed.text).toBe(200)
      expect(listed.body.data.map((a: { publicId: string }) => a.publicId)).toEqual([agent])
    }))
})
