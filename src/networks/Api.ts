/** Networks area contract: the chains the service is configured for. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Data } from "../../schema/envelope.js"
import { operation } from "../api/operation.js"
import { NetworkItem } from "./Schemas.js"

export class NetworksApi extends HttpApiGroup.make("Networks")
  .add(
    HttpApiEndpoint.get("listNetworks", "/api/v1/networks")
      .addSuccess(Data(Schema.Array(NetworkItem)))
      .pipe(
        operation({
          id: "Networks_ListNetworks",
          auth: "public",
          cache: "public-catalog",
          scopes: ["public:read"],
          statuses: [500, 503],
          summary: "The chains the directory watches",
          description: "Every network the service is configured for (`CHAIN_RPC_URLS`), in CAIP-2 id order: its " +
            "public id, CAIP-2 id, key, family, display name, block explorer and the confirmation depth after which " +
            "a transaction on it counts as CONFIRMED. Anonymous at low volume; a valid API key with `public:read` " +
            "raises the budget without changing the answer. Cacheable publicly for 5 minutes."
        })
      )
  )
  .annotate(OpenApi.Description, "Networks: the chains the directory is configured for and watches")
{}
