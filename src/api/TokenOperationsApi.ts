/**
 * Growth area contract, admin token operations (spec §2.13, §4.2). Its own group
 * (identifier `TokenOperations`) published under the OpenAPI tag `Growth`, beside the
 * ad-campaign group of the same tag.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { TokenOperationList } from "../../schema/tokenOperations.js"
import { operation } from "./operation.js"

export class TokenOperationsApi extends HttpApiGroup.make("TokenOperations")
  .add(
    HttpApiEndpoint.get("listAdminTokenOperations", "/api/v1/admin/token-operations")
      .addSuccess(TokenOperationList)
      .annotate(
        OpenApi.Description,
        "Every token operation (buybacks, burns, rewards, allocations, distributions, commission payouts, treasury " +
          "transfers, liquidity), newest request first (at most 500), with its network, asset, units (decimal strings " +
          "of chain units), approval and reconciliation times. `asOf` is the instant the list was read. Admin only: " +
          "401 `unauthenticated` without a session, 403 `admin-required` for a non-admin session. Takes no parameters. " +
          "Example (demo data): `{\"data\":[{\"id\":\"01900090-0000-7000-8000-000000000005\",\"kind\":\"COMMISSION_PAYOUT\"," +
          "\"state\":\"FAILED\",\"network\":\"base\",\"symbol\":\"USDC\",\"decimals\":6,\"units\":\"3300000\"," +
          "\"failureCode\":\"INSUFFICIENT_FUNDS\",…}],\"asOf\":\"2026-06-01T00:00:00.000Z\",\"meta\":{…}}`."
      )
      .pipe(
        operation({
          id: "Growth_ListAdminTokenOperations",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "List token operations (admin)"
        })
      )
  )
  .annotate(OpenApi.Title, "Growth")
  .annotate(OpenApi.Description, "Growth: ad campaigns, ad events and token operations")
{}
