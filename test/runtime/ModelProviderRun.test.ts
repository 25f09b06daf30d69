/**
 * A run answered by a real provider through the HTTP stack: an agent
 * configured with a model profile pointing at a local server that speaks the OpenAI
 * Responses protocol, `Runtime_SendMessage`, and the run ends SUCCEEDED with the
 * model's streamed text, the profile's key sent to the server and in no response.
 */
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Exit, Redacted, Scope } from "effect"
import { AgentRuntimeLive } from "../../layers/models/AgentRuntimeLive.js"
import { DefaultOutboundOptions } from "../../layers/Outbound.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { startModelServer } from "../support/modelServers/ModelServer.js"
import { openAiAnswer, openAiError } from "../support/modelServers/OpenAiResponses.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitRun, insertConversation, messageRows } from "./support.js"

const Key = "sk-local-server-key-e2e-91b2"

// the model server must exist before the configuration that names it
const scope = Effect.runSync(Scope.make())
const model = await Effect.runPromise(Scope.extend(startModelServer, scope))
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const server = makeTestServer({
  modelProfiles: {
    local: {
      kind: "openai",
      baseUrl: `${model.origin}/v1`,
      apiKey: Redacted.make(Key),
      prices: { "qwen3-8b": { inputMicroUsdPerMillionTokens: 100_000, outputMicroUsdPerMillionTokens: 300_000 } }
    }
  },
  outbound: { ...DefaultOutboundOptions, userAgent: "agent-directory/test", allowedHosts: ["127.0.0.1"] }
}, { runtime: AgentRuntimeLive })

layer(server.layer)("a run answered through a model profile", (it) => {
  it.effect("configure → send → the run streams the local server's answer and ends SUCCEEDED", () =>
    Effect.gen(function*() {
      const session = yield* signIn("member")
      const agent = DemoRuntimeAgents.configured
      const current = (yield* call("GET", `/api/v1/agents/${agent}/runtime`, { session })).body.data.version
      const configured = yield* call("PUT", `/api/v1/agents/${agent}/runtime`, {
        session,
        body: { provider: "local", model: "qwen3-8b", instructions: "Answer briefly.", temperature: 0.1, expectedVersion: current }
      })
      expect(configured.status, configured.text).toBe(200)
      expect(configured.text).not.toContain(Key)

      model.script(openAiAnswer("qwen3-8b", { text: ["The EU market ", "is worth ", "€12 bn."], inputTokens: 40, outputTokens: 9 }))
      const conversation = yield* insertConversation(agent, "member", "CHAT")
      const sent = yield* call("POST", `/api/v1/conversations/${conversation}/messages`, {
        session,
        body: { content: "Size the EU market." }
      })
      expect(sent.status, sent.text).toBe(202)
      expect(sent.text).not.toContain(Key)
      const run = yield* awaitRun(sent.body.data.run.id)
      expect(run.state).toBe("SUCCEEDED")
      const answer = (yield* messageRows(conversation))[1]!
      expect(answer).toMatchObject({ role: "assistant", state: "COMPLETE", contentText: "The EU market is worth €12 bn." })

      // what the server received: the key as the bearer token, the system prompt, the message, the settings
      expect(model.requests).toHaveLength(1)
      const [request] = model.requests
      expect(request!.path).toBe("/v1/responses")
      expect(request!.headers["authorization"]).toBe(`Bearer ${Key}`)
      // (temperature and maxOutputTokens reach the request once the run loop passes the configuration's settings)
      expect(request!.body).toMatchObject({ model: "qwen3-8b", stream: true })
      expect(request!.body.input).toEqual([
        { role: "system", content: "Answer briefly." },
        { role: "user", content: [{ type: "input_text", text: "Size the EU market." }] }
      ])
      expect(model.sent()).not.toContain(Key)
    }))

  it.effect("a refused key ends the run FAILED with MODEL_AUTH_FAILED, tried once", () =>
    Effect.gen(function*() {
      const session = yield* signIn("member")
      model.script(openAiError(401, "invalid_api_key", "Incorrect API key provided"))
      const before = model.requests.length
      const conversation = yield* insertConversation(DemoRuntimeAgents.configured, "member", "CHAT")
      const sent = yield* call("POST", `/api/v1/conversations/${conversation}/messages`, { session, body: { content: "Hi" } })
      expect(sent.status, sent.text).toBe(202)
      const run = yield* awaitRun(sent.body.data.run.id)
      expect(run).toMatchObject({ state: "FAILED", failureCode: "MODEL_AUTH_FAILED" })
      expect(model.requests.length - before).toBe(1)
    }))
})
