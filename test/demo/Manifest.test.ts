/**
 * The demo manifest covers every operation of the contract, once. That each of its requests
 * succeeds on a freshly seeded database (or answers the problem it documents,
 * `ManifestOperation.problem`) is checked where the answers are compared with the stored
 * examples: test/openapi/Examples.test.ts.
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Api } from "../../src/api/Api.js"
import { operationTable } from "../../src/api/policies.js"
import { demoManifest } from "../../demo/manifest.js"

const operations = operationTable(Api).byRoute

describe("demo manifest", () => {
  it("names every operation of the contract", () => {
    const ids: Array<string> = []
    HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => ids.push(endpoint.name) })
    expect(Object.keys(demoManifest.operations).sort()).toEqual(
      [...operations.values()].map((o) => o.policy.operationId).sort()
    )
    expect(ids.length).toBe(operations.size)
  })
})
