/**
 * Domain rules of the Wallets area (spec §2.8, §2.14, §3, §4.3).
 */
import { Effect, Option } from "effect"
import { ChallengeExpired, ProofInvalid } from "../../schema/errors.js"
import { WalletNotFound, WalletPolicyNotFound } from "./Errors.js"
import { CancellableWalletPolicyStates, cancellationPhrase } from "./Schemas.js"
import { now } from "../../layers/Clock.js"
import { explainRefusal } from "../db/versioned.js"
import { WalletsRepo } from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"

/** Input of {@link Wallets.cancelPolicy}. */
export interface CancelPolicyInput {
  readonly policyId: string
  readonly expectedVersion: number
  readonly reason: string
  readonly confirmation: string
  readonly accountId: string
}

/** Wallet policies and profiles of the caller's wallets. Requires `SqlClient`. */
export class Wallets extends Effect.Service<Wallets>()("agent-directory/Wallets", {
  effect: Effect.gen(function*() {
    const repo = yield* WalletsRepo

    /**
     * Wallets_CancelWalletPolicy (spec §4.3): moves a policy of one of the caller's
     * wallets from PREPARED, DISPATCHING, OBSERVING or MANUAL_REVIEW to CANCELLED with
     * `completedAt` = now and `version` + 1, when `expectedVersion` is current, the
     * policy's cancellation challenge has not expired and `confirmation` is exactly
     * `CANCEL <policyId>`. One conditional UPDATE: concurrent cancels at one version
     * succeed once. Returns the policy (spec §2.8).
     *
     * Fails, in this order, with `WalletPolicyNotFound` (`wallet-policy-not-found`: absent or not the
     * caller's wallet), `VersionConflict` (`version-conflict`, then `invalid-state` for COMPLETE
     * or CANCELLED), `ChallengeExpired` (`challenge-expired`), `ProofInvalid` (`proof-invalid`),
     * `Conflict` (`conflict`: changed between the update and the re-read).
     */
    const cancelPolicy = (input: CancelPolicyInput) =>
      Effect.gen(function*() {
        const at = yield* now
        const proofValid = input.confirmation === cancellationPhrase(input.policyId)
        const changed = proofValid
          ? yield* repo.cancelPolicy({
            id: input.policyId,
            expectedVersion: input.expectedVersion,
            accountId: input.accountId,
            reason: input.reason,
            at
          })
          : Option.none()
        if (Option.isNone(changed)) {
          return yield* explainRefusal({
            resource: "wallet-policy",
            id: input.policyId,
            notFound: (detail) => new WalletPolicyNotFound({ detail }),
            current: yield* repo.policyAccess({ id: input.policyId, accountId: input.accountId }),
            expectedVersion: input.expectedVersion,
            fromStates: CancellableWalletPolicyStates,
            otherwise: (policy): Option.Option<ChallengeExpired | ProofInvalid> =>
              policy.challengeExpiresAt.getTime() <= at.getTime()
                ? Option.some(new ChallengeExpired({
                  detail: "The policy's cancellation challenge has expired; the policy was not changed."
                }))
                : proofValid
                ? Option.none()
                : Option.some(new ProofInvalid({
                  detail: "confirmation must be exactly the policy's cancellation phrase: CANCEL, one space, the policyId."
                }))
          })
        }
        return yield* repo.findPolicy(input.policyId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    /**
     * Wallets_GetWalletProfileConfiguration (spec §4.3, §2.14): the public profile of
     * one of the caller's wallets, or null when the wallet has none. Fails with
     * `WalletNotFound` (`wallet-not-found`: absent or not the caller's).
     */
    const profileConfiguration = (input: { readonly walletId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        if (!(yield* repo.ownsWallet({ id: input.walletId, accountId: input.accountId }))) {
          return yield* new WalletNotFound({ detail: `No wallet ${input.walletId}.` })
        }
        const profile = yield* repo.findProfile({ walletId: input.walletId, viewer: input.accountId })
        return Option.getOrNull(profile)
      }).pipe(dieOnStorageFailure)

    return { cancelPolicy, profileConfiguration }
  }),
  dependencies: [WalletsRepo.Default]
}) {}
