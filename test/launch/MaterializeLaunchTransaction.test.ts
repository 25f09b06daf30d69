/**
 * Launch_MaterializeLaunchTransaction (spec §2.4, §4.3, §7):
 * POST /api/v1/launch-runs/{runId}/transaction-intent with body {expectedVersion}, on anvil
 * with the ERC-8004 Identity Registry configured: the intent is the real `register(agentURI)`
 * transaction of the draft's wallet.
 */
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { getAddress } from "viem"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoLaunchRuns, DemoLaunchSigner } from "../../demo/launch/seed.js"
import { testConfig } from "../support/config.js"
import { expectMeta, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { launchChainOverrides, materialize, readIntents, readRun, restoreLaunchRuns, startLaunchChain } from "./support.js"

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const at = TestEpoch.toISOString()

/** Asserts a 202 LaunchRun (spec §2.4) in AWAITING_SIGNATURE; returns its data. */
const expectMaterialized = (reply: Reply, version: number, attemptCount: number) => {
  expect(reply.status, reply.text).toBe(202)
  expectMeta(reply)
  const data = reply.body.data
  expect(Object.keys(data).sort()).toEqual([
    "attemptCount", "completedAt", "confirmedAt", "expectedAssetLocator", "failureCode", "failureSummary", "id",
    "launchDraftId", "observedAssetId", "observedAt", "providerReference", "requestedAt", "state", "steps",
    "submittedAt", "transactionIntentId", "updatedAt", "venue", "version"
  ])
  expect(data.state).toBe("AWAITING_SIGNATURE")
  expect(data.version).toBe(version)
  expect(data.attemptCount).toBe(attemptCount)
  expect(data.transactionIntentId).toMatch(uuid)
  expect(data.failureCode).toBeNull()
  expect(data.failureSummary).toBeNull()
  expect(data.updatedAt).toBe(at)
  const added = data.steps.slice(-2)
  expect(added).toEqual([
    { step: "TRANSACTION_INTENT", state: "COMPLETED", attemptCount, providerReference: null, errorCode: null, startedAt: at, completedAt: at },
    { step: "SIGNATURE", state: "PENDING", attemptCount, providerReference: null, errorCode: null, startedAt: at, completedAt: null }
  ])
  return data
}

const { anvil, registry } = await startLaunchChain()
afterAll(() => anvil.stop())
const server = makeTestServer(launchChainOverrides(anvil, registry))

layer(server.layer, { timeout: 60_000 })("Launch_MaterializeLaunchTransaction", (it) => {
  it.effect("202 from PREPARING: AWAITING_SIGNATURE, version + 1, one intent recorded in the run and its steps", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      const reply = yield* materialize("preparing", { session: owner, body: { expectedVersion: 1 } })
      const data = expectMaterialized(reply, 2, 1)
      expect(data.id).toBe(DemoLaunchRuns.preparing.id)
      expect(data.steps.map((s: { step: string }) => s.step)).toEqual(["PREPARE", "TRANSACTION_INTENT", "SIGNATURE"])
      expect(yield* readRun("preparing")).toEqual({ state: "AWAITING_SIGNATURE", version: 2, attemptCount: 1, intentId: data.transactionIntentId })
      expect(yield* readIntents("preparing")).toEqual([{ id: data.transactionIntentId, attempt: 1, state: "AWAITING_SIGNATURE" }])
      // the chain intent: the owner's register(agentURI) on the registry, for this run
      const sql = yield* SqlClient.SqlClient
      const [intent] = yield* sql<{ state: string; signer: string; from: string; to: string; call: unknown; purposeKind: string; purposeId: string }>`
        SELECT state, signer, from_address AS "from", to_address AS "to", call, purpose_kind AS "purposeKind", purpose_id AS "purposeId"
        FROM transaction_intents WHERE id = ${data.transactionIntentId}`.pipe(Effect.orDie)
      expect({ ...intent!, call: typeof intent!.call === "string" ? JSON.parse(intent!.call) : intent!.call }).toEqual({
        state: "AWAITING_SIGNATURE",
        signer: "OWNER",
        from: DemoLaunchSigner,
        to: getAddress(registry),
        call: {
          functionName: "register",
          signature: "register(string)",
          args: [`${testConfig().publicBaseUrl}/api/v1/agents/${DemoAgents[0].id}/erc8004-registration.json`]
        },
        purposeKind: "launch-run",
        purposeId: DemoLaunchRuns.preparing.id
      })
    }))

  it.effect("202 from AWAITING_FUNDING for an EDITOR; a replay with the same key answers the same; another key is refused and creates no second intent", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const member = yield* signIn("member")
      const key = randomUUID()
      const first = yield* materialize("funding", { session: member, idempotencyKey: key, body: { expectedVersion: 3 } })
      const data = expectMaterialized(first, 4, 1)
      const replay = yield* materialize("funding", { session: member, idempotencyKey: key, body: { expectedVersion: 3 } })
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(first.text)
      const again = yield* materialize("funding", { session: member, body: { expectedVersion: 4 } })
      expectProblem(again, 409, "invalid-state")
      const stale = yield* materialize("funding", { session: member, body: { expectedVersion: 3 } })
      expectProblem(stale, 409, "version-conflict")
      expect(yield* readIntents("funding")).toEqual([{ id: data.transactionIntentId, attempt: 1, state: "AWAITING_SIGNATURE" }])
      expect((yield* readRun("funding")).version).toBe(4)
    }))

  it.effect("202 from RETRYABLE_FAILURE counts an attempt, clears the failure and supersedes the failed intent", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      const before = yield* readIntents("retryable")
      expect(before).toEqual([{ id: DemoLaunchRuns.retryable.intent, attempt: 1, state: "FAILED" }])
      const reply = yield* materialize("retryable", { session: owner, body: { expectedVersion: 5 } })
      const data = expectMaterialized(reply, 6, 2)
      expect(data.transactionIntentId).not.toBe(DemoLaunchRuns.retryable.intent)
      expect(yield* readIntents("retryable")).toEqual([
        { id: DemoLaunchRuns.retryable.intent, attempt: 1, state: "SUPERSEDED" },
        { id: data.transactionIntentId, attempt: 2, state: "AWAITING_SIGNATURE" }
      ])
    }))

  it.effect("409 version-conflict for a stale or future version (the detail names the current one); nothing changes", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      for (const expectedVersion of [2, 7]) {
        const reply = yield* materialize("funding", { session: owner, body: { expectedVersion } })
        expectProblem(reply, 409, "version-conflict")
        expect(reply.body.detail).toMatch(/\bversion 3\b/)
      }
      expect(yield* readRun("funding")).toEqual({ state: "AWAITING_FUNDING", version: 3, attemptCount: 1, intentId: null })
      expect(yield* readIntents("funding")).toEqual([])
    }))

  it.effect("409 invalid-state from CREATED, AWAITING_SIGNATURE and COMPLETED at their current versions", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      for (const run of ["created", "signing", "completed"] as const) {
        const reply = yield* materialize(run, { session: owner, body: { expectedVersion: DemoLaunchRuns[run].version } })
        expectProblem(reply, 409, "invalid-state")
        expect(reply.body.detail).toContain(DemoLaunchRuns[run].state)
        expect((yield* readRun(run)).version).toBe(DemoLaunchRuns[run].version)
      }
    }))

  it.effect("404 launch-run-not-found for another workspace's run and for an unknown id, alike", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      const foreign = yield* materialize("foreign", { session: owner, body: { expectedVersion: 1 } })
      expectProblem(foreign, 404, "launch-run-not-found")
      const unknown = yield* materialize(randomUUID(), { session: owner, body: { expectedVersion: 1 } })
      expectProblem(unknown, 404, "launch-run-not-found")
      expect((yield* readRun("foreign")).state).toBe("PREPARING")
      // its own workspace's member can
      const outsider = yield* signIn("outsider")
      expectMaterialized(yield* materialize("foreign", { session: outsider, body: { expectedVersion: 1 } }), 2, 1)
    }))

  it.effect("403 role-required for a VIEWER (before the version check)", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const admin = yield* signIn("admin")
      expectProblem(yield* materialize("preparing", { session: admin, body: { expectedVersion: 1 } }), 403, "role-required")
      expectProblem(yield* materialize("preparing", { session: admin, body: { expectedVersion: 9 } }), 403, "role-required")
      expect((yield* readRun("preparing")).version).toBe(1)
    }))

  it.effect("401 without a session; 403 csrf-token-invalid without the CSRF token", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      expectProblem(yield* materialize("preparing", { body: { expectedVersion: 1 } }), 401, "unauthenticated")
      const owner = yield* signIn("owner")
      expectProblem(yield* materialize("preparing", { session: owner, csrf: null, body: { expectedVersion: 1 } }), 403, "csrf-token-invalid")
      expect((yield* readRun("preparing")).version).toBe(1)
    }))

  it.effect("400 for a bad body, path or Idempotency-Key; nothing changes", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      for (const body of [{}, { expectedVersion: 0 }, { expectedVersion: "1" }, { expectedVersion: 1.5 }, { expectedVersion: 1, extra: 1 }]) {
        const reply = yield* materialize("preparing", { session: owner, body })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors[0].in).toBe("body")
      }
      const path = yield* materialize("not-a-uuid", { session: owner, body: { expectedVersion: 1 } })
      expectProblem(path, 400, "invalid-request")
      expect(path.body.errors[0]).toMatchObject({ in: "path", pointer: "/runId" })
      expectProblem(yield* materialize("preparing", { session: owner, idempotencyKey: null, body: { expectedVersion: 1 } }), 400, "idempotency-key-required")
      expect(yield* readRun("preparing")).toEqual({ state: "PREPARING", version: 1, attemptCount: 1, intentId: null })
    }))
})
