/** Procurement area contract (spec §4.3): procurement intents of an agent. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { ProcurementIntent, ResumeProcurementIntentRequest } from "../../schema/procurement.js"
import { operation } from "./operation.js"

export class ProcurementApi extends HttpApiGroup.make("Procurement")
  .add(
    HttpApiEndpoint.post(
      "resumeProcurementIntent",
      "/api/v1/agents/:entityPublicId/procurement/intents/:intentPublicId/resume"
    )
      .setPath(Schema.Struct({ entityPublicId: Uuid, intentPublicId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ResumeProcurementIntentRequest)
      .addSuccess(Data(ProcurementIntent), { status: 202 })
      .pipe(
        operation({
          id: "Procurement_ResumeProcurementIntent",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "Resume a procurement intent that waits for the buyer"
        })
      )
  )
  .annotate(OpenApi.Description, "Procurement: procurement intents")
{}
