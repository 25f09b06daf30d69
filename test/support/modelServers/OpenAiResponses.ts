/**
 * The OpenAI Responses API as `@effect/ai-openai` 0.41 speaks it (`POST /v1/responses`
 * with `stream: true`): the Server-Sent Events of one streamed response, as OpenAI
 * sends them (`response.created`, `response.output_item.added`,
 * `response.output_text.delta`, `response.output_item.done`, `response.completed`),
 * and OpenAI's error bodies. For {@link ModelServer} scripts.
 */
import { json, type Reply, sse, type SseEvent } from "./ModelServer.js"

/** What one scripted model answer holds. */
export interface ScriptedAnswer {
  /** Text deltas, in order (none = no text). */
  readonly text?: ReadonlyArray<string>
  /** Tool calls (function calls), `arguments` as the JSON object the model wrote. */
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: unknown }>
  readonly inputTokens: number
  readonly outputTokens: number
  /** `incomplete` with `max_output_tokens` instead of `completed`. */
  readonly truncated?: boolean
}

let responses = 0

const response = (model: string, id: string, status: string, output: ReadonlyArray<unknown>, usage?: { input: number; output: number }) => ({
  id,
  object: "response",
  created_at: 1_780_000_000,
  status,
  error: null,
  incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
  instructions: null,
  max_output_tokens: null,
  model,
  output,
  parallel_tool_calls: true,
  previous_response_id: null,
  reasoning: { effort: null, summary: null },
  store: true,
  temperature: 1,
  text: { format: { type: "text" } },
  tool_choice: "auto",
  tools: [],
  top_p: 1,
  truncation: "disabled",
  usage: usage === undefined ? null : {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output
  },
  user: null,
  metadata: {}
})

/** The SSE events of one streamed response of `model` answering `answer`. */
export const responseEvents = (model: string, answer: ScriptedAnswer): ReadonlyArray<SseEvent> => {
  const id = `resp_${++responses}`
  let seq = 0
  const events: Array<SseEvent> = []
  const push = (data: Record<string, unknown>) => events.push({ event: data["type"] as string, data: { ...data, sequence_number: seq++ } })
  push({ type: "response.created", response: response(model, id, "in_progress", []) })
  const output: Array<unknown> = []
  if (answer.text !== undefined && answer.text.length > 0) {
    const itemId = `msg_${id}`
    const index = output.length
    push({
      type: "response.output_item.added",
      output_index: index,
      item: { id: itemId, type: "message", status: "in_progress", role: "assistant", content: [] }
    })
    push({
      type: "response.content_part.added",
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] }
    })
    for (const delta of answer.text) {
      push({ type: "response.output_text.delta", item_id: itemId, output_index: index, content_index: 0, delta, logprobs: [] })
    }
    const text = answer.text.join("")
    push({ type: "response.output_text.done", item_id: itemId, output_index: index, content_index: 0, text, logprobs: [] })
    const item = {
      id: itemId, type: "message", status: "completed", role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }]
    }
    push({ type: "response.output_item.done", output_index: index, item })
    output.push(item)
  }
  for (const call of answer.toolCalls ?? []) {
    const index = output.length
    const args = JSON.stringify(call.arguments)
    const itemId = `fc_${call.id}`
    push({
      type: "response.output_item.added",
      output_index: index,
      item: { id: itemId, type: "function_call", status: "in_progress", call_id: call.id, name: call.name, arguments: "" }
    })
    push({ type: "response.function_call_arguments.delta", item_id: itemId, output_index: index, delta: args })
    push({ type: "response.function_call_arguments.done", item_id: itemId, output_index: index, arguments: args })
    const item = { id: itemId, type: "function_call", status: "completed", call_id: call.id, name: call.name, arguments: args }
    push({ type: "response.output_item.done", output_index: index, item })
    output.push(item)
  }
  const status = answer.truncated ? "incomplete" : "completed"
  push({
    type: answer.truncated ? "response.incomplete" : "response.completed",
    response: response(model, id, status, output, { input: answer.inputTokens, output: answer.outputTokens })
  })
  return events
}

/** A streamed answer (200, `text/event-stream`). `cutShort`: the connection drops before `response.completed`. */
export const openAiAnswer = (model: string, answer: ScriptedAnswer, cutShort = false): Reply => {
  const events = responseEvents(model, answer)
  return sse(cutShort ? events.slice(0, -1) : events, cutShort)
}

/** An error answer as OpenAI sends it: `status` with `{error: {message, type, code}}`. */
export const openAiError = (status: number, type: string, message = "scripted failure"): Reply =>
  json(status, { error: { message, type, param: null, code: type } })
