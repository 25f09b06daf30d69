/**
 * The agent runtime with real language models: `AgentRuntime.stream`
 * dispatches on `request.provider`:
 *
 * - `deterministic` → {@link deterministicEvents} (no model; the demo's and tests' default);
 * - an `openai` profile → `@effect/ai-openai` (the OpenAI **Responses** API,
 *   `POST {baseUrl}/responses`, streamed; `Authorization: Bearer <apiKey>`);
 * - an `anthropic` profile → `@effect/ai-anthropic` (the Messages API,
 *   `POST {baseUrl}/v1/messages`, streamed; `x-api-key: <apiKey>`);
 * - any other name → fails `MODEL_PROFILE_UNKNOWN`.
 *
 * Both providers go over the guarded outbound client (layers/Outbound.ts `httpClient`):
 * a local model server must be in `OUTBOUND_ALLOWED_HOSTS`. The request becomes
 * `@effect/ai`'s prompt and dynamic tools (./ModelPrompt.ts); tool calls are returned,
 * never executed (`disableToolCallResolution`): the run loop executes them. The stream
 * is mapped to `ModelEvent`s: `TextDelta` per text delta, `ToolCall` per completed tool
 * call, and one `Finish` with the usage the provider reported and the cost from the
 * profile's `prices` (layers/ModelProfiles.ts). Failures are `AgentRuntimeError`s
 * (./ModelFailure.ts).
 */
import { type LanguageModel, type Response } from "@effect/ai"
import * as HttpClient from "@effect/platform/HttpClient"
import { Effect, Layer, Option, Stream } from "effect"
import { AgentRuntime, type AgentRuntimeError, deterministicEvents, type ModelEvent, type ModelRequest } from "../AgentRuntime.js"
import { AppConfig } from "../AppConfig.js"
import { costMicroUsd, DeterministicProvider, type ModelProfile, type ModelProfiles } from "../ModelProfiles.js"
import { Outbound } from "../Outbound.js"
import { modelFailure, profileUnknown, streamBroken } from "./ModelFailure.js"
import { toPrompt, toToolkit } from "./ModelPrompt.js"

/** `@effect/ai` finish reasons as the run records them. */
const finishReason = (reason: Response.FinishReason): string =>
  reason === "stop" || reason === "length" || reason === "content-filter" || reason === "tool-calls" ? reason : "other"

/** Makes the language model of one call: the profile's client with the request's model and settings. */
type ModelOf = (request: ModelRequest) => Effect.Effect<LanguageModel.Service>

/**
 * The language model maker of one profile, its client built once over `http`. The provider's
 * modules are imported here, when a profile of that kind is first built, not with the server:
 * `@effect/ai-openai` loads a GPT tokenizer (~7 MB of heap) that a server without OpenAI
 * profiles never uses.
 */
const makeModelOf = (profile: ModelProfile, http: HttpClient.HttpClient) =>
  Effect.gen(function*() {
    if (profile.kind === "openai") {
      const [OpenAiClient, OpenAiLanguageModel] = yield* Effect.promise(() =>
        Promise.all([import("@effect/ai-openai/OpenAiClient"), import("@effect/ai-openai/OpenAiLanguageModel")])
      )
      const client = yield* OpenAiClient.make({ apiKey: profile.apiKey, apiUrl: profile.baseUrl }).pipe(
        Effect.provideService(HttpClient.HttpClient, http)
      )
      return ((request) =>
        OpenAiLanguageModel.make({
          model: request.model,
          config: {
            // MCP tools' schemas are not written for OpenAI's strict mode
            strict: false,
            ...(request.temperature === null ? {} : { temperature: request.temperature }),
            ...(request.maxOutputTokens === null ? {} : { max_output_tokens: request.maxOutputTokens })
          }
        }).pipe(Effect.provideService(OpenAiClient.OpenAiClient, client))) satisfies ModelOf
    }
    const [AnthropicClient, AnthropicLanguageModel] = yield* Effect.promise(() =>
      Promise.all([import("@effect/ai-anthropic/AnthropicClient"), import("@effect/ai-anthropic/AnthropicLanguageModel")])
    )
    const client = yield* AnthropicClient.make({ apiKey: profile.apiKey, apiUrl: profile.baseUrl }).pipe(
      Effect.provideService(HttpClient.HttpClient, http)
    )
    return ((request) =>
      AnthropicLanguageModel.make({
        model: request.model,
        config: {
          ...(request.temperature === null ? {} : { temperature: request.temperature }),
          // the Messages API requires max_tokens; the client's default is 4096
          ...(request.maxOutputTokens === null ? {} : { max_tokens: request.maxOutputTokens })
        }
      }).pipe(Effect.provideService(AnthropicClient.AnthropicClient, client))) satisfies ModelOf
  })

/**
 * The `ModelEvent`s of one model call of profile `name`: text deltas, tool calls and the
 * final `Finish` (a stream that ends without the model's finish fails `MODEL_UNAVAILABLE`).
 */
const callModel = (name: string, profile: ModelProfile, modelOf: ModelOf, request: ModelRequest) =>
  Stream.unwrap(Effect.gen(function*() {
    const model = yield* modelOf(request)
    const prompt = toPrompt(request)
    const toolkit = toToolkit(request.tools)
    const parts = (toolkit === undefined
      ? model.streamText({ prompt })
      : model.streamText({ prompt, toolkit, disableToolCallResolution: true })) as Stream.Stream<
        Response.StreamPart<any>,
        unknown
      >
    let finished = false
    return parts.pipe(
      Stream.mapError((e) => modelFailure(name, e)),
      Stream.mapConcatEffect((part): Effect.Effect<ReadonlyArray<ModelEvent>, AgentRuntimeError> => {
        switch (part.type) {
          case "text-delta":
            return Effect.succeed(part.delta === "" ? [] : [{ _tag: "TextDelta", text: part.delta }])
          case "tool-call":
            return Effect.succeed(part.providerExecuted ? [] : [{ _tag: "ToolCall", id: part.id, name: part.name, arguments: part.params }])
          case "error":
            return Effect.fail(streamBroken(name, "the model server reported an error while streaming"))
          case "finish": {
            finished = true
            const inputTokens = part.usage.inputTokens ?? 0
            const outputTokens = part.usage.outputTokens ?? 0
            return Effect.succeed([{
              _tag: "Finish",
              reason: finishReason(part.reason),
              inputTokens,
              outputTokens,
              costMicroUsd: costMicroUsd(profile.prices[request.model], inputTokens, outputTokens)
            }])
          }
          default:
            return Effect.succeed([])
        }
      }),
      Stream.concat(Stream.suspend(() =>
        finished ? Stream.empty : Stream.fail(streamBroken(name, "the stream ended before the model finished"))
      ))
    )
  }).pipe(Effect.catchAllDefect((defect) => Effect.fail(modelFailure(name, defect)))))

/**
 * The agent runtime over the model profiles `profiles` (see the module's description).
 * Requires the guarded `Outbound` client; fails with nothing (a bad profile is refused
 * when the configuration is read).
 */
export const agentRuntimeLive = (profiles: ModelProfiles): Layer.Layer<AgentRuntime, never, Outbound> =>
  Layer.scoped(
    AgentRuntime,
    Effect.gen(function*() {
      const outbound = yield* Outbound
      const http = yield* HttpClient.HttpClient.pipe(Effect.provide(outbound.httpClient))
      const models = new Map<string, { readonly profile: ModelProfile; readonly modelOf: ModelOf }>()
      for (const [name, profile] of Object.entries(profiles)) {
        models.set(name, { profile, modelOf: yield* makeModelOf(profile, http) })
      }
      return {
        stream: (request) => {
          if (request.provider === DeterministicProvider) return Stream.fromIterable(deterministicEvents(request))
          return Option.match(Option.fromNullable(models.get(request.provider)), {
            onNone: () => Stream.fail(profileUnknown(request.provider)),
            onSome: ({ modelOf, profile }) => callModel(request.provider, profile, modelOf, request)
          })
        }
      }
    })
  )

/** {@link agentRuntimeLive} over the configured profiles (`AppConfig.modelProfiles`). Requires `AppConfig`, `Outbound`. */
export const AgentRuntimeLive: Layer.Layer<AgentRuntime, never, AppConfig | Outbound> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => agentRuntimeLive(config.modelProfiles))
)
