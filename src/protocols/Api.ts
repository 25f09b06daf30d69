/** Protocols area contract (spec §4.3): the public protocol catalog. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data } from "../../schema/envelope.js"
import { ProtocolCatalog } from "../../schema/protocols.js"
import { operation } from "../api/operation.js"

export class ProtocolsApi extends HttpApiGroup.make("Protocols")
  .add(
    HttpApiEndpoint.get("getProtocolCatalog", "/api/v1/protocols")
      .addSuccess(Data(ProtocolCatalog))
      .pipe(
        operation({
          id: "Protocols_GetProtocolCatalog",
          auth: "public",
          cache: "public-catalog",
          scopes: ["public:read"],
          statuses: [500, 503],
          summary: "The catalog of supported agent protocols",
          description: "The agent protocols the directory supports, with their status and features. Anonymous at low " +
            "volume; a valid API key with `public:read` raises the budget without changing the answer. Cacheable " +
            "publicly for 5 minutes."
        })
      )
  )
  .annotate(OpenApi.Description, "Protocols: the supported agent protocols")
{}
