/** Launch area contract (spec §4.3): launch runs. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { LaunchRun, MaterializeLaunchTransactionRequest } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { Conflict, InvalidState, RoleRequired, VersionConflict } from "../../schema/errors.js"
import { LaunchRunNotFound } from "./Errors.js"

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
          permission: "launch.operate",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create the transaction intent of a launch run (from PREPARING, AWAITING_FUNDING or RETRYABLE_FAILURE)",
          description: "Creates the transaction intent the run's wallet must sign and answers 202 with the run: state " +
            "AWAITING_SIGNATURE, `transactionIntentId` set, the steps TRANSACTION_INTENT (COMPLETED) and SIGNATURE (PENDING) " +
            "appended, `version` + 1.\n\n" +
            "Rules (spec §3 shows no transitions; these are the service's): allowed from PREPARING and AWAITING_FUNDING " +
            "(the intent belongs to the current attempt) and from RETRYABLE_FAILURE (a retry: `attemptCount` + 1, " +
            "`failureCode`/`failureSummary` cleared, the failed attempt's intent superseded); any other state is 409 " +
            "`invalid-state`. `expectedVersion` must be the run's current `version` (409 `version-conflict` otherwise; " +
            "of concurrent calls at one version exactly one succeeds). A run has at most one intent per attempt, so a " +
            "second call, whatever its Idempotency-Key, never creates a second intent. The caller needs the OWNER, ADMIN, " +
            "EDITOR or OPERATOR role in the run's workspace (403 `role-required`); a run outside the caller's workspaces " +
            "is 404 `launch-run-not-found`. Checks run in that order: 404, 403, version, state.",
          errors: [LaunchRunNotFound, RoleRequired, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .annotate(OpenApi.Description, "Launch: launch runs that prepare chain transactions")
{}
