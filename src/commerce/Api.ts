/** Commerce area contract (spec §4.3): orders. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { CommerceOrder } from "./Schemas.js"
import { Data } from "../../schema/envelope.js"
import { operation } from "../api/operation.js"

export class CommerceApi extends HttpApiGroup.make("Commerce")
  .add(
    HttpApiEndpoint.get("listCommerceOrders", "/api/v1/orders")
      .addSuccess(Data(Schema.Array(CommerceOrder)))
      .pipe(
        operation({
          id: "Commerce_ListCommerceOrders",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "List the orders of the caller's workspaces, with payments and entitlements",
          description: "Every order of the workspaces the caller is an active member of, newest first, each with its " +
            "payments and entitlements. Amounts are decimal strings of minor units of the order's asset."
        })
      )
  )
  .annotate(OpenApi.Description, "Commerce: orders, payments and entitlements")
{}
