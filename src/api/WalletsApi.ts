/** Wallets area contract (spec §4.3): wallet policies and wallet public profiles. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { CancelWalletPolicyRequest, WalletPolicy, WalletPublicProfile } from "../../schema/wallets.js"
import { operation } from "./operation.js"

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
          description: "Cancel a wallet policy of one of your wallets, confirmed with the phrase CANCEL <policyId>"
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
          description: "The public profile configuration of one of your wallets, or null when it has none"
        })
      )
  )
  .annotate(OpenApi.Description, "Wallets: wallet policies and wallet public profiles")
{}
