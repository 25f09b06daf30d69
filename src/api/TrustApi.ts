/** Trust area contract (spec §4.3): agent feedback. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { Feedback, WithdrawFeedbackRequest } from "../../schema/trust.js"
import { operation } from "./operation.js"

export class TrustApi extends HttpApiGroup.make("Trust")
  .add(
    HttpApiEndpoint.post("withdrawFeedback", "/api/v1/feedback/:feedbackId/withdraw")
      .setPath(Schema.Struct({ feedbackId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(WithdrawFeedbackRequest)
      .addSuccess(Data(Feedback))
      .pipe(
        operation({
          id: "Trust_WithdrawFeedback",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "Withdraw your feedback at the revision you saw; it stops counting in the agent's trust figures",
          description: "Withdraw your feedback at the revision you saw; it stops counting in the agent's trust figures"
        })
      )
  )
  .annotate(OpenApi.Description, "Trust: agent feedback")
{}
