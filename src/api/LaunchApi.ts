/** Launch area contract (spec §4.3): launch runs. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { LaunchRun, MaterializeLaunchTransactionRequest } from "../../schema/launch.js"
import { operation } from "./operation.js"

export class LaunchApi extends HttpApiGroup.make("Launch")
  .add(
    HttpApiEndpoint.post("materializeLaunchTransaction", "/api/v1/launch-runs/:runId/transaction-intent")
      .setPath(Schema.Struct({ runId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(MaterializeLaunchTransactionRequest)
      .addSuccess(Data(LaunchRun), { status: 202 })
      .pipe(
        operation({
          id: "Launch_MaterializeLaunchTransaction",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create the transaction intent of a launch run (from PREPARING, AWAITING_FUNDING or RETRYABLE_FAILURE)"
        })
      )
  )
  .annotate(OpenApi.Description, "Launch: launch runs that prepare chain transactions")
{}
