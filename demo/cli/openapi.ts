/**
 * `npm run openapi [-- <file>]`: writes the OpenAPI description the server serves at
 * `/openapi.json` (default `openapi.json`): the contract's, with the demo examples
 * added at assembly (`demo/DocumentedApi.ts`).
 */
import * as OpenApi from "@effect/platform/OpenApi"
import { writeFileSync } from "node:fs"
import { Api } from "../../src/api/Api.js"
import { documentedApi } from "../DocumentedApi.js"

const file = process.argv[2] ?? "openapi.json"
writeFileSync(file, JSON.stringify(OpenApi.fromApi(documentedApi(Api)), null, 2) + "\n")
process.stdout.write(`wrote ${file}\n`)
