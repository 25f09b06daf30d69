/**
 * The agent runtime's model seam (spec §2.20): what answers one step of a
 * run. The run's workflow (`src/runtime/loop/AgentRunWorkflow.ts`) hands the model the
 * conversation so far (text, tool calls and tool results), the tools it may call, and
 * stores what the model streams back: text deltas, tool calls, and the step's usage.
 *
 * Implementations: {@link AgentRuntimeDeterministic} (no model: the demo's and the
 * tests' default, through the same pipeline as the real ones) and the `@effect/ai`
 * providers chosen by the agent's `provider` (the configured model profiles).
 */
import { Context, Data, Layer, Stream } from "effect"

/**
 * A tool offered to the model. `name` matches `^[a-zA-Z0-9_-]{1,64}$` (what every
 * provider accepts; the caller maps it to and from the tool's `stableName`);
 * `inputSchema` is a JSON Schema object (the MCP tool's `inputSchema`).
 */
export interface ModelTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: unknown
}

/** One tool call the model asked for: the model's own `id`, the tool's `name`, the decoded JSON `arguments`. */
export interface ModelToolCall {
  readonly id: string
  readonly name: string
  readonly arguments: unknown
}

/** One message of the conversation handed to the model, oldest first. */
export type ModelMessage =
  | { readonly role: "user"; readonly text: string }
  | { readonly role: "assistant"; readonly text: string; readonly toolCalls: ReadonlyArray<ModelToolCall> }
  | {
    readonly role: "tool"
    readonly toolCallId: string
    readonly name: string
    /** The tool's result (JSON), or the error it gave when `isError`. */
    readonly result: unknown
    readonly isError: boolean
  }

/** One model call of a run: the agent's runtime configuration and the conversation so far. */
export interface ModelRequest {
  readonly agentId: string
  readonly runId: string
  /** The model profile (`deterministic`, or a profile named in the model configuration) and the model. */
  readonly provider: string
  readonly model: string
  /** The agent's system prompt. */
  readonly instructions: string
  /** 0-2; null = the provider's default. */
  readonly temperature: number | null
  /** Output tokens at most; null = the provider's default. */
  readonly maxOutputTokens: number | null
  readonly messages: ReadonlyArray<ModelMessage>
  readonly tools: ReadonlyArray<ModelTool>
}

/** What a model call streams, in order: text deltas and tool calls, then one `Finish`. */
export type ModelEvent =
  | { readonly _tag: "TextDelta"; readonly text: string }
  | ({ readonly _tag: "ToolCall" } & ModelToolCall)
  | {
    readonly _tag: "Finish"
    /** `stop`, `tool-calls`, `length`, `content-filter` or `other`. */
    readonly reason: string
    readonly inputTokens: number
    readonly outputTokens: number
    /** The call's cost in micro-USD from the profile's prices; null when the model has none. */
    readonly costMicroUsd: bigint | null
  }

/**
 * The model could not answer. `code` becomes the run's `failureCode` (spec §2.20), an
 * upper-case stable name such as `MODEL_UNAVAILABLE`; `retryable` failures are tried
 * again by the run's workflow before the run is failed. `message` never holds a
 * credential.
 */
export class AgentRuntimeError extends Data.TaggedError("AgentRuntimeError")<{
  readonly code: string
  readonly retryable: boolean
  readonly message: string
}> {}

/** Answers one step of a run. */
export class AgentRuntime extends Context.Tag("agent-directory/AgentRuntime")<AgentRuntime, {
  /** The model's answer to `request.messages`, streamed. Fails with {@link AgentRuntimeError}. */
  readonly stream: (request: ModelRequest) => Stream.Stream<ModelEvent, AgentRuntimeError>
}>() {}

/** Characters of the question quoted by {@link deterministicAnswer}. */
const QuoteLength = 80

const words = (text: string) => text.trim() === "" ? 0 : text.trim().split(/\s+/).length

const textOf = (message: ModelMessage): string =>
  message.role === "tool" ? JSON.stringify(message.result) ?? "" : message.text

/**
 * The deterministic runtime's text answer to `request`: names the model, quotes the
 * start of the last user message (at most 80 characters, `…` when cut) and counts its
 * words and the user and assistant turns so far, e.g.
 * `demo-echo-1 received: "Size the EU market." (4 words; turn 3 of the conversation).`
 */
export const deterministicAnswer = (request: Pick<ModelRequest, "model" | "messages">): string => {
  const turns = request.messages.filter((m) => m.role !== "tool")
  const lastUser = [...request.messages].reverse().find((m) => m.role === "user")
  const last = lastUser === undefined ? "" : textOf(lastUser)
  const quote = last.length > QuoteLength ? `${last.slice(0, QuoteLength)}…` : last
  const n = words(last)
  return `${request.model} received: "${quote}" (${n} word${n === 1 ? "" : "s"}; ` +
    `turn ${turns.length} of the conversation).`
}

/** `/tool <name> <JSON arguments>`: the deterministic runtime's tool-call directive. */
const ToolDirective = /^\/tool\s+([a-zA-Z0-9_-]{1,64})(?:\s+([\s\S]*))?$/

/**
 * What the deterministic runtime does with `request` (no model, same pipeline):
 * - the last message is a user message `/tool <name> <JSON arguments>` naming an
 *   offered tool: it calls that tool (id `call-<number of messages>`, arguments `{}`
 *   when none are given or they are not JSON);
 * - the last message is a tool result: it answers
 *   `<model> got <name>: <the result's JSON, 200 characters at most>`;
 * - otherwise: {@link deterministicAnswer}, word by word.
 * Usage counts words (in: every message and the prompt, out: the answer); no cost.
 */
export const deterministicEvents = (request: ModelRequest): ReadonlyArray<ModelEvent> => {
  const inputTokens = words(request.instructions) + request.messages.reduce((n, m) => n + words(textOf(m)), 0)
  const last = request.messages.at(-1)
  const finish = (reason: string, outputTokens: number): ModelEvent =>
    ({ _tag: "Finish", reason, inputTokens, outputTokens, costMicroUsd: null })
  if (last?.role === "user") {
    const directive = ToolDirective.exec(last.text.trim())
    if (directive !== null && request.tools.some((t) => t.name === directive[1])) {
      let args: unknown = {}
      try {
        args = directive[2] === undefined || directive[2].trim() === "" ? {} : JSON.parse(directive[2])
      } catch {
        args = {}
      }
      return [{ _tag: "ToolCall", id: `call-${request.messages.length}`, name: directive[1]!, arguments: args }, finish("tool-calls", 1)]
    }
  }
  const text = last?.role === "tool"
    ? `${request.model} got ${last.name}: ${(JSON.stringify(last.result) ?? "null").slice(0, 200)}`
    : deterministicAnswer(request)
  return [...text.split(/(?<= )/).map((t): ModelEvent => ({ _tag: "TextDelta", text: t })), finish("stop", words(text))]
}

/** The deterministic runtime: {@link deterministicEvents}, whatever the `provider`. */
export const AgentRuntimeDeterministic: Layer.Layer<AgentRuntime> = Layer.succeed(AgentRuntime, {
  stream: (request) => Stream.fromIterable(deterministicEvents(request))
})
