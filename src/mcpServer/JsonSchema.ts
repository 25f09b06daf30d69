/**
 * JSON Schemas of MCP tools (MCP `Tool.inputSchema` / `outputSchema`) derived from the
 * Effect Schemas of a REST operation with `JSONSchema.make`, never written by hand (DESIGN §3).
 * MCP requires both to be objects (`type: "object"` at the top): a request's path and query
 * parameters become one object's properties, a body or a success envelope is one already.
 */
import { JSONSchema, type Schema } from "effect"

/** A JSON Schema whose top is an object (what MCP accepts as a tool's input or output schema). */
export interface ObjectJsonSchema {
  readonly type: "object"
  readonly properties: Record<string, unknown>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: boolean
  readonly $defs?: Record<string, unknown>
  readonly [key: string]: unknown
}

type Json = Record<string, unknown>

/** The JSON Schema of `schema` (its encoded side, as on the REST wire) without `$schema`, its top-level `$ref` resolved. */
const jsonOf = (schema: Schema.Schema.All): { readonly top: Json; readonly defs: Json } => {
  const defs: Record<string, JSONSchema.JsonSchema7> = {}
  const top = JSONSchema.fromAST(schema.ast, {
    definitions: defs,
    definitionPath: "#/$defs/",
    topLevelReferenceStrategy: "skip"
  }) as unknown as Json
  return { top, defs }
}

/**
 * One object schema whose properties are those of every object schema of `parts` (e.g. an
 * operation's path and query parameters), with their `$defs` merged; no other properties.
 */
export const objectJsonSchema = (parts: ReadonlyArray<Schema.Schema.All>): ObjectJsonSchema => {
  const properties: Json = {}
  const required: Array<string> = []
  const defs: Json = {}
  let single: Json | undefined
  for (const part of parts) {
    const { defs: partDefs, top } = jsonOf(part)
    Object.assign(defs, partDefs)
    if (top["type"] !== "object") throw new Error("an MCP tool schema part is not an object schema")
    if (parts.length === 1) single = top
    Object.assign(properties, top["properties"] ?? {})
    required.push(...((top["required"] as ReadonlyArray<string> | undefined) ?? []))
  }
  const defsPart = Object.keys(defs).length === 0 ? {} : { $defs: defs }
  if (single !== undefined) {
    const { $ref: _, ...rest } = single
    return { ...rest, ...defsPart, type: "object", properties }
  }
  return { type: "object", properties, required, additionalProperties: false, ...defsPart }
}
