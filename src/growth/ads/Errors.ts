/**
 * The problem causes of Ad campaigns and ad serving (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../../schema/problem.js"

/** 404 `ad-campaign-not-found`: no such ad campaign (or, for a user, none of the caller's workspaces). */
export class AdCampaignNotFound extends Problem<AdCampaignNotFound>()("AdCampaignNotFound", {
  status: 404, type: "ad-campaign-not-found", meaning: "no such ad campaign (or, for a user, none of the caller's workspaces)"
}) {}
/** 404 `ad-package-version-not-found`: no such ad package version. */
export class AdPackageVersionNotFound extends Problem<AdPackageVersionNotFound>()("AdPackageVersionNotFound", {
  status: 404, type: "ad-package-version-not-found", meaning: "no such ad package version"
}) {}
/** 409 `order-not-eligible`: the order is not a paid order of the workspace for this ad package. */
export class OrderNotEligible extends Problem<OrderNotEligible>()("OrderNotEligible", {
  status: 409, type: "order-not-eligible", meaning: "the order is not a paid order of the workspace for this ad package"
}) {}
/** 409 `order-in-use`: the order already funds another ad campaign. */
export class OrderInUse extends Problem<OrderInUse>()("OrderInUse", {
  status: 409, type: "order-in-use", meaning: "the order already funds another ad campaign"
}) {}
/** 400 `invalid-serving-token`: the ad-serving `token` is malformed or its signature is not ours. */
export class InvalidServingToken extends Problem<InvalidServingToken>()("InvalidServingToken", {
  status: 400, type: "invalid-serving-token", meaning: "the ad-serving `token` is malformed or its signature is not ours"
}) {}
/** 400 `serving-token-expired`: the ad-serving `token` has expired; the ad must be served again. */
export class ServingTokenExpired extends Problem<ServingTokenExpired>()("ServingTokenExpired", {
  status: 400, type: "serving-token-expired", meaning: "the ad-serving `token` has expired; the ad must be served again"
}) {}
/** 409 `ad-campaign-not-active`: the campaign records no ad events now (not ACTIVE, not started yet, or ended). */
export class AdCampaignNotActive extends Problem<AdCampaignNotActive>()("AdCampaignNotActive", {
  status: 409,
  type: "ad-campaign-not-active",
  meaning: "the campaign records no ad events now: it is not ACTIVE, or its `startAt`..`endAt` window is not open"
}) {}
/** 404 `ad-package-not-found`: no such ad package. */
export class AdPackageNotFound extends Problem<AdPackageNotFound>()("AdPackageNotFound", {
  status: 404, type: "ad-package-not-found", meaning: "no such ad package"
}) {}
/** 409 `ad-package-code-taken`: another ad package has this `code`. */
export class AdPackageCodeTaken extends Problem<AdPackageCodeTaken>()("AdPackageCodeTaken", {
  status: 409, type: "ad-package-code-taken", meaning: "another ad package has this `code`"
}) {}
/** 409 `ads-platform-unset`: no workspace sells ad packages (`ADS_PLATFORM_WORKSPACE_ID` unset or not a workspace). */
export class AdsPlatformUnset extends Problem<AdsPlatformUnset>()("AdsPlatformUnset", {
  status: 409,
  type: "ads-platform-unset",
  meaning: "no workspace sells ad packages: the server's `ADS_PLATFORM_WORKSPACE_ID` is unset or names no workspace"
}) {}
