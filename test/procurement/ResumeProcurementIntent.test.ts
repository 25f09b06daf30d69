/**
 * Procurement_ResumeProcurementIntent (spec §2.6, §4.3, §7):
 * POST /api/v1/agents/{entityPublicId}/procurement/intents/{intentPublicId}/resume with body {}.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { DemoProcurementIntents, type DemoProcurementIntentName, seedProcurement } from "../../demo/procurement/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { DemoAgents } from "../../demo/agents/seed.js"

const agentOf = (name: DemoProcurementIntentName) => DemoAgents[DemoProcurementIntents[name].agent].id

const resume = (name: DemoProcurementIntentName, options: CallOptions & { readonly agent?: string; readonly intent?: string } = {}) =>
  call(
    "POST",
    `/api/v1/agents/${options.agent ?? agentOf(name)}/procurement/intents/${options.intent ?? DemoProcurementIntents[name].id}/resume`,
    { body: {}, ...options }
  )

const readIntent = (name: DemoProcurementIntentName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: string; instrument: unknown; continuation: unknown }>`
      SELECT state, instrument, continuation FROM procurement_intents WHERE id = ${DemoProcurementIntents[name].id}`
    return rows[0]!
  }).pipe(Effect.orDie)

const restore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM procurement_intents`
  yield* sql`DELETE FROM procurement_providers`
  yield* seedProcurement
}).pipe(Effect.orDie)

const server = makeTestServer()

layer(server.layer)("Procurement_ResumeProcurementIntent", (it) => {
  it.effect("202: a waiting intent gets its instrument from the demo issuer (INSTRUMENT_ISSUED, continuation null)", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      const reply = yield* resume("waiting", { session: owner })
      expect(reply.status, reply.text).toBe(202)
      expectMeta(reply)
      const data = reply.body.data
      expect(Object.keys(data).sort()).toEqual([
        "amountMinor", "continuation", "createdAt", "currency", "expiresAt", "instrument", "merchant", "merchantUrl",
        "policyVersion", "provider", "providerRequestId", "publicId", "purpose", "state", "updatedAt"
      ])
      const intentId = DemoProcurementIntents.waiting.id
      const last4 = (createHash("sha256").update(intentId).digest().readUInt32BE(0) % 10_000).toString().padStart(4, "0")
      expect(data).toMatchObject({
        publicId: intentId,
        state: "INSTRUMENT_ISSUED",
        provider: "demo-issuer",
        providerRequestId: `demo-${intentId}`,
        continuation: null,
        updatedAt: TestEpoch.toISOString(),
        expiresAt: "2030-01-01T00:00:00.000Z"
      })
      expect(data.amountMinor).toMatch(/^[1-9][0-9]*$/)
      expect(Object.keys(data.instrument).sort()).toEqual(["expiresAt", "last4", "publicId", "state"])
      expect(data.instrument).toMatchObject({ state: "ACTIVE", last4, expiresAt: "2030-01-01T00:00:00.000Z" })
      expect((yield* readIntent("waiting")).state).toBe("INSTRUMENT_ISSUED")
      // resuming again: nothing waits any more
      expectProblem(yield* resume("waiting", { session: owner }), 409, "invalid-state")
    }))

  it.effect("202: after the continuation expired, the intent keeps waiting with a fresh continuation (15 min)", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      const reply = yield* resume("staleContinuation", { session: owner })
      expect(reply.status, reply.text).toBe(202)
      const data = reply.body.data
      expect(data.state).toBe("AWAITING_BUYER")
      expect(data.instrument).toBeNull()
      expect(data.continuation.publicId).not.toBe(DemoProcurementIntents.staleContinuation.continuationId)
      expect(data.continuation.actionUrl).toBe(`https://issuer.demo.agent-directory.dev/continue/${data.continuation.publicId}`)
      expect(data.continuation.expiresAt).toBe(new Date(TestEpoch.getTime() + 15 * 60_000).toISOString())
      expect((yield* readIntent("staleContinuation")).continuation).toEqual(data.continuation)
    }))

  it.effect("409 intent-expired past expiresAt or in state EXPIRED; 409 invalid-state once issued", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      expectProblem(yield* resume("expired", { session: owner }), 409, "intent-expired")
      expectProblem(yield* resume("markedExpired", { session: owner }), 409, "intent-expired")
      expectProblem(yield* resume("issued", { session: owner }), 409, "invalid-state")
      expect((yield* readIntent("expired")).state).toBe("AWAITING_BUYER")
    }))

  it.effect("422 procurement-provider-missing for an agent without a provider", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      expectProblem(yield* resume("unconfigured", { session: owner }), 422, "procurement-provider-missing")
      expect((yield* readIntent("unconfigured")).state).toBe("AWAITING_BUYER")
    }))

  it.effect("404 for another workspace's intent, another agent's path and an unknown id, alike", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      expectProblem(yield* resume("foreign", { session: owner }), 404, "procurement-intent-not-found")
      expectProblem(yield* resume("waiting", { session: owner, agent: DemoAgents[2].id }), 404, "procurement-intent-not-found")
      expectProblem(yield* resume("waiting", { session: owner, intent: randomUUID() }), 404, "procurement-intent-not-found")
      expect((yield* readIntent("waiting")).state).toBe("AWAITING_BUYER")
    }))

  it.effect("403 role-required for a VIEWER and an EDITOR", () =>
    Effect.gen(function*() {
      yield* restore
      expectProblem(yield* resume("waiting", { session: yield* signIn("admin") }), 403, "role-required")
      expectProblem(yield* resume("waiting", { session: yield* signIn("member") }), 403, "role-required")
      expect((yield* readIntent("waiting")).state).toBe("AWAITING_BUYER")
    }))

  it.effect("401 without a session; 400 for any body but {} and for a bad path", () =>
    Effect.gen(function*() {
      yield* restore
      expectProblem(yield* resume("waiting", {}), 401, "unauthenticated")
      const owner = yield* signIn("owner")
      const extra = yield* resume("waiting", { session: owner, body: { reason: "go" } })
      expectProblem(extra, 400, "invalid-request")
      expect(extra.body.errors[0]).toMatchObject({ in: "body", pointer: "/reason" })
      for (const raw of ["[]", "null", "1", "\"x\""]) expectProblem(yield* resume("waiting", { session: owner, raw }), 400)
      expectProblem(yield* resume("waiting", { session: owner, intent: "nope" }), 400, "invalid-request")
      expect((yield* readIntent("waiting")).state).toBe("AWAITING_BUYER")
    }))
})
