/**
 * Ad campaigns and ad events (spec §2.3, §3, §4.2 Growth): the campaign resource, its
 * creative, targets and metrics, and the request bodies of the ad operations.
 */
import { Schema } from "effect"
import { CountString, DateTimeZ, HttpUrl, rule, StrictStruct, Units, Uuid, Version, WireString } from "../../../schema/common.js"

/** Ad campaign states (spec §3). */
export const AdCampaignState = Schema.Literal(
  "DRAFT",
  "PAYMENT_PENDING",
  "SUBMITTED",
  "UNDER_REVIEW",
  "APPROVED",
  "SCHEDULED",
  "ACTIVE",
  "PAUSED",
  "REJECTED",
  "COMPLETED",
  "CANCELLED",
  "SUSPENDED"
)
export type AdCampaignState = typeof AdCampaignState.Type

/** Ad creative states (spec §3). */
export const AdCreativeState = Schema.Literal("DRAFT", "PROCESSING", "READY", "APPROVED", "REJECTED", "SUSPENDED")
export type AdCreativeState = typeof AdCreativeState.Type

/** Where an ad package's ads are shown (spec §2.3). */
export const PlacementKind = Schema.Literal("STRIP", "SQUARE", "POPUP", "INLINE")
export type PlacementKind = typeof PlacementKind.Type

/** Targeting dimensions (spec §2.3). */
export const TargetDimension = Schema.Literal("NETWORK", "PROTOCOL", "PAGE", "COUNTRY", "LANGUAGE")

/** An ad creative (spec §2.3): TEXT creatives carry headline/body, IMAGE creatives the stored media. */
export const AdCreative = Schema.Struct({
  id: Uuid,
  revision: Schema.Int.pipe(Schema.positive()),
  kind: Schema.Literal("IMAGE", "TEXT"),
  state: AdCreativeState,
  headline: Schema.NullOr(Schema.String),
  body: Schema.NullOr(Schema.String),
  storageRef: Schema.NullOr(Schema.String),
  mediaType: Schema.NullOr(Schema.String),
  widthPixels: Schema.NullOr(Schema.Int),
  heightPixels: Schema.NullOr(Schema.Int),
  sizeBytes: Schema.NullOr(CountString),
  sha256: Schema.NullOr(Schema.String),
  altText: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AdCreative" })

/** One targeting rule (spec §2.3): show (or, with `exclude`, never show) where `dimension` is `value`. */
export const AdTarget = Schema.Struct({
  dimension: TargetDimension,
  value: Schema.String,
  exclude: Schema.Boolean
}).annotations({ identifier: "AdTarget" })

/** Counters of served ads (spec §2.3), decimal strings. */
export const AdMetrics = Schema.Struct({
  impressions: CountString,
  clicks: CountString,
  uniqueVisitors: CountString
}).annotations({ identifier: "AdMetrics" })

/** Ad campaign (spec §2.3). */
export const AdCampaign = Schema.Struct({
  id: Uuid,
  publicId: Uuid,
  workspaceId: Uuid,
  agentPublicId: Schema.NullOr(Uuid),
  orderId: Schema.NullOr(Uuid),
  packageVersionId: Uuid,
  packageName: Schema.String,
  placementKind: PlacementKind,
  name: Schema.String,
  destinationUrl: Schema.String,
  state: AdCampaignState,
  startAt: Schema.NullOr(DateTimeZ),
  endAt: Schema.NullOr(DateTimeZ),
  creative: Schema.NullOr(AdCreative),
  targets: Schema.Array(AdTarget),
  metrics: AdMetrics,
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "AdCampaign" })
export type AdCampaign = typeof AdCampaign.Type

/** Most targets a campaign holds (spec §8). */
export const MaxAdTargets = 100

/** One target of a create request (spec §4.2): `exclude` defaults to false. */
export const AdTargetRequest = StrictStruct({
  dimension: TargetDimension,
  value: WireString(1, 200),
  exclude: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true })
}).annotations({ identifier: "AdTargetRequest" })

/** Body of Growth_CreateAdCampaign (spec §4.2). */
export const CreateAdCampaignRequest = StrictStruct({
  workspaceId: Uuid,
  agentPublicId: Schema.optionalWith(Schema.NullOr(Uuid), { default: () => null, exact: true }),
  orderId: Uuid,
  packageVersionId: Uuid,
  name: WireString(2, 160),
  destinationUrl: HttpUrl(2000),
  startAt: DateTimeZ,
  headline: WireString(2, 160),
  body: Schema.optionalWith(Schema.NullOr(WireString(0, 1000)), { default: () => null, exact: true }),
  targets: Schema.optionalWith(Schema.Array(AdTargetRequest).pipe(Schema.maxItems(MaxAdTargets)), {
    default: () => [],
    exact: true
  })
}).annotations({ identifier: "CreateAdCampaignRequest" })
export type CreateAdCampaignRequest = typeof CreateAdCampaignRequest.Type

/** The kinds of ad event (spec §6). */
export const AdEventKind = Schema.Literal("IMPRESSION", "CLICK")
export type AdEventKind = typeof AdEventKind.Type

/** Body of Growth_RecordAdEvent (spec §4.2): a serving token and what happened. */
export const RecordAdEventRequest = StrictStruct({
  token: WireString(20, 2000),
  kind: AdEventKind
}).annotations({ identifier: "RecordAdEventRequest" })
export type RecordAdEventRequest = typeof RecordAdEventRequest.Type

/** 202 data of Growth_RecordAdEvent (spec §4.2). */
export const AdEventReceipt = Schema.Struct({
  accepted: Schema.Literal(true),
  requestId: Uuid
}).annotations({ identifier: "AdEventReceipt" })

/** An admin's decision on a campaign (spec §4.2). */
export const ReviewDecision = Schema.Literal("APPROVE", "REJECT", "SUSPEND")
export type ReviewDecision = typeof ReviewDecision.Type

/** Body of Growth_ReviewAdCampaign (spec §4.2). */
export const ReviewAdCampaignRequest = StrictStruct({
  decision: ReviewDecision,
  expectedVersion: Version,
  decisionCode: Schema.String.pipe(
    Schema.pattern(/^[A-Z][A-Z0-9_]{2,63}$/),
    Schema.annotations(rule("must be an uppercase letter then 2-63 uppercase letters, digits or underscores"))
  ),
  publicDecision: WireString(10, 2000),
  privateDecision: WireString(10, 4000),
  dryRun: Schema.optionalWith(Schema.Boolean, { default: () => true, exact: true }),
  confirmation: Schema.optionalWith(WireString(0, 500), { exact: true })
}).annotations({ identifier: "ReviewAdCampaignRequest" })
export type ReviewAdCampaignRequest = typeof ReviewAdCampaignRequest.Type

/** 202 data of Growth_ReviewAdCampaign (spec §4.2). */
export const AdCampaignReview = Schema.Struct({
  applied: Schema.Boolean,
  confirmation: Schema.String,
  campaign: AdCampaign
}).annotations({ identifier: "AdCampaignReview" })
export type AdCampaignReview = typeof AdCampaignReview.Type

/** Media types an IMAGE creative may have. */
export const AdImageMediaType = Schema.Literal("image/png", "image/jpeg", "image/gif", "image/webp")

/** A TEXT creative of a submission: the words of the ad. */
export const SubmitTextCreative = StrictStruct({
  kind: Schema.Literal("TEXT"),
  headline: WireString(2, 160),
  body: Schema.optionalWith(Schema.NullOr(WireString(0, 1000)), { default: () => null, exact: true })
}).annotations({ identifier: "SubmitTextCreative" })

/**
 * An IMAGE creative of a submission, by reference: the image stays where `url` points (an
 * absolute http(s) URL, kept as the creative's `storageRef`), described by its media type,
 * size in pixels and bytes and its SHA-256 (64 lowercase hex digits), so a reviewer and a
 * renderer can check they see the bytes that were submitted. There is no upload.
 */
export const SubmitImageCreative = StrictStruct({
  kind: Schema.Literal("IMAGE"),
  url: HttpUrl(2000),
  mediaType: AdImageMediaType,
  widthPixels: Schema.Int.pipe(Schema.between(1, 10000), Schema.annotations(rule("must be an integer from 1 to 10000"))),
  heightPixels: Schema.Int.pipe(Schema.between(1, 10000), Schema.annotations(rule("must be an integer from 1 to 10000"))),
  sizeBytes: Schema.Int.pipe(Schema.between(1, 10_000_000), Schema.annotations(rule("must be an integer from 1 to 10000000"))),
  sha256: Schema.String.pipe(
    Schema.pattern(/^[0-9a-f]{64}$/),
    Schema.annotations(rule("must be 64 lowercase hexadecimal digits"))
  ),
  altText: WireString(1, 300)
}).annotations({ identifier: "SubmitImageCreative" })

/** Body of Growth_SubmitAdCampaign: the version read, and optionally a new creative (else the current one is submitted). */
export const SubmitAdCampaignRequest = StrictStruct({
  expectedVersion: Version,
  creative: Schema.optionalWith(Schema.Union(SubmitTextCreative, SubmitImageCreative), { exact: true })
}).annotations({ identifier: "SubmitAdCampaignRequest" })
export type SubmitAdCampaignRequest = typeof SubmitAdCampaignRequest.Type

/** Query of Growth_ServeAd: the placement to fill and what is known of the page it is shown on. */
export const ServeAdQuery = Schema.Struct({
  placement: PlacementKind,
  page: Schema.optional(WireString(1, 200)),
  network: Schema.optional(WireString(1, 200)),
  protocol: Schema.optional(WireString(1, 200)),
  country: Schema.optional(WireString(1, 200)),
  language: Schema.optional(WireString(1, 200)),
  visitor: Schema.optional(
    Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9_.:-]{1,200}$/),
      Schema.annotations(rule("must be 1-200 letters, digits, '_', '.', ':' or '-'"))
    )
  )
})
export type ServeAdQuery = typeof ServeAdQuery.Type

/** An ad served into a placement (Growth_ServeAd): what to show, where it leads and the token its events carry. */
export const ServedAd = Schema.Struct({
  campaignId: Uuid,
  placementKind: PlacementKind,
  destinationUrl: Schema.String,
  creative: AdCreative,
  /** The serving token for Growth_RecordAdEvent (IMPRESSION when shown, CLICK when followed). */
  token: Schema.String,
  /** Until when `token` records events. */
  tokenExpiresAt: DateTimeZ,
  /** The visitor the token names: the `visitor` asked for, or a new opaque id to send back next time. */
  visitor: Schema.String
}).annotations({ identifier: "ServedAd" })
export type ServedAd = typeof ServedAd.Type

/** An ad package's code (spec §2.3): the product code of its orders, 3-64 uppercase letters, digits or underscores. */
export const AdPackageCode = Schema.String.pipe(
  Schema.pattern(/^[A-Z][A-Z0-9_]{2,63}$/),
  Schema.annotations(rule("must be an uppercase letter then 2-63 uppercase letters, digits or underscores"))
)

/** A run length in days, 1-3660 (a package version's `durationDays`). */
export const AdRunDays = Schema.Int.pipe(
  Schema.between(1, 3660),
  Schema.annotations(rule("must be an integer from 1 to 3660"))
)

/**
 * One version of an ad package on sale (spec §2.3, §2.5): its price (`priceUnits`, minor units of
 * the asset as a decimal string), the asset and network as the offers name them (public ids, with
 * the asset's symbol, decimals and CAIP-19 id, the network's CAIP-2 id), the run length of a
 * campaign of it, and the offer price a buyer orders it with (Commerce_CreateOrder `offerPriceId`).
 */
export const AdPackageVersion = Schema.Struct({
  id: Uuid,
  version: Version,
  priceUnits: Units,
  assetPublicId: Uuid,
  assetSymbol: Schema.String,
  assetDecimals: Schema.Int,
  assetCaip19: Schema.NullOr(Schema.String),
  networkPublicId: Uuid,
  networkCaip2: Schema.String,
  durationDays: Schema.Int,
  offerPriceId: Uuid,
  createdAt: DateTimeZ
}).annotations({ identifier: "AdPackageVersion" })
export type AdPackageVersion = typeof AdPackageVersion.Type

/**
 * An ad package for sale (spec §2.3; docs/ads.md): its code (the `productCode` of its orders), name,
 * placement kind, the platform's offer that sells it (`offerId`) and its versions on sale, newest first.
 */
export const AdPackage = Schema.Struct({
  id: Uuid,
  code: Schema.String,
  name: Schema.String,
  placementKind: PlacementKind,
  offerId: Uuid,
  versions: Schema.Array(AdPackageVersion),
  createdAt: DateTimeZ
}).annotations({ identifier: "AdPackage" })
export type AdPackage = typeof AdPackage.Type

/**
 * Body of Growth_CreateAdPackage: the package (`code`, `name`, `placementKind`) and its version 1
 * (`assetPublicId`: a known asset; `priceUnits`: minor units of it; `durationDays`: the run length).
 */
export const CreateAdPackageRequest = StrictStruct({
  code: AdPackageCode,
  name: WireString(2, 160),
  placementKind: PlacementKind,
  assetPublicId: Uuid,
  priceUnits: Units,
  durationDays: AdRunDays
}).annotations({ identifier: "CreateAdPackageRequest" })
export type CreateAdPackageRequest = typeof CreateAdPackageRequest.Type

/**
 * Body of Growth_CreateAdPackageVersion: `expectedVersion`, the package's newest version as read
 * (the new one is `expectedVersion + 1`), and the new version's asset, price and run length.
 */
export const CreateAdPackageVersionRequest = StrictStruct({
  expectedVersion: Version,
  assetPublicId: Uuid,
  priceUnits: Units,
  durationDays: AdRunDays
}).annotations({ identifier: "CreateAdPackageVersionRequest" })
export type CreateAdPackageVersionRequest = typeof CreateAdPackageVersionRequest.Type
