/**
 * HTTP handlers of the ad campaigns group (Growth_ListAdPackages, Growth_CreateAdPackage,
 * Growth_CreateAdPackageVersion, Growth_ListAdCampaigns, Growth_CreateAdCampaign,
 * Growth_SubmitAdCampaign, Growth_ServeAd,
 * Growth_RecordAdEvent, Growth_ListAdminAdCampaigns, Growth_ReviewAdCampaign).
 */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Campaigns } from "./Campaigns.js"
import { Packages } from "./Packages.js"
import { Review } from "./Review.js"

export const AdsHttpLive = group(Api, "Ads", (handlers) =>
  Effect.gen(function*() {
    const campaigns = yield* Campaigns
    const review = yield* Review
    const packages = yield* Packages
    const envelope = yield* Envelope
    return handlers
      .handle("listAdPackages", () => packages.list.pipe(Effect.flatMap(envelope.data)))
      .handle("createAdPackage", ({ payload }) =>
        Effect.flatMap(currentSession, (session) => packages.create({ body: payload, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("createAdPackageVersion", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          packages.createVersion({ packageId: path.packageId, body: payload, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("listAdCampaigns", () =>
        Effect.flatMap(currentSession, (session) => campaigns.listForAccount(session.accountId)).pipe(Effect.flatMap(envelope.data)))
      .handle("createAdCampaign", ({ payload }) =>
        Effect.flatMap(currentSession, (session) => campaigns.create({ body: payload, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("submitAdCampaign", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          campaigns.submit({ campaignId: path.campaignId, accountId: session.accountId, body: payload }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("serveAd", ({ urlParams }) => campaigns.serve(urlParams).pipe(Effect.flatMap(envelope.data)))
      .handle("recordAdEvent", ({ payload }) => campaigns.recordEvent(payload).pipe(Effect.flatMap(envelope.data)))
      .handle("listAdminAdCampaigns", () => campaigns.listAll.pipe(Effect.flatMap(envelope.data)))
      .handle("reviewAdCampaign", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          review.review({ campaignId: path.campaignId, reviewerAccountId: session.accountId, body: payload }))
          .pipe(Effect.flatMap(envelope.data)))
  }))
