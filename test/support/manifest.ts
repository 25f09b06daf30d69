/**
 * Sends a demo manifest request (demo/manifest.ts) to the test server as its `as`
 * principal, as test/demo/Manifest.test.ts does: path and query from the manifest, the
 * body, its headers, the demo public API key or a fresh sign-in of the demo account
 * (with its CSRF token), and a fresh Idempotency-Key on commands.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/api/Api.js"
import { operationTable } from "../../src/api/policies.js"
import { demoManifest, type ManifestOperation } from "../../demo/manifest.js"
import { call, type CallOptions, signIn } from "./http.js"
import { until, waitFor } from "./waitFor.js"

const operations = operationTable(Api).byRoute

/** The method and route pattern (`/api/v1/agents/:entityPublicId`) of `operationId`. */
export const routeOf = (operationId: string) => {
  const entry = [...operations.entries()].find(([, o]) => o.policy.operationId === operationId)
  expect(entry, operationId).toBeDefined()
  return entry![0].split(" ") as ["GET" | "POST" | "DELETE" | "PATCH", string]
}

/**
 * Waits (real time, at most 20 s) until the reputation projector has drained every evidence
 * mark (src/trust/reputation/Projector.ts): the earlier requests' evidence is then in the
 * projections, so what a request reads does not depend on how fast the projector was.
 */
const evidenceProjected = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const marks = Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM reputation_dirty_agents`, ([row]) => row!.n)
  yield* waitFor("the projector to drain every evidence mark", until(marks, (n) => n === 0), 20_000, 20)
})

/** Sends the manifest request `op` of `operationId` (once the projector has caught up with earlier evidence). */
export const sendManifestRequest = (operationId: string, op: ManifestOperation) =>
  Effect.gen(function*() {
    yield* evidenceProjected
    const [method, pattern] = routeOf(operationId)
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(op.path[name]!))
    const query = new URLSearchParams(Object.entries(op.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
    const options: CallOptions = {
      ...(op.body !== null ? { body: op.body } : {}),
      headers: { ...(op.as === "apiKey:public" ? { "x-api-key": demoManifest.apiKeys.public.key } : {}), ...op.headers },
      ...(op.as !== "anonymous" && op.as !== "apiKey:public" ? { session: yield* signIn(op.as) } : {})
    }
    return yield* call(method, query === "" ? path : `${path}?${query}`, options)
  })

/**
 * Time allowed to a test that sends every request of the demo manifest (ms): about a hundred
 * requests, each a full pass through the stack, which on a loaded two-core machine takes
 * well over vitest's default of 60 s.
 */
export const WholeManifestTimeoutMs = 300_000
