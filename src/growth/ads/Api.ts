/**
 * Growth area contract, ad campaigns and ad events (spec §2.3, §3, §4.2, §6). Its own
 * group (identifier `Ads`) published under the OpenAPI tag `Growth`, beside the token
 * operations group of the same tag.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import {
  AdCampaign,
  AdCampaignReview,
  AdEventReceipt,
  CreateAdCampaignRequest,
  RecordAdEventRequest,
  ReviewAdCampaignRequest
} from "./Schemas.js"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { AgentNotFound, ConfirmationMismatch, ConfirmationRequired, Conflict, InvalidState, RoleRequired, VersionConflict, WorkspaceNotFound } from "../../../schema/errors.js"
import { AdCampaignNotActive, AdCampaignNotFound, AdPackageVersionNotFound, InvalidServingToken, OrderInUse, OrderNotEligible, ServingTokenExpired } from "./Errors.js"

const CampaignList = Data(Schema.Array(AdCampaign))

const campaignShape = "Each campaign carries its package (`packageName`, `placementKind`), its current creative, its " +
  "targets and its metrics (`impressions`, `clicks`, `uniqueVisitors`: decimal strings). Newest first (at most 500)."

export class AdsApi extends HttpApiGroup.make("Ads")
  .add(
    HttpApiEndpoint.get("listAdCampaigns", "/api/v1/ads/campaigns")
      .addSuccess(CampaignList)
      .pipe(
        operation({
          id: "Growth_ListAdCampaigns",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "List the ad campaigns of your workspaces",
          description: "The ad campaigns of every workspace where the caller is an ACTIVE member (any role). " +
            campaignShape + " Takes no parameters."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createAdCampaign", "/api/v1/ads/campaigns")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateAdCampaignRequest)
      .addSuccess(Data(AdCampaign), { status: 201 })
      .pipe(
        operation({
          id: "Growth_CreateAdCampaign",
          permission: "ads.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create an ad campaign from a paid order of an ad package",
          description: [
            "Creates a campaign in the workspace `workspaceId` for the ad package version `packageVersionId`, funded by",
            "the order `orderId`, with a TEXT creative (revision 1, state DRAFT) made of `headline` and `body`, the",
            "`targets` (at most 100; `exclude` defaults to false) and zero metrics. `endAt` is `startAt` plus the package",
            "version's run length. `agentPublicId`, when given, must be an agent of the workspace.",
            "",
            "The order must belong to the workspace, have bought this package (its product code is the package's code)",
            "and be paid, and no other campaign may use it (else 409: `order-not-eligible`, `order-in-use`). The new",
            "campaign's state follows the order: PAID, FULFILLMENT_PENDING or ACTIVE → DRAFT; PAYMENT_OBSERVED (payment",
            "seen, not yet final) → PAYMENT_PENDING; any other order state (CREATED, PAYMENT_PENDING, COMPLETED, EXPIRED,",
            "CANCELLED, REFUND_PENDING, REFUNDED, MANUAL_REVIEW) → 409 `order-not-eligible`.",
            "",
            "The caller needs the OWNER, ADMIN or EDITOR role in the workspace (other roles: 403 `role-required`); a",
            "workspace the caller is not a member of is not found (404), as is an unknown package version."
          ].join("\n"),
          errors: [RoleRequired, WorkspaceNotFound, AdPackageVersionNotFound, AgentNotFound, OrderNotEligible, OrderInUse]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("recordAdEvent", "/api/v1/ads/events")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(RecordAdEventRequest)
      .addSuccess(Data(AdEventReceipt), { status: 202 })
      .pipe(
        operation({
          id: "Growth_RecordAdEvent",
          auth: "public",
          cache: "none",
          scopes: ["public:read"],
          cost: 1,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Record an impression or a click of a served ad",
          description: [
            "`token` is the serving token handed out with the ad: `v1.<claims>.<signature>`, where `claims` (base64url",
            "JSON) names the campaign, the placement it was served into, the visitor (an opaque id) and an expiry, and",
            "`signature` is the base64url HMAC-SHA256 of `v1.<claims>` under the server's ad-serving key. A token that is",
            "malformed, not signed by this server or expired is a 400 (`invalid-serving-token`, `serving-token-expired`);",
            "an unknown campaign is a 404. Only an ACTIVE campaign records events, between its `startAt` and its",
            "`endAt`: any other state (not yet approved, SCHEDULED before its start, PAUSED, COMPLETED after its end, …)",
            "or a time outside that window is a 409 `ad-campaign-not-active`.",
            "",
            "An IMPRESSION adds 1 to `metrics.impressions` (and to `uniqueVisitors` the first time the visitor is seen),",
            "a CLICK adds 1 to `metrics.clicks`, exactly once per Idempotency-Key: a retry with the same key replays the",
            "first answer (with its `requestId`) and counts nothing, also when the retries arrive concurrently. The 202",
            "`data.requestId` is the id of the request that recorded the event."
          ].join("\n"),
          errors: [InvalidServingToken, ServingTokenExpired, AdCampaignNotFound, AdCampaignNotActive]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listAdminAdCampaigns", "/api/v1/admin/ads/campaigns")
      .addSuccess(CampaignList)
      .pipe(
        operation({
          id: "Growth_ListAdminAdCampaigns",
          auth: "required-admin",
          cache: "none",
          cost: 1,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "List every ad campaign (admin)",
          description: "The ad campaigns of every workspace, in every state. " + campaignShape +
            " A review's private decision is never part of a campaign. Admin only; takes no parameters."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("reviewAdCampaign", "/api/v1/admin/ads/campaigns/:campaignId/review")
      .setPath(Schema.Struct({ campaignId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ReviewAdCampaignRequest)
      .addSuccess(Data(AdCampaignReview), { status: 202 })
      .pipe(
        operation({
          id: "Growth_ReviewAdCampaign",
          auth: "required-admin",
          cache: "none",
          cost: 1,
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Preview or apply a review decision on an ad campaign (admin)",
          description: [
            "A two-step command. **Preview** (`dryRun` true, the default) changes nothing and returns `applied: false`,",
            "the campaign as it is and the `confirmation` text to echo (`<decision> <campaignId>`). **Apply** with",
            "`dryRun: false`, that exact `confirmation` and the campaign's current version as `expectedVersion`: the",
            "campaign moves, its version goes up by one, an admin audit record is written and `applied: true` returns",
            "the campaign as it now is. Both steps check `expectedVersion` (409 `version-conflict`) and the move",
            "(409 `invalid-state`).",
            "",
            "Moves: APPROVE from SUBMITTED or UNDER_REVIEW → APPROVED, or SCHEDULED when `startAt` is in the future (the",
            "creative becomes APPROVED); REJECT from SUBMITTED or UNDER_REVIEW → REJECTED (the creative becomes REJECTED);",
            "SUSPEND from APPROVED, SCHEDULED, ACTIVE or PAUSED → SUSPENDED. `decisionCode` and `publicDecision` are kept",
            "with the audit record; `privateDecision` is stored for administrators only and appears in no response.",
            "",
            "Then time moves an approved campaign, within a minute of each instant: APPROVED or SCHEDULED → ACTIVE at",
            "`startAt`, and ACTIVE (or APPROVED, SCHEDULED) → COMPLETED at `endAt`, each move with version + 1 and",
            "`updatedAt` = the move's time."
          ].join("\n"),
          errors: [ConfirmationRequired, ConfirmationMismatch, AdCampaignNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .annotate(OpenApi.Title, "Growth")
  .annotate(OpenApi.Description, "Growth: ad campaigns, ad events and token operations")
{}
