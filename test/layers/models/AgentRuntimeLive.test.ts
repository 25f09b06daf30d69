/**
 * AgentRuntimeLive (layers/models/AgentRuntimeLive.ts) driving the real
 * provider clients (`@effect/ai-openai`, `@effect/ai-anthropic`) over the guarded
 * outbound client against local servers that speak the OpenAI Responses and Anthropic
 * Messages wire protocols (test/support/modelServers/): streamed text, tool calls with
 * arguments, tool results sent back, usage and cost, and the failure codes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Chunk, Effect, Exit, Layer, Option, Redacted, Stream } from "effect"
import { AgentRuntime, type AgentRuntimeError, type ModelEvent, type ModelRequest } from "../../../layers/AgentRuntime.js"
import { agentRuntimeLive } from "../../../layers/models/AgentRuntimeLive.js"
import type { ModelProfiles } from "../../../layers/ModelProfiles.js"
import { DefaultOutboundOptions, OutboundLive } from "../../../layers/Outbound.js"
import { anthropicAnswer, anthropicError } from "../../support/modelServers/AnthropicMessages.js"
import { type ModelServer, startModelServer } from "../../support/modelServers/ModelServer.js"
import { openAiAnswer, openAiError } from "../../support/modelServers/OpenAiResponses.js"

const OpenAiKey = "sk-test-openai-0123456789"
const AnthropicKey = "sk-ant-test-0123456789"

const profilesFor = (server: ModelServer): ModelProfiles => ({
  local: {
    kind: "openai",
    baseUrl: `${server.origin}/v1`,
    apiKey: Redacted.make(OpenAiKey),
    prices: { "gpt-test": { inputMicroUsdPerMillionTokens: 400_000, outputMicroUsdPerMillionTokens: 1_600_000 } }
  },
  claude: { kind: "anthropic", baseUrl: server.origin, apiKey: Redacted.make(AnthropicKey), prices: {} }
})

const outbound = OutboundLive({ ...DefaultOutboundOptions, allowedHosts: ["127.0.0.1"], timeoutMs: 5_000 })

/** Runs `request` through AgentRuntimeLive over `server`'s profiles: the events, or the failure. */
const run = (server: ModelServer, request: ModelRequest) =>
  Effect.gen(function*() {
    const runtime = yield* AgentRuntime
    return yield* Effect.exit(Stream.runCollect(runtime.stream(request)).pipe(Effect.map(Chunk.toArray)))
  }).pipe(Effect.provide(agentRuntimeLive(profilesFor(server)).pipe(Layer.provide(outbound))))

const events = (exit: Exit.Exit<ReadonlyArray<ModelEvent>, AgentRuntimeError>) => {
  if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
  return exit.value
}

const failure = (exit: Exit.Exit<ReadonlyArray<ModelEvent>, AgentRuntimeError>) => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
  const e = Option.getOrThrow(Cause.failureOption(exit.cause))
  // no credential in any failure
  expect(JSON.stringify({ ...e, message: e.message })).not.toContain("sk-")
  return { code: e.code, retryable: e.retryable }
}

const base: ModelRequest = {
  agentId: "00000000-0000-7000-8000-000000000001",
  runId: "00000000-0000-7000-8000-000000000002",
  provider: "local",
  model: "gpt-test",
  instructions: "You are Atlas.",
  temperature: 0.5,
  maxOutputTokens: 300,
  messages: [{ role: "user", text: "Size the EU market." }],
  tools: []
}

const searchTool = {
  name: "docs_search",
  description: "Search the docs.",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] }
}

const withToolRound: ModelRequest = {
  ...base,
  tools: [searchTool],
  messages: [
    { role: "user", text: "Find pricing." },
    { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "docs_search", arguments: { query: "pricing" } }] },
    { role: "tool", toolCallId: "call_1", name: "docs_search", result: { hits: ["pricing.md"] }, isError: false }
  ]
}

const texts = (es: ReadonlyArray<ModelEvent>) => es.flatMap((e) => (e._tag === "TextDelta" ? [e.text] : []))

describe("AgentRuntimeLive: OpenAI Responses", () => {
  it.scoped("streams the text, sends the prompt, the settings and the key; usage and cost from the profile's prices", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(openAiAnswer("gpt-test", { text: ["The EU ", "market is ", "large."], inputTokens: 1200, outputTokens: 30 }))
      const es = events(yield* run(server, base))
      expect(texts(es)).toEqual(["The EU ", "market is ", "large."])
      // 1200 × 0.4 + 30 × 1.6 = 528 micro-USD
      expect(es.at(-1)).toEqual({ _tag: "Finish", reason: "stop", inputTokens: 1200, outputTokens: 30, costMicroUsd: 528n })
      expect(server.requests).toHaveLength(1)
      const [request] = server.requests
      expect(request!.method).toBe("POST")
      expect(request!.path).toBe("/v1/responses")
      expect(request!.headers["authorization"]).toBe(`Bearer ${OpenAiKey}`)
      expect(request!.body).toMatchObject({ model: "gpt-test", stream: true, temperature: 0.5, max_output_tokens: 300 })
      expect(request!.body.input).toEqual([
        { role: "system", content: "You are Atlas." },
        { role: "user", content: [{ type: "input_text", text: "Size the EU market." }] }
      ])
      expect(request!.body.tools ?? []).toEqual([])
    }))

  it.scoped("offers the tools with their JSON Schema and returns the model's tool call, not executed", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(openAiAnswer("gpt-test", {
        toolCalls: [{ id: "call_9", name: "docs_search", arguments: { query: "EU market size", limit: 3 } }],
        inputTokens: 80,
        outputTokens: 12
      }))
      const es = events(yield* run(server, { ...base, tools: [searchTool] }))
      expect(es).toEqual([
        { _tag: "ToolCall", id: "call_9", name: "docs_search", arguments: { query: "EU market size", limit: 3 } },
        { _tag: "Finish", reason: "tool-calls", inputTokens: 80, outputTokens: 12, costMicroUsd: 52n }
      ])
      expect(server.requests[0]!.body.tools).toEqual([{
        type: "function", name: "docs_search", description: "Search the docs.", parameters: searchTool.inputSchema, strict: false
      }])
      // one model call: nothing was executed and sent back
      expect(server.requests).toHaveLength(1)
    }))

  it.scoped("sends the assistant's tool call and the tool's result back on the next call", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(openAiAnswer("gpt-test", { text: ["See pricing.md."], inputTokens: 100, outputTokens: 4 }))
      const es = events(yield* run(server, withToolRound))
      expect(texts(es)).toEqual(["See pricing.md."])
      expect(server.requests[0]!.body.input).toEqual([
        { role: "system", content: "You are Atlas." },
        { role: "user", content: [{ type: "input_text", text: "Find pricing." }] },
        { type: "function_call", call_id: "call_1", name: "docs_search", arguments: JSON.stringify({ query: "pricing" }) },
        { type: "function_call_output", call_id: "call_1", output: JSON.stringify({ hits: ["pricing.md"] }) }
      ])
    }))

  it.scoped("maps failures: 401 auth, 429 rate limited, 500 unavailable, 400 rejected, a cut stream, no server", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(openAiError(401, "invalid_api_key", `Incorrect API key provided: ${OpenAiKey}`))
      expect(failure(yield* run(server, base))).toEqual({ code: "MODEL_AUTH_FAILED", retryable: false })
      server.script(openAiError(403, "forbidden"))
      expect(failure(yield* run(server, base))).toEqual({ code: "MODEL_AUTH_FAILED", retryable: false })
      server.script(openAiError(429, "rate_limit_exceeded"))
      expect(failure(yield* run(server, base))).toEqual({ code: "MODEL_RATE_LIMITED", retryable: true })
      server.script(openAiError(503, "server_error"))
      expect(failure(yield* run(server, base))).toEqual({ code: "MODEL_UNAVAILABLE", retryable: true })
      server.script(openAiError(400, "invalid_request_error"))
      expect(failure(yield* run(server, base))).toEqual({ code: "MODEL_REQUEST_REJECTED", retryable: false })
      server.script(openAiAnswer("gpt-test", { text: ["half"], inputTokens: 1, outputTokens: 1 }, true))
      expect(failure(yield* run(server, base))).toEqual({ code: "MODEL_UNAVAILABLE", retryable: true })
      expect(failure(yield* run(server, { ...base, provider: "nowhere" }))).toEqual({ code: "MODEL_PROFILE_UNKNOWN", retryable: false })
      // a closed port: the connection is refused
      const closed: ModelServer = { ...server, origin: "http://127.0.0.1:9" }
      expect(failure(yield* run(closed, base))).toEqual({ code: "MODEL_UNAVAILABLE", retryable: true })
    }))

  it.scoped("answers `deterministic` with the built-in runtime, no request", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      const es = events(yield* run(server, { ...base, provider: "deterministic", model: "demo-echo-1" }))
      expect(texts(es).join("")).toBe("demo-echo-1 received: \"Size the EU market.\" (4 words; turn 1 of the conversation).")
      expect(server.requests).toHaveLength(0)
    }))
})

describe("AgentRuntimeLive: Anthropic Messages", () => {
  const claude: ModelRequest = { ...base, provider: "claude", model: "claude-test" }

  it.scoped("streams the text with the key and version headers; system prompt and settings; usage, no price", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(anthropicAnswer("claude-test", { text: ["Bonjour", " EU."], inputTokens: 50, outputTokens: 7 }))
      const es = events(yield* run(server, claude))
      expect(texts(es)).toEqual(["Bonjour", " EU."])
      expect(es.at(-1)).toEqual({ _tag: "Finish", reason: "stop", inputTokens: 50, outputTokens: 7, costMicroUsd: null })
      const [request] = server.requests
      expect(request!.path).toBe("/v1/messages")
      expect(request!.headers["x-api-key"]).toBe(AnthropicKey)
      expect(request!.headers["anthropic-version"]).toBeDefined()
      expect(request!.headers["authorization"]).toBeUndefined()
      expect(request!.body).toMatchObject({ model: "claude-test", stream: true, temperature: 0.5, max_tokens: 300 })
      expect(request!.body.system).toEqual([{ type: "text", text: "You are Atlas." }])
      expect(request!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Size the EU market." }] }])
    }))

  it.scoped("returns a tool call whose arguments arrived in pieces; sends tool results back as tool_result", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(
        anthropicAnswer("claude-test", {
          toolCalls: [{ id: "toolu_1", name: "docs_search", arguments: { query: "pricing" } }],
          inputTokens: 60,
          outputTokens: 9
        }),
        anthropicAnswer("claude-test", { text: ["See pricing.md."], inputTokens: 90, outputTokens: 4 })
      )
      const first = events(yield* run(server, { ...claude, tools: [searchTool] }))
      expect(first).toEqual([
        { _tag: "ToolCall", id: "toolu_1", name: "docs_search", arguments: { query: "pricing" } },
        { _tag: "Finish", reason: "tool-calls", inputTokens: 60, outputTokens: 9, costMicroUsd: null }
      ])
      expect(server.requests[0]!.body.tools).toEqual([{
        name: "docs_search", description: "Search the docs.", input_schema: searchTool.inputSchema
      }])
      const second = events(yield* run(server, {
        ...withToolRound,
        provider: "claude",
        model: "claude-test",
        messages: withToolRound.messages.map((m) =>
          m.role === "assistant" ? { ...m, toolCalls: [{ ...m.toolCalls[0]!, id: "toolu_1" }] } : m.role === "tool" ? { ...m, toolCallId: "toolu_1" } : m
        )
      }))
      expect(texts(second)).toEqual(["See pricing.md."])
      expect(server.requests[1]!.body.messages).toEqual([
        { role: "user", content: [{ type: "text", text: "Find pricing." }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "docs_search", input: { query: "pricing" } }] },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: JSON.stringify({ hits: ["pricing.md"] }), is_error: false }]
        }
      ])
    }))

  it.scoped("maps failures: 401 auth, 429 rate limited, 529 overloaded", () =>
    Effect.gen(function*() {
      const server = yield* startModelServer
      server.script(anthropicError(401, "authentication_error", "invalid x-api-key"))
      expect(failure(yield* run(server, claude))).toEqual({ code: "MODEL_AUTH_FAILED", retryable: false })
      server.script(anthropicError(429, "rate_limit_error"))
      expect(failure(yield* run(server, claude))).toEqual({ code: "MODEL_RATE_LIMITED", retryable: true })
      server.script(anthropicError(529, "overloaded_error"))
      expect(failure(yield* run(server, claude))).toEqual({ code: "MODEL_UNAVAILABLE", retryable: true })
      server.script(anthropicError(404, "not_found_error"))
      expect(failure(yield* run(server, claude))).toEqual({ code: "MODEL_REQUEST_REJECTED", retryable: false })
    }))
})
