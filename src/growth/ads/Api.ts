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
  AdPackage,
  CreateAdPackageRequest,
  CreateAdPackageVersionRequest,
  AdEventReceipt,
  CreateAdCampaignRequest,
  RecordAdEventRequest,
  ReviewAdCampaignRequest,
  ServeAdQuery,
  ServedAd,
  SubmitAdCampaignRequest
} from "./Schemas.js"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { AgentNotFound, ConfirmationMismatch, InvalidRequest, ConfirmationRequired, Conflict, InvalidState, RoleRequired, VersionConflict, WorkspaceNotFound } from "../../../schema/errors.js"
import {
  AdCampaignNotActive,
  AdCampaignNotFound,
  AdPackageCodeTaken,
  AdPackageNotFound,
  AdPackageVersionNotFound,
  AdsPlatformUnset,
  InvalidServingToken,
  OrderInUse,
  OrderNotEligible,
  ServingTokenExpired
} from "./Errors.js"

const CampaignList = Data(Schema.Array(AdCampaign))

const packageShape = "A package is `{id, code, name, placementKind, offerId, versions, createdAt}`; each version " +
  "`{id, version, priceUnits, assetPublicId, assetSymbol, assetDecimals, assetCaip19, networkPublicId, networkCaip2, " +
  "durationDays, offerPriceId, createdAt}`: `priceUnits` is the price in minor units of the asset (a decimal string), " +
  "`durationDays` the run length of a campaign of it, and `offerPriceId` (a price of the offer `offerId`) what " +
  "Commerce_CreateOrder orders it by; the order's `productCode` is the package's `code`."

const campaignShape = "Each campaign carries its package (`packageName`, `placementKind`), its current creative, its " +
  "targets and its metrics (`impressions`, `clicks`, `uniqueVisitors`: decimal strings). Newest first (at most 500)."

export class AdsApi extends HttpApiGroup.make("Ads")
  .add(
    HttpApiEndpoint.get("listAdPackages", "/api/v1/ads/packages")
      .addSuccess(Data(Schema.Array(AdPackage)))
      .pipe(
        operation({
          id: "Growth_ListAdPackages",
          auth: "public",
          cache: "none",
          scopes: ["public:read"],
          cost: 1,
          statuses: [400, 401, 403, 500, 503],
          summary: "List the ad packages for sale, with the offer price to order each version by",
          description: [
            "The ad packages on sale, by `code`: those whose offer (a PUBLISHED offer of the platform's workspace) is",
            "made, each with its versions whose offer price is in effect now, newest first. " + packageShape,
            "To buy one: Commerce_CreateOrder with `offerPriceId`, pay it on any rail, then Growth_CreateAdCampaign with",
            "the order and the version's `id` as `packageVersionId`. Public (anonymous, or an API key with",
            "`public:read`); takes no parameters."
          ].join("\n")
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createAdPackage", "/api/v1/admin/ads/packages")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateAdPackageRequest)
      .addSuccess(Data(AdPackage), { status: 201 })
      .pipe(
        operation({
          id: "Growth_CreateAdPackage",
          auth: "required-admin",
          cache: "none",
          cost: 1,
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create an ad package with its first version, for sale at once (admin)",
          description: [
            "Creates the ad package `code` (its orders' product code: an uppercase letter then 2-63 uppercase letters,",
            "digits or underscores), `name` (2-160) and `placementKind` (STRIP, SQUARE, POPUP or INLINE) with its version",
            "1: `priceUnits` (minor units of the asset `assetPublicId`, a decimal string) for a run of `durationDays`",
            "(1-3660). In the same transaction the package gets its offer in the platform's workspace",
            "(`ADS_PLATFORM_WORKSPACE_ID`): PUBLISHED, with terms revision 1 and the version's price (in effect from now),",
            "so it is listed by Growth_ListAdPackages and can be ordered at once. Answers 201 with the package.",
            "",
            "Admin only, with a recent sign-in or MFA (sensitive); audit `ad_package.created` in the platform's",
            "workspace. 400 `invalid-request` (`/assetPublicId` must be a known asset); 409 `ad-package-code-taken`;",
            "409 `ads-platform-unset` when no platform workspace is set. " + packageShape
          ].join("\n"),
          errors: [InvalidRequest, AdsPlatformUnset, AdPackageCodeTaken, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createAdPackageVersion", "/api/v1/admin/ads/packages/:packageId/versions")
      .setPath(Schema.Struct({ packageId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateAdPackageVersionRequest)
      .addSuccess(Data(AdPackage), { status: 201 })
      .pipe(
        operation({
          id: "Growth_CreateAdPackageVersion",
          auth: "required-admin",
          cache: "none",
          cost: 1,
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Add the next version of an ad package: a new price or run length, for sale at once (admin)",
          description: [
            "Adds version `expectedVersion + 1` of the package: `priceUnits` of the asset `assetPublicId` for a run of",
            "`durationDays` (1-3660). `expectedVersion` is the package's newest version as read (else 409",
            "`version-conflict`). In the same transaction the version gets its price of the package's offer, in effect",
            "from now; earlier versions stay on sale (a campaign runs for the version its order bought). Answers 201",
            "with the package.",
            "",
            "Admin only, with a recent sign-in or MFA (sensitive); audit `ad_package.version_created` in the platform's",
            "workspace. 404 `ad-package-not-found`; 400 `invalid-request` (`/assetPublicId` must be a known asset); 409",
            "`ads-platform-unset` when no platform workspace is set. " + packageShape
          ].join("\n"),
          errors: [InvalidRequest, AdsPlatformUnset, AdPackageNotFound, VersionConflict, Conflict]
        })
      )
  )
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
    HttpApiEndpoint.post("submitAdCampaign", "/api/v1/ads/campaigns/:campaignId/submit")
      .setPath(Schema.Struct({ campaignId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(SubmitAdCampaignRequest)
      .addSuccess(Data(AdCampaign))
      .pipe(
        operation({
          id: "Growth_SubmitAdCampaign",
          permission: "ads.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Submit a draft ad campaign for review",
          description: [
            "Moves a campaign from DRAFT (or PAYMENT_PENDING, once its order has been paid) to SUBMITTED, where an admin",
            "reviews it (Growth_ReviewAdCampaign); `expectedVersion` is the campaign's version as read (version + 1).",
            "",
            "`creative`, when given, becomes the campaign's next creative revision; without it the current creative (the",
            "TEXT one made from the create request's `headline` and `body`) is submitted. The submitted creative is READY.",
            "A TEXT creative is `{kind: TEXT, headline (2-160), body (0-1000 or null)}`; an IMAGE creative names an image",
            "kept elsewhere, `{kind: IMAGE, url (http(s), max 2000), mediaType (image/png, image/jpeg, image/gif,",
            "image/webp), widthPixels, heightPixels (1-10000), sizeBytes (1-10000000), sha256 (64 lowercase hex digits),",
            "altText (1-300)}`: the URL becomes the creative's `storageRef`. There is no upload of the image itself.",
            "",
            "The campaign must be funded by a paid order (PAID, FULFILLMENT_PENDING or ACTIVE; else 409",
            "`order-not-eligible`). The caller needs the OWNER, ADMIN or EDITOR role in the campaign's workspace; a campaign",
            "outside the caller's workspaces is not found. Checks in order: 404 `ad-campaign-not-found`, 403",
            "`role-required`, 409 `version-conflict`, 409 `invalid-state`, 409 `order-not-eligible`."
          ].join("\n"),
          errors: [AdCampaignNotFound, RoleRequired, VersionConflict, InvalidState, OrderNotEligible, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("serveAd", "/api/v1/ads/serve")
      .setUrlParams(ServeAdQuery)
      .addSuccess(Data(Schema.NullOr(ServedAd)))
      .pipe(
        operation({
          id: "Growth_ServeAd",
          auth: "public",
          cache: "none",
          scopes: ["public:read"],
          cost: 1,
          statuses: [400, 401, 403, 500, 503],
          summary: "Pick the ad to show in a placement, with its serving token",
          description: [
            "Picks an ad for a placement (`placement`: STRIP, SQUARE, POPUP or INLINE) from the campaigns that are",
            "ACTIVE now (between `startAt` and `endAt`), whose package has that placement kind and whose current",
            "creative is APPROVED, and whose targets allow the page: `network`, `protocol`, `page`, `country` and",
            "`language` (each 1-200 characters, optional) are compared, case-insensitively, with the targets of the",
            "same dimension. A campaign is left out when an exclude target equals the page's value, or when it has",
            "include targets for a dimension and the page's value is missing or none of them; a campaign without",
            "targets fits any page. Of those that fit, the one with the fewest impressions so far is served (then the",
            "earliest start).",
            "",
            "`data` is the ad: its campaign, placement kind, destination, creative, and a serving `token` (valid one",
            "hour, `tokenExpiresAt`) naming the campaign, the placement kind and the `visitor`, to send with",
            "Growth_RecordAdEvent when the ad is shown (IMPRESSION) and followed (CLICK). `visitor` is an opaque id of",
            "the viewer chosen by the caller (1-200 of letters, digits, `_.:-`; never an account id) so that repeat",
            "impressions count once in `uniqueVisitors`; without one a new id is made and returned: send it next time.",
            "When no campaign fits, `data` is null (200). Serving counts nothing: only recorded events do."
          ].join("\n")
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
