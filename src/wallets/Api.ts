/** Wallets area contract (spec §4.3): wallet policies and wallet public profiles. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { CancelWalletPolicyRequest, WalletPolicy, WalletPublicProfile } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { ChallengeExpired, Conflict, InvalidState, ProofInvalid, VersionConflict } from "../../schema/errors.js"
import { WalletNotFound, WalletPolicyNotFound } from "./Errors.js"

export class WalletsApi extends HttpApiGroup.make("Wallets")
  .add(
    HttpApiEndpoint.post("cancelWalletPolicy", "/api/v1/wallet-policies/:policyId/cancel")
      .setPath(Schema.Struct({ policyId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CancelWalletPolicyRequest)
      .addSuccess(Data(WalletPolicy))
      .pipe(
        operation({
          id: "Wallets_CancelWalletPolicy",
          auth: "required-user",
          cache: "none",
          // custody (spec §5.2): needs a recent sign-in
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "Cancel a wallet policy of one of your wallets, confirmed with the phrase CANCEL <policyId>",
          description: "Cancels a policy of one of the caller's wallets: PREPARED, DISPATCHING, OBSERVING or MANUAL_REVIEW " +
            "→ CANCELLED, with `completedAt` and `updatedAt` set to now and `version` + 1; `reason` is kept with the policy. " +
            "COMPLETE and CANCELLED policies cannot be cancelled (409 `invalid-state`).\n\n" +
            "- `expectedVersion` is the version the caller read; any other → 409 `version-conflict` (concurrent " +
            "cancels at one version succeed once).\n" +
            "- `confirmation` must be exactly the policy's cancellation phrase `CANCEL <policyId>` (the word CANCEL, one " +
            "space, the policyId in lowercase as the API returns it) → else 422 `proof-invalid`.\n" +
            "- Every policy carries a cancellation challenge issued with it, valid until a stored expiry; after it " +
            "expires, the policy cannot be cancelled through this operation → 410 `challenge-expired` (whatever the phrase), " +
            "and the policy is unchanged.\n" +
            "- Custody action (spec §5.2): needs a sign-in within `RECENT_AUTH_SECONDS` → else 403 " +
            "`reauthentication-required`.\n" +
            "- A policy of a wallet the caller does not own (a workspace role does not count: wallets belong to one " +
            "account) is not found → 404, like an unknown id.\n\n" +
            "Checks in order: 404, 409 `version-conflict`, 409 `invalid-state`, 410, 422. Listed but never produced: none " +
            "(503/500 when the database is unavailable).",
          errors: [WalletPolicyNotFound, VersionConflict, InvalidState, Conflict, ChallengeExpired, ProofInvalid]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getWalletProfileConfiguration", "/api/v1/wallets/:walletPublicId/public-profile")
      .setPath(Schema.Struct({ walletPublicId: Uuid }))
      .addSuccess(Data(Schema.NullOr(WalletPublicProfile)))
      .pipe(
        operation({
          id: "Wallets_GetWalletProfileConfiguration",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "The public profile configuration of one of your wallets, or null when it has none",
          description: "The public profile (spec §2.14) of one of the caller's wallets as its owner configures it, whatever " +
            "its visibility: `ownedByViewer` is true, `followerCount` counts the accounts following it, `following` says " +
            "whether the caller follows it. `data` is null when the wallet has no profile yet. A wallet the caller does not " +
            "own (or an unknown id) → 404 `wallet-not-found`.\n\n" +
            "Produced statuses: 200, 400 (path not a uuid), 401, 404, and 503/500 when the database is unavailable; " +
            "403, 409, 410 and 422 are listed by the spec but this read never produces them.",
          errors: [WalletNotFound]
        })
      )
  )
  .annotate(OpenApi.Description, "Wallets: wallet policies and wallet public profiles")
{}
