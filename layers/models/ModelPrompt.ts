/**
 * A run's model call (`ModelRequest`, layers/AgentRuntime.ts) in `@effect/ai`'s terms:
 * the prompt (system = the agent's instructions, the user turns, the
 * assistant turns with their tool calls, the tool results) and the offered tools.
 *
 * The tools are dynamic: each one's parameters are the tool's own JSON Schema (the MCP
 * tool's `inputSchema`, sent to the provider unchanged) over a schema that accepts any
 * JSON object, so the model's arguments reach the run loop as the model wrote them
 * (the run loop validates them against `inputSchema` before it calls the tool). The
 * toolkit has no handlers: it is used with `disableToolCallResolution`, so `@effect/ai`
 * returns the model's tool calls and never executes one.
 */
import { Prompt, Tool, type Toolkit } from "@effect/ai"
import { Effect, Schema } from "effect"
import type { ModelMessage, ModelRequest, ModelTool } from "../AgentRuntime.js"

/** Any JSON object (what a tool call's arguments are), published as the tool's own JSON Schema. */
const parametersOf = (inputSchema: unknown) =>
  Schema.Struct({}, Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
    jsonSchema: typeof inputSchema === "object" && inputSchema !== null && !Array.isArray(inputSchema)
      ? inputSchema as object
      : { type: "object" }
  })

/** One offered tool as an `@effect/ai` tool (no handler: never executed by `@effect/ai`). */
export const toAiTool = (tool: ModelTool): Tool.Any =>
  Tool.make(tool.name, { description: tool.description === "" ? undefined : tool.description })
    .setParameters(parametersOf(tool.inputSchema)) as unknown as Tool.Any

/**
 * The offered tools as a toolkit with handlers that are never called (the caller passes
 * `disableToolCallResolution: true`); undefined when no tool is offered.
 */
export const toToolkit = (tools: ReadonlyArray<ModelTool>): Toolkit.WithHandler<Record<string, Tool.Any>> | undefined =>
  tools.length === 0 ? undefined : {
    tools: Object.fromEntries(tools.map((t) => [t.name, toAiTool(t)])),
    handle: () => Effect.dieMessage("tool calls are executed by the run loop, not by @effect/ai")
  } as unknown as Toolkit.WithHandler<Record<string, Tool.Any>>

/** Consecutive messages of one role go into one prompt message (Anthropic wants all results of a turn together). */
const toMessages = (messages: ReadonlyArray<ModelMessage>): Array<Prompt.MessageEncoded> => {
  const out: Array<Prompt.MessageEncoded> = []
  for (const message of messages) {
    const last = out.at(-1)
    switch (message.role) {
      case "user":
        out.push({ role: "user", content: [{ type: "text", text: message.text }] })
        break
      case "assistant":
        out.push({
          role: "assistant",
          content: [
            // an empty text block is refused by Anthropic
            ...(message.text === "" ? [] : [{ type: "text" as const, text: message.text }]),
            ...message.toolCalls.map((call) => ({
              type: "tool-call" as const,
              id: call.id,
              name: call.name,
              params: call.arguments,
              providerExecuted: false
            }))
          ]
        })
        break
      case "tool": {
        const part = {
          type: "tool-result" as const,
          id: message.toolCallId,
          name: message.name,
          isFailure: message.isError,
          result: message.result,
          providerExecuted: false
        }
        if (last?.role === "tool") (last.content as Array<typeof part>).push(part)
        else out.push({ role: "tool", content: [part] })
        break
      }
    }
  }
  return out
}

/** The prompt of `request`: the instructions as the system message (when not empty), then the conversation. */
export const toPrompt = (request: Pick<ModelRequest, "instructions" | "messages">): Prompt.Prompt =>
  Prompt.make([
    ...(request.instructions.trim() === "" ? [] : [{ role: "system" as const, content: request.instructions }]),
    ...toMessages(request.messages)
  ])
