/**
 * Wallets_CancelWalletPolicy (spec §2.8, §3, §4.3, §7):
 * POST /api/v1/wallet-policies/{policyId}/cancel with {expectedVersion, reason, confirmation}.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoWallets, DemoWalletPolicies } from "../../demo/wallets/seed.js"
import { call, expectMeta, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { cancel, cancelBody, type DemoPolicyName, expectPolicyUnchanged, readPolicy } from "./support.js"

/** Asserts a WalletPolicy (spec §2.8) cancelled at the test epoch. */
const expectCancelled = (reply: Reply, policy: DemoPolicyName) => {
  expect(reply.status, reply.text).toBe(200)
  expect(reply.headers["cache-control"]).toBe("no-store")
  expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
  expectMeta(reply)
  const demo = DemoWalletPolicies[policy]
  expect(Object.keys(reply.body.data).sort()).toEqual([
    "candidateProviderPolicyId",
    "completedAt",
    "createdAt",
    "failureCode",
    "phase",
    "policyId",
    "providerPolicyId",
    "state",
    "updatedAt",
    "version",
    "walletPublicId"
  ])
  expect(reply.body.data).toMatchObject({
    policyId: demo.id,
    walletPublicId: DemoWallets[demo.wallet].id,
    phase: demo.phase,
    state: "CANCELLED",
    version: demo.version + 1,
    completedAt: TestEpoch.toISOString(),
    updatedAt: TestEpoch.toISOString()
  })
  expect(reply.body.data.createdAt).toMatch(/^2026-.*Z$/)
}

const successServer = makeTestServer()

layer(successServer.layer)("Wallets_CancelWalletPolicy: success", (it) => {
  it.effect("cancels a PREPARED policy: CANCELLED, version + 1, completedAt = now, reason stored; a replay returns the same", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const reply = yield* cancel("prepared", { session: owner, idempotencyKey: key })
      expectCancelled(reply, "prepared")
      expect(reply.body.data.candidateProviderPolicyId).toBeNull()
      const row = yield* readPolicy("prepared")
      expect(row).toEqual({
        state: "CANCELLED",
        version: 2,
        completedAt: TestEpoch.toISOString(),
        reason: "The provider session is no longer needed."
      })
      const replay = yield* cancel("prepared", { session: owner, idempotencyKey: key })
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.text).toBe(reply.text)
      // a new request at the old version: the policy is at version 2 now
      expectProblem(yield* cancel("prepared", { session: owner }), 409, "version-conflict")
      // and at the new version: it is CANCELLED
      expectProblem(yield* cancel("prepared", { session: owner, body: cancelBody("prepared", 2) }), 409, "invalid-state")
    }))

  it.effect("cancels from DISPATCHING, OBSERVING and MANUAL_REVIEW", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (const policy of ["dispatching", "observing", "manualReview"] as const) {
        const reply = yield* cancel(policy, { session: owner })
        expectCancelled(reply, policy)
        expect(reply.body.data.candidateProviderPolicyId).toMatch(/^cand-policy-/)
      }
      expect((yield* readPolicy("manualReview")).state).toBe("CANCELLED")
    }))
})

const refusalServer = makeTestServer()

layer(refusalServer.layer)("Wallets_CancelWalletPolicy: refusals", (it) => {
  it.effect("409 version-conflict for a stale or future expectedVersion; the detail names the current version", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const stale = yield* cancel("observing", { session: owner, body: cancelBody("observing", 2) })
      expectProblem(stale, 409, "version-conflict")
      expect(stale.body.detail).toMatch(/\bversion 3\b/)
      expectProblem(yield* cancel("observing", { session: owner, body: cancelBody("observing", 4) }), 409, "version-conflict")
      yield* expectPolicyUnchanged("observing")
    }))

  it.effect("409 invalid-state for COMPLETE and CANCELLED policies at their current version", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (const policy of ["complete", "cancelled"] as const) {
        const reply = yield* cancel(policy, { session: owner })
        expectProblem(reply, 409, "invalid-state")
        expect(reply.body.detail).toContain(DemoWalletPolicies[policy].state)
        yield* expectPolicyUnchanged(policy)
      }
    }))

  it.effect("410 challenge-expired when the policy's cancellation challenge has expired, even with the right phrase", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* cancel("expiredChallenge", { session: owner })
      expectProblem(reply, 410, "challenge-expired")
      // an expired challenge wins over a wrong phrase
      const wrong = yield* cancel("expiredChallenge", {
        session: owner,
        body: { ...cancelBody("expiredChallenge"), confirmation: "CANCEL please do it" }
      })
      expectProblem(wrong, 410, "challenge-expired")
      yield* expectPolicyUnchanged("expiredChallenge")
    }))

  it.effect("422 proof-invalid when the confirmation is not exactly CANCEL <policyId>", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const id = DemoWalletPolicies.spare.id
      for (const confirmation of [
        `cancel ${id}`,
        `CANCEL ${DemoWalletPolicies.prepared.id}`,
        `CANCEL  ${id}`,
        `CANCEL ${id} `,
        `CANCEL ${id.toUpperCase()}`,
        "CANCEL POLICY"
      ]) {
        const reply = yield* cancel("spare", { session: owner, body: { ...cancelBody("spare"), confirmation } })
        expectProblem(reply, 422, "proof-invalid")
        expect(reply.text).not.toContain(confirmation)
      }
      // the version is checked before the proof
      const stale = yield* cancel("spare", { session: owner, body: { ...cancelBody("spare", 9), confirmation: "CANCEL POLICY" } })
      expectProblem(stale, 409, "version-conflict")
      yield* expectPolicyUnchanged("spare")
    }))

  it.effect("404 for a policy of another account's wallet and for an unknown id, alike", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const foreign = yield* cancel("foreign", { session: owner })
      expectProblem(foreign, 404, "wallet-policy-not-found")
      const unknownId = randomUUID()
      const unknown = yield* cancel(unknownId, { session: owner })
      expectProblem(unknown, 404, "wallet-policy-not-found")
      // a wrong phrase on an invisible policy is still 404 (nothing is revealed)
      const wrong = yield* cancel("foreign", { session: owner, body: { ...cancelBody("foreign"), confirmation: "CANCEL POLICY" } })
      expectProblem(wrong, 404, "wallet-policy-not-found")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* cancel("spare", { session: outsider }), 404, "wallet-policy-not-found")
      // a member of the owner's workspace does not own the owner's wallets
      const member = yield* signIn("member")
      expectProblem(yield* cancel("spare", { session: member }), 404, "wallet-policy-not-found")
      yield* expectPolicyUnchanged("foreign")
      yield* expectPolicyUnchanged("spare")
    }))

  it.effect("401 without a session; 403 without the CSRF token", () =>
    Effect.gen(function*() {
      expectProblem(yield* cancel("spare"), 401, "unauthenticated")
      const owner = yield* signIn("owner")
      expectProblem(yield* cancel("spare", { session: owner, csrf: null }), 403, "csrf-token-invalid")
      yield* expectPolicyUnchanged("spare")
    }))

  it.effect("400 for bodies that break the rules, naming the field", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const base = cancelBody("spare")
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ ...base, reason: "x".repeat(19) }, "/reason"],
        [{ ...base, reason: "x".repeat(4001) }, "/reason"],
        [{ ...base, confirmation: "CANCEL 12" }, "/confirmation"],
        [{ ...base, confirmation: "C".repeat(101) }, "/confirmation"],
        [{ ...base, expectedVersion: 0 }, "/expectedVersion"],
        [{ ...base, expectedVersion: "1" }, "/expectedVersion"],
        [{ reason: base.reason, confirmation: base.confirmation }, "/expectedVersion"],
        [{ ...base, extra: true }, "/extra"]
      ]
      for (const [body, pointer] of cases) {
        const reply = yield* cancel("spare", { session: owner, body })
        expectProblem(reply, 400)
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), reply.text).toContain(pointer)
      }
      const badPath = yield* call("POST", "/api/v1/wallet-policies/not-a-uuid/cancel", { session: owner, body: base })
      expectProblem(badPath, 400)
      expect(badPath.body.errors[0]).toMatchObject({ in: "path", pointer: "/policyId" })
      yield* expectPolicyUnchanged("spare")
    }))
})

const reauthServer = makeTestServer()

layer(reauthServer.layer)("Wallets_CancelWalletPolicy: custody needs a recent sign-in", (it) => {
  it.effect("403 reauthentication-required 16 minutes after sign-in; a fresh sign-in cancels", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      reauthServer.clock.advance(16 * 60_000)
      expectProblem(yield* cancel("spare", { session: owner }), 403, "reauthentication-required")
      yield* expectPolicyUnchanged("spare")
      const fresh = yield* signIn("owner")
      const reply = yield* cancel("spare", { session: fresh })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data.completedAt).toBe(new Date(TestEpoch.getTime() + 16 * 60_000).toISOString())
    }))
})

