/**
 * The Anthropic Messages API as `@effect/ai-anthropic` 0.27 speaks it (`POST
 * /v1/messages` with `stream: true`): the Server-Sent Events of one streamed message,
 * as Anthropic sends them (`message_start`, `content_block_start` /
 * `content_block_delta` (`text_delta`, `input_json_delta`) / `content_block_stop`,
 * `message_delta` with the stop reason and output usage, `message_stop`), and
 * Anthropic's error bodies. For {@link ModelServer} scripts.
 */
import { json, type Reply, sse, type SseEvent } from "./ModelServer.js"
import type { ScriptedAnswer } from "./OpenAiResponses.js"

let messages = 0

/** The SSE events of one streamed message of `model` answering `answer`. */
export const messageEvents = (model: string, answer: ScriptedAnswer): ReadonlyArray<SseEvent> => {
  const events: Array<SseEvent> = []
  const push = (data: Record<string, unknown>) => events.push({ event: data["type"] as string, data })
  push({
    type: "message_start",
    message: {
      id: `msg_${++messages}`, type: "message", role: "assistant", model, content: [], stop_reason: null,
      stop_sequence: null, usage: { input_tokens: answer.inputTokens, output_tokens: 1 }
    }
  })
  let index = 0
  if (answer.text !== undefined && answer.text.length > 0) {
    push({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    for (const text of answer.text) push({ type: "content_block_delta", index, delta: { type: "text_delta", text } })
    push({ type: "content_block_stop", index })
    index++
  }
  for (const call of answer.toolCalls ?? []) {
    push({ type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } })
    const args = JSON.stringify(call.arguments)
    // the arguments arrive in pieces
    const half = Math.floor(args.length / 2)
    push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: args.slice(0, half) } })
    push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: args.slice(half) } })
    push({ type: "content_block_stop", index })
    index++
  }
  const stop = answer.truncated ? "max_tokens" : (answer.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn"
  push({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: answer.outputTokens } })
  push({ type: "message_stop" })
  return events
}

/** A streamed answer (200, `text/event-stream`). `cutShort`: the connection drops before `message_stop`. */
export const anthropicAnswer = (model: string, answer: ScriptedAnswer, cutShort = false): Reply => {
  const events = messageEvents(model, answer)
  return sse(cutShort ? events.slice(0, -2) : events, cutShort)
}

/** An error answer as Anthropic sends it: `status` with `{type: "error", error: {type, message}}`. */
export const anthropicError = (status: number, type: string, message = "scripted failure"): Reply =>
  json(status, { type: "error", error: { type, message } })
