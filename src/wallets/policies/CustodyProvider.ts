/**
 * The custody provider of wallet policies (spec §2.8): where a policy is put in force. An adapter
 * interface, so that a provider holding the wallet's keys (an MPC or KMS custodian) can carry
 * policies; the built-in one, `signer`, is the platform's own signer: its policies are enforced by
 * `IntentPolicyLive` (./Enforcement.ts) before the platform signs, so it accepts at once.
 *
 * The provisioning workflow (./ProvisionWorkflow.ts) calls `dispatch` once (PREPARED → DISPATCHING →
 * OBSERVING with the candidate id, or MANUAL_REVIEW on a refusal), then `observe` until the provider
 * says the candidate is in force (→ COMPLETE with `providerPolicyId`) or refuses it (→ MANUAL_REVIEW).
 */
import type { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import type { PolicyForProvisioning } from "./Repo.js"
import { WalletPoliciesRepo } from "./Repo.js"

/** A provider's answer to a dispatch: the candidate policy id, or a refusal code (≤ 100 chars). */
export type DispatchResult =
  | { readonly _tag: "Accepted"; readonly candidateProviderPolicyId: string }
  | { readonly _tag: "Refused"; readonly failureCode: string }

/** A provider's view of a candidate: in force (its id), not yet, or refused. */
export type ObserveResult =
  | { readonly _tag: "Active"; readonly providerPolicyId: string }
  | { readonly _tag: "Pending" }
  | { readonly _tag: "Refused"; readonly failureCode: string }

/** One custody provider. Its effects run in a workflow activity (retried on a database failure). */
export interface CustodyProviderShape {
  /** The provider's name, stored with each policy (`wallet_policies.provider`). */
  readonly name: string
  /**
   * Sends the policy to the provider: CREATE a new provider policy with the rules, or ATTACH
   * the provider policy `candidateProviderPolicyId` named in the request.
   */
  readonly dispatch: (policy: PolicyForProvisioning) => Effect.Effect<DispatchResult, never, SqlClient.SqlClient>
  /** Whether the provider has the candidate in force. */
  readonly observe: (
    policy: PolicyForProvisioning & { readonly candidateProviderPolicyId: string }
  ) => Effect.Effect<ObserveResult, never, SqlClient.SqlClient>
}

/** The custody provider that carries new policies. */
export class CustodyProvider extends Context.Tag("agent-directory/CustodyProvider")<CustodyProvider, CustodyProviderShape>() {}

/** The built-in provider's name. */
export const SignerProvider = "signer"

/** The built-in provider's id of a policy it created: `signer:<policyId>`. */
export const signerPolicyId = (policyId: string) => `${SignerProvider}:${policyId}`

/**
 * The built-in provider, "enforced by our signer": CREATE is accepted as `signer:<policyId>`;
 * ATTACH is accepted when it names the provider id of a COMPLETE `signer` policy of the same
 * wallet (the rules of the new policy then apply), else refused `PROVIDER_POLICY_UNKNOWN`. A
 * candidate is in force as soon as it is observed. Dies on a storage failure (the activity retries).
 */
export const SignerCustodyLive = Layer.effect(
  CustodyProvider,
  Effect.map(WalletPoliciesRepo, (repo) =>
    CustodyProvider.of({
      name: SignerProvider,
      dispatch: (policy) =>
        policy.phase === "CREATE"
          ? Effect.succeed({ _tag: "Accepted", candidateProviderPolicyId: signerPolicyId(policy.policyId) })
          : Effect.map(
            policy.candidateProviderPolicyId === null
              ? Effect.succeed(false)
              : repo.hasCompleteProviderPolicy({
                walletId: policy.walletId,
                provider: SignerProvider,
                providerPolicyId: policy.candidateProviderPolicyId
              }).pipe(Effect.orDie),
            (known): DispatchResult =>
              known && policy.candidateProviderPolicyId !== null
                ? { _tag: "Accepted", candidateProviderPolicyId: policy.candidateProviderPolicyId }
                : { _tag: "Refused", failureCode: "PROVIDER_POLICY_UNKNOWN" }
          ),
      observe: (policy) => Effect.succeed({ _tag: "Active", providerPolicyId: policy.candidateProviderPolicyId })
    })
  )
).pipe(Layer.provide(WalletPoliciesRepo.Default))
