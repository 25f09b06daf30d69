/** Trust area contract (spec §4.3): agent feedback. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { Feedback, WithdrawFeedbackRequest } from "../../schema/trust.js"
import { operation } from "../api/operation.js"
import { Conflict, InvalidState, VersionConflict } from "../../schema/errors.js"
import { AuthorRequired, FeedbackNotFound } from "./Errors.js"

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
          description: "The author withdraws their feedback: PENDING_MODERATION, PUBLISHED or HIDDEN → WITHDRAWN, with " +
            "`revision` + 1 and `updatedAt` = now; `reason` is kept with the feedback. Withdrawn feedback no longer counts " +
            "in the agent's trust figures (only PUBLISHED feedback counts).\n\n" +
            "- `expectedRevision` is the revision the caller read; any other → 409 `version-conflict` (concurrent " +
            "withdrawals at one revision succeed once).\n" +
            "- Feedback already WITHDRAWN → 409 `invalid-state` (withdrawing twice).\n" +
            "- Someone else's feedback: 403 `author-required` when it is PUBLISHED (public, so its existence is no " +
            "secret); otherwise 404 `feedback-not-found`, like an unknown id.\n\n" +
            "Checks in order: 403, 404, 409 `version-conflict`, 409 `invalid-state`. 410 and 422 are listed by the spec " +
            "but never produced (a withdrawal needs no challenge or proof beyond the author's session).",
          errors: [AuthorRequired, FeedbackNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .annotate(OpenApi.Description, "Trust: agent feedback")
{}
