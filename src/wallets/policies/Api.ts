/**
 * Wallets area contract, wallet policies (spec §2.8, §3, §4.3): creation (with its provisioning on
 * the custody provider) and reading; cancellation is Wallets_CancelWalletPolicy (src/wallets/Api.ts).
 * Its own group (tag "Wallets" through `OpenApi.Title`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { InvalidRequest } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { WalletNotFound, WalletPolicyNotFound } from "../Errors.js"
import { CreateWalletPolicyRequest, WalletPolicy } from "../Schemas.js"

const states = "States: PREPARED → DISPATCHING (sent to the custody provider) → OBSERVING (the provider's candidate " +
  "`candidateProviderPolicyId` known) → COMPLETE (`providerPolicyId`, `completedAt`); MANUAL_REVIEW with `failureCode` " +
  "when the provider refuses (`PROVIDER_POLICY_UNKNOWN`) or does not answer in time (`PROVIDER_TIMEOUT`); CANCELLED by " +
  "Wallets_CancelWalletPolicy. Each move is version + 1."

export class WalletPoliciesApi extends HttpApiGroup.make("WalletPolicies")
  .add(
    HttpApiEndpoint.post("createWalletPolicy", "/api/v1/wallets/:walletPublicId/policies")
      .setPath(Schema.Struct({ walletPublicId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateWalletPolicyRequest)
      .addSuccess(Data(WalletPolicy), { status: 202 })
      .pipe(
        operation({
          id: "Wallets_CreateWalletPolicy",
          auth: "required-user",
          cache: "none",
          // custody (spec §5.2): needs a recent sign-in
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create a policy of one of your wallets: what the platform's signer may sign from it",
          description: [
            "Creates a policy of one of the caller's wallets, PREPARED at version 1, and puts it in force on the custody",
            "provider in the background (202). `phase` CREATE makes a new provider policy; ATTACH attaches the provider",
            "policy `providerPolicyId` (required for ATTACH, refused for CREATE: 400 naming it). The built-in provider",
            "(`signer`, the platform's own signer) accepts CREATE as `signer:<policyId>` and ATTACH of the `providerPolicyId`",
            "of a COMPLETE policy of the same wallet; any other ATTACH → MANUAL_REVIEW `PROVIDER_POLICY_UNKNOWN`. " + states,
            "",
            "`rules` (each optional; absent or null does not restrict): `allowedNetworks` (CAIP-2 ids), `allowedContracts`",
            "(addresses), `allowedMethods` (4-byte selectors `0xa9059cbb` or signatures `transfer(address,uint256)`),",
            "`perTransactionLimit` and `perDayLimit` (units, decimal strings). A transaction's units are its native value plus,",
            "for ERC-20 `transfer`, `transferFrom` and `approve`, the amount argument; the day is the last 24 hours of the",
            "wallet's SUBMITTED, OBSERVED and CONFIRMED intents plus the one being signed.",
            "",
            "Enforcement: before the platform's signer signs a transaction intent whose sender is a wallet on the intent's",
            "network, the wallet's latest COMPLETE policy is checked; a refusal is 422 `policy-violation` naming the rule",
            "(`network-not-allowed`, `contract-not-allowed`, `method-not-allowed`, `per-transaction-limit`, `per-day-limit`).",
            "A wallet without a COMPLETE policy is not restricted.",
            "",
            "The policy's cancellation challenge is valid for 7 days. A wallet the caller does not own (a workspace role does",
            "not count) or an unknown id → 404 `wallet-not-found`. Custody action (spec §5.2): needs a sign-in within",
            "`RECENT_AUTH_SECONDS` → else 403 `reauthentication-required`."
          ].join("\n"),
          errors: [WalletNotFound, InvalidRequest]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getWalletPolicy", "/api/v1/wallet-policies/:policyId")
      .setPath(Schema.Struct({ policyId: Uuid }))
      .addSuccess(Data(WalletPolicy))
      .pipe(
        operation({
          id: "Wallets_GetWalletPolicy",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "A policy of one of your wallets, with its state",
          description: "A policy of one of the caller's wallets (spec §2.8). " + states + " A policy of a wallet the " +
            "caller does not own, or an unknown id → 404 `wallet-policy-not-found`.",
          errors: [WalletPolicyNotFound]
        })
      )
  )
  .annotate(OpenApi.Title, "Wallets")
  .annotate(OpenApi.Description, "Wallets: wallet policies, put in force on a custody provider")
{}
