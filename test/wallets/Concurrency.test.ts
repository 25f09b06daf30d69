/**
 * Optimistic concurrency of Wallets_CancelWalletPolicy and Trust_WithdrawFeedback
 * (src/db/versioned.ts): concurrent commands at one version succeed exactly once.
 *
 * Only PostgreSQL can interleave the requests: the embedded database is one session
 * (a pool of one connection), so every transaction runs alone and a read-then-write
 * command would pass too. On PostgreSQL the requests run their transactions at once.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoFeedback } from "../../demo/trust/seed.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { cancel, readPolicy } from "./support.js"
import { onPostgres } from "../support/database.js"

const server = makeTestServer()


describe.skipIf(!onPostgres)("needs PostgreSQL: the embedded database serializes every transaction on its one connection", () => {
  layer(server.layer)("versioned commands under concurrency", (it) => {
    it.effect("Wallets_CancelWalletPolicy: 12 concurrent cancels at one version: one 200, eleven 409, version + 1", () =>
      Effect.gen(function*() {
        const owner = yield* signIn("owner")
        const replies = yield* Effect.all(Array.from({ length: 12 }, () => cancel("spare", { session: owner })), {
          concurrency: "unbounded"
        })
        const ok = replies.filter((r) => r.status === 200)
        expect(ok, replies.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
        for (const reply of replies.filter((r) => r.status !== 200)) {
          expectProblem(reply, 409)
          expect(["version-conflict", "invalid-state"].map((k) => `https://agent-directory.dev/problems/${k}`)).toContain(reply.body.type)
        }
        expect(yield* readPolicy("spare")).toMatchObject({ state: "CANCELLED", version: 2 })
      }))

    it.effect("Trust_WithdrawFeedback: 12 concurrent withdrawals at one revision: one 200, eleven 409, revision + 1", () =>
      Effect.gen(function*() {
        const member = yield* signIn("member")
        const replies = yield* Effect.all(
          Array.from({ length: 12 }, () =>
            call("POST", `/api/v1/feedback/${DemoFeedback.memberAtlas.id}/withdraw`, {
              session: member,
              body: { expectedRevision: 2, reason: "Changed my mind." }
            })),
          { concurrency: "unbounded" }
        )
        const ok = replies.filter((r) => r.status === 200)
        expect(ok, replies.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
        expect(ok[0]!.body.data).toMatchObject({ state: "WITHDRAWN", revision: 3 })
        for (const reply of replies.filter((r) => r.status !== 200)) expectProblem(reply, 409)
      }))
  })
})
