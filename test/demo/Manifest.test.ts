/**
 * Every request of the demo manifest succeeds on a freshly seeded database (or answers
 * the problem it documents, `ManifestOperation.problem`), and the manifest covers every
 * operation of the contract.
 */
import { HttpApi } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/api/Api.js"
import { operationTable } from "../../src/api/policies.js"
import { demoManifest, type ManifestOperation } from "../../demo/manifest.js"
import { call, type CallOptions, expectProblem, signIn } from "../support/http.js"
import { WholeManifestTimeoutMs } from "../support/manifest.js"
import { makeTestServer } from "../support/TestServer.js"

const server = makeTestServer()
const operations = operationTable(Api).byRoute

const request = (operationId: string, op: ManifestOperation) =>
  Effect.gen(function*() {
    const entry = [...operations.entries()].find(([, o]) => o.policy.operationId === operationId)
    expect(entry, operationId).toBeDefined()
    const [method, pattern] = entry![0].split(" ") as ["GET" | "POST" | "DELETE" | "PATCH", string]
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(op.path[name]!))
    const query = new URLSearchParams(Object.entries(op.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
    const options: CallOptions = {
      ...(op.body !== null ? { body: op.body } : {}),
      headers: { ...(op.as === "apiKey:public" ? { "x-api-key": demoManifest.apiKeys.public.key } : {}), ...op.headers },
      ...(op.as !== "anonymous" && op.as !== "apiKey:public" ? { session: yield* signIn(op.as) } : {})
    }
    return yield* call(method, query === "" ? path : `${path}?${query}`, options)
  })

layer(server.layer)("demo manifest", (it) => {
  it("names every operation of the contract", () => {
    const ids: Array<string> = []
    HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => ids.push(endpoint.name) })
    expect(Object.keys(demoManifest.operations).sort()).toEqual(
      [...operations.values()].map((o) => o.policy.operationId).sort()
    )
    expect(ids.length).toBe(operations.size)
  })

  it.effect("each request succeeds on the seeded database", () =>
    Effect.gen(function*() {
      for (const [operationId, op] of Object.entries(demoManifest.operations)) {
        const reply = yield* request(operationId, op)
        if (op.problem !== undefined) {
          // an operation whose success needs state the demo data cannot hold: its documented problem
          expectProblem(reply, op.problem.status, op.problem.type)
          continue
        }
        expect(reply.status, `${operationId}: ${reply.text}`).toBeGreaterThanOrEqual(200)
        expect(reply.status, `${operationId}: ${reply.text}`).toBeLessThan(300)
      }
    }), WholeManifestTimeoutMs)
})
