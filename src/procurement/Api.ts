/** Procurement area contract (spec §4.3): procurement intents of an agent. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { ProcurementIntent, ResumeProcurementIntentRequest } from "../../schema/procurement.js"
import { operation } from "../api/operation.js"
import { InvalidState, RoleRequired } from "../../schema/errors.js"
import { IntentExpired, ProcurementIntentNotFound, ProcurementProviderMissing, ProviderUnavailable } from "./Errors.js"

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
          permission: "procurement.manage",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500],
          summary: "Resume a procurement intent that waits for the buyer",
          description: "Hands an intent that waits for the buyer (state AWAITING_BUYER, e.g. after the buyer completed " +
            "the continuation at its `actionUrl`) back to the procurement provider configured for the agent, and answers " +
            "202 with the intent: INSTRUMENT_ISSUED with the issued `instrument` and `continuation` null, or, when the " +
            "provider needs one more buyer step (the previous continuation expired), still AWAITING_BUYER with a new " +
            "`continuation`. The body is the empty object `{}`; any member is 400.\n\n" +
            "Rules, checked in this order: the intent must belong to the agent in the path and to one of the caller's " +
            "workspaces (404 `procurement-intent-not-found`); the caller needs the OWNER, ADMIN, BILLING or OPERATOR role " +
            "(403 `role-required`); an intent in state EXPIRED or past its `expiresAt` is 409 `intent-expired`; any state " +
            "but AWAITING_BUYER is 409 `invalid-state`; an agent without a configured provider (or with one this " +
            "deployment has no adapter for) is 422 `procurement-provider-missing` (configuration missing). A failing " +
            "provider is 500 `provider-unavailable` with `Retry-After` (the operation lists no 503). Concurrent resumes of " +
            "one intent run one after another: one issues the instrument, the others get 409 `invalid-state`.",
          errors: [ProcurementIntentNotFound, RoleRequired, IntentExpired, InvalidState, ProcurementProviderMissing, ProviderUnavailable]
        })
      )
  )
  .annotate(OpenApi.Description, "Procurement: procurement intents")
{}
