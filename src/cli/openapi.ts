/** `npm run openapi [-- <file>]`: writes the OpenAPI description derived from the contract (default `openapi.json`). */
import { OpenApi } from "@effect/platform"
import { writeFileSync } from "node:fs"
import { Api } from "../api/Api.js"

const file = process.argv[2] ?? "openapi.json"
writeFileSync(file, JSON.stringify(OpenApi.fromApi(Api), null, 2) + "\n")
process.stdout.write(`wrote ${file}\n`)
