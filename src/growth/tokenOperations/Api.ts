/**
 * Growth area contract, admin token operations (spec §2.13, §4.2). Its own group
 * (identifier `TokenOperations`) published under the OpenAPI tag `Growth`, beside the
 * ad-campaign group of the same tag.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { TokenOperationList } from "./Schemas.js"
import { operation } from "../../api/operation.js"

export class TokenOperationsApi extends HttpApiGroup.make("TokenOperations")
  .add(
    HttpApiEndpoint.get("listAdminTokenOperations", "/api/v1/admin/token-operations")
      .addSuccess(TokenOperationList)
      .pipe(
        operation({
          id: "Growth_ListAdminTokenOperations",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "List token operations (admin)",
          description: "Every token operation (buybacks, burns, rewards, allocations, distributions, commission payouts, " +
            "treasury transfers, liquidity), newest request first (at most 500), with its network, asset, units (decimal " +
            "strings of chain units), approval and reconciliation times and failure code. `asOf` is the instant the list " +
            "was read. Admin only; takes no parameters."
        })
      )
  )
  .annotate(OpenApi.Title, "Growth")
  .annotate(OpenApi.Description, "Growth: ad campaigns, ad events and token operations")
{}
