/**
 * The webhook subscription operations of the Workspaces group (docs/webhooks.md), added to
 * `WorkspacesApi`: Workspaces_CreateWebhookSubscription, Workspaces_ListWebhookSubscriptions,
 * Workspaces_DeleteWebhookSubscription, Workspaces_RotateWebhookSecret,
 * Workspaces_ListWebhookDeliveries.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data, Page } from "../../../schema/envelope.js"
import {
  Conflict,
  InvalidCursor,
  InvalidState,
  OutboundTargetRefused,
  PolicyLocked,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { access } from "../members/Api.js"
import { WebhookSubscriptionNotFound } from "./Errors.js"
import {
  CreateWebhookSubscriptionRequest,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookListQuery,
  WebhookSubscription,
  WebhookSubscriptionVersionRequest,
  WebhookSubscriptionWithSecret
} from "./Schemas.js"

const WorkspacePath = Schema.Struct({ workspacePublicId: Uuid })
const SubscriptionPath = Schema.Struct({ workspacePublicId: Uuid, subscriptionId: Uuid })
const signing = "Deliveries follow the Standard Webhooks specification: a JSON body `{type, timestamp, data}` and the " +
  "headers `webhook-id` (the event's id, the same on every attempt), `webhook-timestamp` and `webhook-signature` " +
  "(`v1,<HMAC-SHA256>` with the subscription's secret); see docs/webhooks.md for the event kinds and retries."

/** POST /api/v1/workspaces/{workspacePublicId}/webhooks. */
export const createWebhookSubscription = HttpApiEndpoint.post(
  "createWebhookSubscription",
  "/api/v1/workspaces/:workspacePublicId/webhooks"
)
  .setPath(WorkspacePath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(CreateWebhookSubscriptionRequest)
  .addSuccess(Data(WebhookSubscriptionWithSecret), { status: 201 })
  .pipe(
    operation({
      id: "Workspaces_CreateWebhookSubscription",
      permission: "webhooks.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 500, 503],
      summary: "Subscribe an https endpoint to the workspace's events",
      description: "Creates an ACTIVE subscription of `url` to `eventKinds` (`<family>.*` or exact kinds; families " +
        "order, payment, entitlement, run, bounty, import, invitation) and returns it with its signing `secret` " +
        "(`whsec_…`), shown only now. The URL must be https and pass the outbound rules (400 " +
        "`outbound-target-refused` naming `/url`). " + signing + " " + access,
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, OutboundTargetRefused]
    })
  )

/** GET /api/v1/workspaces/{workspacePublicId}/webhooks. */
export const listWebhookSubscriptions = HttpApiEndpoint.get(
  "listWebhookSubscriptions",
  "/api/v1/workspaces/:workspacePublicId/webhooks"
)
  .setPath(WorkspacePath)
  .setUrlParams(WebhookListQuery)
  .addSuccess(Page(WebhookSubscription, 100))
  .pipe(
    operation({
      id: "Workspaces_ListWebhookSubscriptions",
      permission: "webhooks.manage",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 409, 423, 500, 503],
      summary: "The workspace's webhook subscriptions (cursor pages, newest first)",
      description: "Every subscription not deleted, ACTIVE or DISABLED (`disabledReason` `failing`: every delivery " +
        "failed for three days), newest first, without secrets. Pass `nextCursor` back as `cursor` (signed and bound " +
        "to this workspace and caller; any other: 400 `invalid-cursor`). " + access,
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, InvalidCursor]
    })
  )

/** DELETE /api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}. */
export const deleteWebhookSubscription = HttpApiEndpoint.del(
  "deleteWebhookSubscription",
  "/api/v1/workspaces/:workspacePublicId/webhooks/:subscriptionId"
)
  .setPath(SubscriptionPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(WebhookSubscriptionVersionRequest)
  .addSuccess(Data(WebhookSubscription))
  .pipe(
    operation({
      id: "Workspaces_DeleteWebhookSubscription",
      permission: "webhooks.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 500, 503],
      summary: "Delete a webhook subscription at the version you read",
      description: "The subscription takes no more events and its PENDING deliveries are CANCELLED; its delivery " +
        "history is kept. Returns the subscription as deleted (its last `version`). Body: `expectedVersion` (any other: 409 `version-conflict`). An unknown or deleted " +
        "subscription is 404 `webhook-subscription-not-found`. " + access,
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, WebhookSubscriptionNotFound, VersionConflict, Conflict]
    })
  )

/** POST /api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}/rotate-secret. */
export const rotateWebhookSecret = HttpApiEndpoint.post(
  "rotateWebhookSecret",
  "/api/v1/workspaces/:workspacePublicId/webhooks/:subscriptionId/rotate-secret"
)
  .setPath(SubscriptionPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(WebhookSubscriptionVersionRequest)
  .addSuccess(Data(WebhookSubscriptionWithSecret))
  .pipe(
    operation({
      id: "Workspaces_RotateWebhookSecret",
      permission: "webhooks.manage",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 423, 500, 503],
      summary: "Give a webhook subscription a new signing secret; the old one keeps signing for 24 hours",
      description: "Returns the subscription with its new `secret`, shown only now. For 24 hours " +
        "(`previousSecretValidUntil`) every delivery carries two signatures in `webhook-signature`, with the new and " +
        "the previous secret, so a receiver can switch at its pace. Body: `expectedVersion` (any other: 409 " +
        "`version-conflict`). " + access,
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, WebhookSubscriptionNotFound, VersionConflict, Conflict]
    })
  )

/** GET /api/v1/workspaces/{workspacePublicId}/webhooks/{subscriptionId}/deliveries. */
export const listWebhookDeliveries = HttpApiEndpoint.get(
  "listWebhookDeliveries",
  "/api/v1/workspaces/:workspacePublicId/webhooks/:subscriptionId/deliveries"
)
  .setPath(SubscriptionPath)
  .setUrlParams(WebhookDeliveriesQuery)
  .addSuccess(Page(WebhookDelivery, 100))
  .pipe(
    operation({
      id: "Workspaces_ListWebhookDeliveries",
      permission: "webhooks.manage",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 409, 423, 500, 503],
      summary: "A webhook subscription's deliveries (cursor pages, newest first)",
      description: "One entry per event sent to the subscription: PENDING (with `nextAttemptAt`), DELIVERED, FAILED " +
        "after its last attempt, or CANCELLED (the subscription was deleted or disabled); attempts, the last status " +
        "and error code. Optional `state` filter. " + access,
      errors: [WorkspaceNotFound, RoleRequired, PolicyLocked, InvalidState, WebhookSubscriptionNotFound, InvalidCursor]
    })
  )
