/** The problem causes of webhook subscriptions (the shared ones are in `schema/errors.ts`). */
import { Problem } from "../../../schema/problem.js"

/** 404 `webhook-subscription-not-found`: no such subscription in the workspace (or it was deleted). */
export class WebhookSubscriptionNotFound extends Problem<WebhookSubscriptionNotFound>()("WebhookSubscriptionNotFound", {
  status: 404, type: "webhook-subscription-not-found", meaning: "no such webhook subscription in the workspace"
}) {}
