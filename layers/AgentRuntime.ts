/**
 * The agent runtime: what answers a conversation's latest message (issue 11, spec
 * §2.20). A real model provider implements {@link AgentRuntime}; the job that runs a
 * conversation's run (`src/runtime/AgentRunJob.ts`) calls it and stores the answer.
 *
 * The default, {@link AgentRuntimeDeterministic}, calls no model: it answers with a
 * fixed summary of the last user message (see {@link deterministicAnswer}), so the
 * demo and the tests see the whole run life cycle without a provider.
 */
import { Context, Data, Layer, Stream } from "effect"

/** One message of the history handed to the runtime, oldest first. */
export interface AgentTurn {
  /** `user` or `assistant`. */
  readonly role: string
  readonly content: string
}

/** What the runtime is asked: the agent's configuration and the conversation so far. */
export interface AgentRequest {
  readonly agentId: string
  readonly runId: string
  /** Provider and model of the agent's runtime configuration (`agent_runtime_configs`). */
  readonly provider: string
  readonly model: string
  /** The agent's system instructions. */
  readonly instructions: string
  /** The conversation up to and including the message to answer (redacted messages left out). */
  readonly history: ReadonlyArray<AgentTurn>
}

/**
 * The runtime could not answer. `code` becomes the run's `failureCode` (spec §2.20),
 * an upper-case stable name such as `MODEL_UNAVAILABLE`; `retryable` failures are
 * tried again by the run's workflow before the run is failed.
 */
export class AgentRuntimeError extends Data.TaggedError("AgentRuntimeError")<{
  readonly code: string
  readonly retryable: boolean
  readonly message: string
}> {}

/** Answers conversations. */
export class AgentRuntime extends Context.Tag("agent-directory/AgentRuntime")<AgentRuntime, {
  /**
   * The answer to the last turn of `request.history`, as text chunks in order (their
   * concatenation is the answer). Fails with {@link AgentRuntimeError}.
   */
  readonly respond: (request: AgentRequest) => Stream.Stream<string, AgentRuntimeError>
}>() {}

/** Characters of the question quoted by {@link deterministicAnswer}. */
const QuoteLength = 80

/**
 * The deterministic runtime's answer to `request`: names the model, quotes the start
 * of the last user message (at most 80 characters, `…` when cut) and counts its words
 * and the turns so far, e.g.
 * `demo-echo-1 received: "Size the EU market." (4 words; turn 3 of the conversation).`
 */
export const deterministicAnswer = (request: AgentRequest): string => {
  const last = request.history.at(-1)?.content ?? ""
  const quote = last.length > QuoteLength ? `${last.slice(0, QuoteLength)}…` : last
  const words = last.trim() === "" ? 0 : last.trim().split(/\s+/).length
  return `${request.model} received: "${quote}" (${words} word${words === 1 ? "" : "s"}; ` +
    `turn ${request.history.length} of the conversation).`
}

/** The deterministic runtime: {@link deterministicAnswer}, streamed word by word. */
export const AgentRuntimeDeterministic: Layer.Layer<AgentRuntime> = Layer.succeed(AgentRuntime, {
  respond: (request) => Stream.fromIterable(deterministicAnswer(request).split(/(?<= )/))
})
