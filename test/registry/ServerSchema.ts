/**
 * The MCP Registry's v0.1 answer schemas (test/fixtures/mcp-registry: the registry's published OpenAPI
 * document, 2025-12-01), compiled with ajv (JSON Schema 2020-12 with formats): `validateList` checks a
 * `ServerList`, `validateResponse` a `ServerResponse`; each returns ajv's errors (empty when valid).
 */
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const file = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "mcp-registry", "openapi-v0.1-components.json")
const document = JSON.parse(readFileSync(file, "utf8")) as { $id: string }

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true })
;(addFormats as unknown as typeof addFormats.default)(ajv)
ajv.addSchema(document)

const compile = (name: string) => {
  const validate = ajv.getSchema(`${document.$id}#/components/schemas/${name}`)
  if (validate === undefined) throw new Error(`no schema ${name}`)
  return (value: unknown) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`))
}

/** Errors of `value` as a `ServerList` (empty when valid). */
export const validateList = compile("ServerList")
/** Errors of `value` as a `ServerResponse` (empty when valid). */
export const validateResponse = compile("ServerResponse")
