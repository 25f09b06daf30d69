/**
 * A wallet policy's way into force (spec §2.8, §3 wallet policy states), started by
 * Wallets_CreateWalletPolicy in its transaction, one execution per policy, on the durable engine:
 * 1. activity `dispatch`: PREPARED → DISPATCHING, the custody provider's `dispatch`, then
 *    DISPATCHING → OBSERVING with `candidateProviderPolicyId`, or → MANUAL_REVIEW with the
 *    provider's `failureCode` when it refuses;
 * 2. activities `observe-<n>`: the provider's `observe` until the candidate is in force →
 *    COMPLETE with `providerPolicyId` and `completedAt`; refused → MANUAL_REVIEW; still pending
 *    after {@link MaxObservations} looks, {@link ObserveIntervalMs} apart → MANUAL_REVIEW
 *    `PROVIDER_TIMEOUT`.
 * Every move is conditional on the state it starts from (version + 1): a policy cancelled meanwhile
 * (Wallets_CancelWalletPolicy) stays CANCELLED and the workflow ends.
 */
import { SqlClient } from "@effect/sql"
import { Activity, DurableClock, Workflow } from "@effect/workflow"
import { Duration, Effect, Option, Schema } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { CustodyProvider } from "./CustodyProvider.js"
import { WalletPoliciesRepo } from "./Repo.js"

/** How many times the provider is asked whether a candidate is in force. */
export const MaxObservations = 30
/** Between two observations, ms. */
export const ObserveIntervalMs = 10_000

/** The workflow: provision policy `policyId` (execution id from `policyId`). */
export const WalletPolicyProvisionWorkflow = Workflow.make({
  name: "WalletPolicyProvision",
  payload: { policyId: Schema.String },
  idempotencyKey: ({ policyId }) => policyId
})

/** The workflow's implementation, registered on the engine. Requires `SqlClient`, `CustodyProvider` (plus the engine). */
export const WalletPolicyProvisionLive = WalletPolicyProvisionWorkflow.toLayer(({ policyId }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* WalletPoliciesRepo
    const provider = yield* CustodyProvider

    const dispatched = yield* Activity.make({
      name: "dispatch",
      success: Schema.Boolean,
      execute: sql.withTransaction(Effect.gen(function*() {
        const found = yield* repo.forProvisioning(policyId)
        if (Option.isNone(found) || found.value.state !== "PREPARED") return found.pipe(Option.exists((p) => p.state === "OBSERVING"))
        if (!(yield* repo.move({ id: policyId, from: "PREPARED", to: "DISPATCHING", at: yield* now }))) return false
        const answer = yield* provider.dispatch(found.value)
        const at = yield* now
        return answer._tag === "Accepted"
          ? yield* repo.move({
            id: policyId,
            from: "DISPATCHING",
            to: "OBSERVING",
            at,
            candidateProviderPolicyId: answer.candidateProviderPolicyId
          })
          : yield* repo.move({ id: policyId, from: "DISPATCHING", to: "MANUAL_REVIEW", at, failureCode: answer.failureCode })
            .pipe(Effect.as(false))
      })).pipe(retryTransient, Effect.orDie)
    })
    if (!dispatched) return

    for (let attempt = 1; attempt <= MaxObservations; attempt++) {
      const outcome = yield* Activity.make({
        name: `observe-${attempt}`,
        success: Schema.Literal("done", "pending"),
        execute: sql.withTransaction(Effect.gen(function*() {
          const found = yield* repo.forProvisioning(policyId)
          if (Option.isNone(found) || found.value.state !== "OBSERVING" || found.value.candidateProviderPolicyId === null) {
            return "done" as const
          }
          const answer = yield* provider.observe({ ...found.value, candidateProviderPolicyId: found.value.candidateProviderPolicyId })
          const at = yield* now
          if (answer._tag === "Active") {
            yield* repo.move({ id: policyId, from: "OBSERVING", to: "COMPLETE", at, providerPolicyId: answer.providerPolicyId })
            return "done" as const
          }
          if (answer._tag === "Refused" || attempt === MaxObservations) {
            const failureCode = answer._tag === "Refused" ? answer.failureCode : "PROVIDER_TIMEOUT"
            yield* repo.move({ id: policyId, from: "OBSERVING", to: "MANUAL_REVIEW", at, failureCode })
            return "done" as const
          }
          return "pending" as const
        })).pipe(retryTransient, Effect.orDie)
      })
      if (outcome === "done") return
      yield* DurableClock.sleep({ name: `observe-wait-${attempt}`, duration: Duration.millis(ObserveIntervalMs) })
    }
  }).pipe(survivingStorageErrors, Effect.provide(WalletPoliciesRepo.Default)))
