/**
 * Wallet policies' creation and reading (spec §2.8, §3, §4.3); their cancellation is
 * `Wallets.cancelPolicy` (src/wallets/Wallets.ts), their enforcement ./Enforcement.ts.
 */
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { InvalidRequest } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { WalletNotFound, WalletPolicyNotFound } from "../Errors.js"
import { WalletsRepo } from "../Repo.js"
import type { WalletPolicyRules } from "../Schemas.js"
import { CustodyProvider } from "./CustodyProvider.js"
import { WalletPolicyProvisionWorkflow } from "./ProvisionWorkflow.js"
import { WalletPoliciesRepo } from "./Repo.js"

/** How long a new policy's cancellation challenge is valid (Wallets_CancelWalletPolicy answers 410 after it), ms: 7 days. */
export const PolicyCancellationWindowMs = 7 * 24 * 3600 * 1000

/** Input of {@link WalletPolicies.create}. */
export interface CreatePolicyInput {
  readonly walletId: string
  readonly accountId: string
  readonly phase: "CREATE" | "ATTACH"
  readonly providerPolicyId?: string | null | undefined
  readonly rules: WalletPolicyRules
}

/** Wallet policies: creation (with its provisioning workflow) and reads. Requires `SqlClient`, `Ids`, `CustodyProvider`, `WorkflowEngine`. */
export class WalletPolicies extends Effect.Service<WalletPolicies>()("agent-directory/WalletPolicies", {
  effect: Effect.gen(function*() {
    const repo = yield* WalletPoliciesRepo
    const wallets = yield* WalletsRepo
    const ids = yield* Ids
    const provider = yield* CustodyProvider
    const engine = yield* WorkflowEngine.WorkflowEngine

    /**
     * Wallets_CreateWalletPolicy: a PREPARED policy (version 1) of one of the caller's wallets with
     * its rules, its cancellation challenge valid for {@link PolicyCancellationWindowMs}, and its
     * provisioning workflow started in the same transaction (PREPARED → DISPATCHING → OBSERVING →
     * COMPLETE, or MANUAL_REVIEW on a provider refusal). ATTACH names the provider policy to attach
     * (`providerPolicyId`, kept as the candidate); CREATE takes none.
     *
     * Fails with `WalletNotFound` (absent or not the caller's), `InvalidRequest` (providerPolicyId
     * missing for ATTACH, or given for CREATE).
     */
    const create = (input: CreatePolicyInput) =>
      Effect.gen(function*() {
        if (!(yield* dieOnStorageFailure(wallets.ownsWallet({ id: input.walletId, accountId: input.accountId })))) {
          return yield* new WalletNotFound({ detail: `No wallet ${input.walletId}.` })
        }
        const attach = input.providerPolicyId ?? null
        if ((input.phase === "ATTACH") !== (attach !== null)) {
          const detail = input.phase === "ATTACH"
            ? "is required with phase ATTACH (the provider policy to attach)"
            : "must be absent or null with phase CREATE"
          return yield* new InvalidRequest({
            detail: `providerPolicyId ${detail}.`,
            errors: [{ in: "body", pointer: "/providerPolicyId", detail }]
          })
        }
        const at = yield* now
        const id = yield* ids.next
        yield* dieOnStorageFailure(repo.insertPolicy({
          id,
          walletId: input.walletId,
          phase: input.phase,
          provider: provider.name,
          candidateProviderPolicyId: attach,
          rules: input.rules,
          challengeExpiresAt: new Date(at.getTime() + PolicyCancellationWindowMs),
          at
        }))
        // in this transaction: a rolled-back creation starts nothing (layers/Engine.ts)
        yield* WalletPolicyProvisionWorkflow.execute({ policyId: id }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine),
          Effect.orDie
        )
        return yield* dieOnStorageFailure(wallets.findPolicy(id)).pipe(Effect.flatMap(Effect.orDie))
      })

    /**
     * Wallets_GetWalletPolicy: a policy of one of the caller's wallets. Fails with
     * `WalletPolicyNotFound` (absent or not the caller's).
     */
    const get = (input: { readonly policyId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const access = yield* dieOnStorageFailure(wallets.policyAccess({ id: input.policyId, accountId: input.accountId }))
        if (Option.isNone(access)) return yield* new WalletPolicyNotFound({ detail: `No wallet policy ${input.policyId}.` })
        return yield* dieOnStorageFailure(wallets.findPolicy(input.policyId)).pipe(Effect.flatMap(Effect.orDie))
      })

    return { create, get }
  }),
  dependencies: [WalletPoliciesRepo.Default, WalletsRepo.Default]
}) {}
