/**
 * `npm run build:web` step one: the contract's OpenAPI description (`src/api/Api.ts`, no demo
 * examples) as `web/.generated/openapi.json`, from which `openapi-typescript` writes the types
 * the pages' client (`web/src/api.ts`) is checked against. Generated at build time, never committed.
 */
import * as OpenApi from "@effect/platform/OpenApi"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Api } from "../src/api/Api.js"

const file = join(dirname(fileURLToPath(import.meta.url)), ".generated", "openapi.json")
mkdirSync(dirname(file), { recursive: true })
writeFileSync(file, JSON.stringify(OpenApi.fromApi(Api)) + "\n")
