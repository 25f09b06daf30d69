/**
 * Optimistic concurrency of Launch_MaterializeLaunchTransaction (src/db/versioned.ts):
 * concurrent calls at one expectedVersion succeed exactly once and create one intent.
 * Concurrent resumes of one procurement intent issue one instrument.
 *
 * PostgreSQL only: the embedded database is one session (a pool of one connection),
 * so its transactions never interleave and a read-then-write would pass too.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoProcurementIntents } from "../../demo/procurement/seed.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { launchChainOverrides, materialize, readIntents, readRun, startLaunchChain } from "./support.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { onPostgres } from "../support/database.js"

// materializing prepares a real intent: anvil with the Identity Registry
const { anvil, registry } = await startLaunchChain()
afterAll(() => anvil.stop())
const server = makeTestServer(launchChainOverrides(anvil, registry))

describe.skipIf(!onPostgres)("needs PostgreSQL: the embedded database serializes every transaction on its one connection", () => {
  layer(server.layer)("concurrent commands", (it) => {
    it.effect("Launch: 12 concurrent calls at one version (owner and member, distinct keys): one 202, eleven 409, one intent", () =>
      Effect.gen(function*() {
        const owner = yield* signIn("owner")
        const member = yield* signIn("member")
        const replies = yield* Effect.all(
          Array.from({ length: 12 }, (_, i) => materialize("spare", { session: i % 2 === 0 ? owner : member, body: { expectedVersion: 2 } })),
          { concurrency: "unbounded" }
        )
        const ok = replies.filter((r) => r.status === 202)
        expect(ok, replies.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
        for (const reply of replies.filter((r) => r.status !== 202)) {
          expectProblem(reply, 409)
          expect(["version-conflict", "invalid-state"].map((k) => `https://agent-directory.dev/problems/${k}`)).toContain(reply.body.type)
        }
        expect(yield* readRun("spare")).toMatchObject({ state: "AWAITING_SIGNATURE", version: 3 })
        const intents = yield* readIntents("spare")
        expect(intents).toEqual([{ id: ok[0]!.body.data.transactionIntentId, attempt: 1, state: "AWAITING_SIGNATURE" }])
      }))

    it.effect("Procurement: 8 concurrent resumes of one waiting intent: one 202, seven 409 invalid-state, one instrument", () =>
      Effect.gen(function*() {
        const owner = yield* signIn("owner")
        const path = `/api/v1/agents/${DemoAgents[0].id}/procurement/intents/${DemoProcurementIntents.waiting.id}/resume`
        const replies = yield* Effect.all(
          Array.from({ length: 8 }, () => call("POST", path, { session: owner, body: {} })),
          { concurrency: "unbounded" }
        )
        const ok = replies.filter((r) => r.status === 202)
        expect(ok, replies.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
        for (const reply of replies.filter((r) => r.status !== 202)) expectProblem(reply, 409, "invalid-state")
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ instrument: { publicId: string } }>`SELECT instrument FROM procurement_intents
          WHERE id = ${DemoProcurementIntents.waiting.id}`.pipe(Effect.orDie)
        expect(rows[0]!.instrument.publicId).toBe(ok[0]!.body.data.instrument.publicId)
      }))
  })
})
