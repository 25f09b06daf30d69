/**
 * The runtime's built-in tool `directory.search_agents` searches as Agents_ListAgents does with
 * `q` (the same service and query, docs/search.md): a typo query, driven through the run loop
 * (the deterministic runtime's `/tool` directive), finds the right agent first, and the tool
 * answers the same agents in the same order as `GET /api/v1/agents?q=…` (relevance, the default
 * with `q`).
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { IdsSequence } from "../../layers/Ids.js"
import { ensureBuiltinTools, SearchAgentsTool } from "../../src/runtime/tools/BuiltinTools.js"
import { toolDigest } from "../../src/mcp/index.js"
import { SearchToolDescription, SearchToolDigestAfter } from "../../src/db/migrations/0054_trust_safety_evidence.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { send, toolCalls } from "./runLoopSupport.js"
import { awaitRun, insertConversation } from "./support.js"

const agent = DemoRuntimeAgents.configured
const server = makeTestServer()

const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* ensureBuiltinTools(agent, TestEpoch)
  yield* sql`UPDATE agent_runtime_configs SET tool_grants = ${JSON.stringify({ "directory.search_agents": "GRANTED" })}::jsonb
             WHERE agent_id = ${agent}`
}).pipe(Effect.provide(IdsSequence("000000ab")), Effect.orDie)

layer(server.layer, { excludeTestServices: true })("directory.search_agents", (it) => {
  it.effect("a typo query finds the right agent first, in the order Agents_ListAgents answers q", () =>
    Effect.gen(function*() {
      yield* setup
      const owner = yield* signIn("owner")
      const conversation = yield* insertConversation(agent, "owner", "CHAT")
      const runId = yield* send(owner, conversation, `/tool directory__search_agents {"q":"reserch","limit":5}`)
      expect((yield* awaitRun(runId)).state).toBe("SUCCEEDED")
      const [found] = yield* toolCalls(runId)
      expect(found).toMatchObject({ stableName: "directory.search_agents", state: "SUCCEEDED", isError: false })
      const ids = found!.result.agents.map((a: any) => a.publicId)
      expect(ids[0]).toBe(DemoAgents[0].id)
      const listed = yield* call("GET", `/api/v1/agents?q=${encodeURIComponent("reserch")}&limit=5`)
      expect(listed.status, listed.text).toBe(200)
      expect(ids).toEqual(listed.body.data.map((a: any) => a.publicId))
      expect(found!.result.agents).toEqual(listed.body.data)
    }))

  it.effect("the tool's definition is the one migration 0054 writes for existing agents", () =>
    Effect.sync(() => {
      expect(SearchAgentsTool.description).toBe(SearchToolDescription)
      expect(toolDigest(SearchAgentsTool)).toBe(SearchToolDigestAfter)
    }))
})
