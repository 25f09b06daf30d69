/**
 * Validating a tool call's arguments against the tool's `inputSchema` (a JSON Schema, as
 * the MCP server or the built-in tool declares it) before the call, with ajv 8
 * and ajv-formats. A schema ajv cannot compile refuses every call (the tool is broken, not
 * the arguments). Compiled validators are cached per schema text.
 */
import { Ajv } from "ajv"
import addFormatsModule from "ajv-formats"

// ajv-formats is CommonJS: its default export arrives as the module object or the function
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateFormats: true }))

const cache = new Map<string, ReturnType<Ajv["compile"]> | string>()
/** Validators kept at most. */
const CacheSize = 500

/**
 * Validates `args` against `inputSchema`: `undefined` when they conform, else a message
 * naming each failing place with a JSON pointer and the rule (e.g. `/q: must be string`;
 * at most 5). Never echoes the values.
 */
export const validateArguments = (inputSchema: unknown, args: unknown): string | undefined => {
  const key = JSON.stringify(inputSchema ?? {})
  let validate = cache.get(key)
  if (validate === undefined) {
    try {
      validate = ajv.compile(typeof inputSchema === "object" && inputSchema !== null ? inputSchema : {})
    } catch (error) {
      validate = `the tool's inputSchema is not a valid JSON Schema (${error instanceof Error ? error.message.slice(0, 200) : "unknown"})`
    }
    if (cache.size >= CacheSize) cache.delete(cache.keys().next().value!)
    cache.set(key, validate)
  }
  if (typeof validate === "string") return validate
  if (validate(args)) return undefined
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"}: ${e.message ?? "is invalid"}`).join("; ")
}
