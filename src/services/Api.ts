/** Services area contract (spec §4.3): service offers. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { PublishServiceOfferRequest, ServiceOffer } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { Conflict, InvalidState, RoleRequired, VersionConflict } from "../../schema/errors.js"
import { OfferIncomplete, OfferNotFound } from "./Errors.js"

export class ServicesApi extends HttpApiGroup.make("Services")
  .add(
    HttpApiEndpoint.post("publishServiceOffer", "/api/v1/offers/:offerId/publish")
      .setPath(Schema.Struct({ offerId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(PublishServiceOfferRequest)
      .addSuccess(Data(ServiceOffer))
      .pipe(
        operation({
          id: "Services_PublishServiceOffer",
          permission: "services.offers.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Publish a service offer (from DRAFT, REVIEW or PAUSED) at the version the caller saw",
          description: "Moves an offer from DRAFT, REVIEW or PAUSED to PUBLISHED, stamping `publishedAt` and " +
            "incrementing `version`. `version` is the version the caller read (optimistic concurrency). The offer " +
            "needs a current price and a " +
            "terms revision. An offer outside the caller's workspaces is not found.",
          errors: [OfferNotFound, RoleRequired, VersionConflict, InvalidState, OfferIncomplete, Conflict]
        })
      )
  )
  .annotate(OpenApi.Description, "Services: service offers")
{}
