/**
 * The problem causes of payment processor webhooks (docs/processor-webhooks.md). Each is one
 * `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/**
 * 401 `webhook-signature-invalid`: the provider is not configured, or the request's signature
 * headers are missing, malformed, do not sign these exact bytes with the provider's secret, or are
 * outside the 300 s tolerance. One identical body whatever the cause (spec §5.1.4, §5.3).
 */
export class WebhookSignatureInvalid extends Problem<WebhookSignatureInvalid>()("WebhookSignatureInvalid", {
  status: 401,
  type: "webhook-signature-invalid",
  meaning: "no configured provider of this name signed these exact bytes within the last 300 s " +
    "(one identical body whatever the cause)"
}) {}

/**
 * 400 `processor-event-invalid`: the body is correctly signed but is not an event of the
 * provider's scheme (a JSON object with the members `errors` names).
 */
export class ProcessorEventInvalid extends Problem<ProcessorEventInvalid>()("ProcessorEventInvalid", {
  status: 400,
  type: "processor-event-invalid",
  meaning: "the signed body is not an event of the provider's scheme; `errors` names each member and rule"
}) {}
