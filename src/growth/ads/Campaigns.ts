/**
 * Domain rules of ad campaigns (spec §2.3, §3, §4.2 Growth_ListAdCampaigns,
 * Growth_CreateAdCampaign, Growth_RecordAdEvent, Growth_ListAdminAdCampaigns).
 */
import { Effect, Option, Redacted } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { currentRequest } from "../../../layers/RequestContext.js"
import type {
  AdCampaignState,
  CreateAdCampaignRequest,
  RecordAdEventRequest,
  ServeAdQuery,
  ServedAd,
  SubmitAdCampaignRequest
} from "./Schemas.js"
import { AgentNotFound, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { AdCampaignNotActive, AdCampaignNotFound, AdPackageVersionNotFound, OrderInUse, OrderNotEligible } from "./Errors.js"
import { AdsRepo } from "./Repo.js"
import { mint, ServingTokenTtlSeconds, verify } from "./ServingToken.js"
import { runVersioned } from "../../db/versioned.js"
import { Audit } from "../../../layers/Audit.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { can, rolesFor } from "../../../schema/roles.js"


/**
 * The state a new campaign starts in, by its order's state (spec §3), or null when
 * the order cannot fund a campaign: a paid order (PAID, FULFILLMENT_PENDING, ACTIVE)
 * → DRAFT; a payment observed on chain but not yet final (PAYMENT_OBSERVED) →
 * PAYMENT_PENDING; anything earlier (CREATED, PAYMENT_PENDING), ended (COMPLETED,
 * EXPIRED, CANCELLED), refunded (REFUND_PENDING, REFUNDED) or held (MANUAL_REVIEW) → null.
 */
export const initialCampaignState = (orderState: string): Extract<AdCampaignState, "DRAFT" | "PAYMENT_PENDING"> | null => {
  switch (orderState) {
    case "PAID":
    case "FULFILLMENT_PENDING":
    case "ACTIVE":
      return "DRAFT"
    case "PAYMENT_OBSERVED":
      return "PAYMENT_PENDING"
    default:
      return null
  }
}

const dayMs = 86_400_000

/** A targeting rule of a campaign (spec §2.3 targets item). */
interface Target {
  readonly dimension: string
  readonly value: string
  readonly exclude: boolean
}

/** What a request to serve an ad says of the page, by target dimension (spec §2.3). */
export type ServeContext = Partial<Record<"NETWORK" | "PROTOCOL" | "PAGE" | "COUNTRY" | "LANGUAGE", string>>

/**
 * Whether a campaign's `targets` allow serving it in `context`. Per dimension, values
 * compared case-insensitively: an exclude rule whose value is the context's refuses; when the
 * dimension has include rules, the context must name that dimension with one of their values
 * (a context silent on a targeted dimension is not served). A campaign without targets is
 * served anywhere.
 */
export const targetsAllow = (targets: ReadonlyArray<Target>, context: ServeContext): boolean => {
  for (const dimension of ["NETWORK", "PROTOCOL", "PAGE", "COUNTRY", "LANGUAGE"] as const) {
    const rules = targets.filter((t) => t.dimension === dimension)
    if (rules.length === 0) continue
    const value = context[dimension]?.toLowerCase()
    if (rules.some((t) => t.exclude && value !== undefined && t.value.toLowerCase() === value)) return false
    const includes = rules.filter((t) => !t.exclude)
    if (includes.length > 0 && (value === undefined || !includes.some((t) => t.value.toLowerCase() === value))) return false
  }
  return true
}

/** The order states that fund a submission: paid. */
const paidOrderStates: ReadonlyArray<string> = ["PAID", "FULFILLMENT_PENDING", "ACTIVE"]

/** Ad campaigns: lists, creation and event recording. Requires `SqlClient`, `Ids` and `AppConfig`. */
export class Campaigns extends Effect.Service<Campaigns>()("agent-directory/AdCampaigns", {
  effect: Effect.gen(function*() {
    const repo = yield* AdsRepo
    const ids = yield* Ids
    const servingKey = Redacted.value((yield* AppConfig).keys.adServing)
    const audit = yield* Audit

    /** Growth_ListAdCampaigns: the newest campaigns of the account's workspaces. */
    const listForAccount = (accountId: string) =>
      repo.listForAccount(accountId).pipe(dieOnStorageFailure)

    /** Growth_ListAdminAdCampaigns: the newest campaigns of every workspace. */
    const listAll = repo.listAll().pipe(dieOnStorageFailure)

    /**
     * Growth_CreateAdCampaign: a campaign in DRAFT or PAYMENT_PENDING (see
     * {@link initialCampaignState}) with a TEXT creative (revision 1, DRAFT) from
     * `headline`/`body`, the targets, zero metrics and `endAt` = `startAt` + the package
     * version's run length.
     *
     * Fails with `WorkspaceNotFound` (`workspace-not-found`: not an ACTIVE member;
     * `ad-package-version-not-found`; `agent-not-found`: `agentPublicId` is not an agent
     * of the workspace), `RoleRequired` (`role-required`: not OWNER, ADMIN or EDITOR),
     * `OrderNotEligible` (`order-not-eligible`: the order is not the workspace's, not for this
     * package, or not paid; `order-in-use`: a campaign already uses it).
     */
    const create = (input: { readonly body: CreateAdCampaignRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { body } = input
        const workspaceId = body.workspaceId.toLowerCase()
        const orderId = body.orderId.toLowerCase()
        const packageVersionId = body.packageVersionId.toLowerCase()
        const agentId = body.agentPublicId === null ? null : body.agentPublicId.toLowerCase()
        const ctx = yield* repo.createContext({ accountId: input.accountId, workspaceId, orderId, packageVersionId, agentId })
        if (ctx.role === null) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${workspaceId} of yours.` })
        }
        if (!can(ctx.role, "ads.write")) {
          return yield* new RoleRequired({
            detail: `Creating ad campaigns needs one of the roles ${rolesFor("ads.write").join(", ")} in the workspace.`
          })
        }
        if (ctx.packageCode === null || ctx.durationDays === null) {
          return yield* new AdPackageVersionNotFound({ detail: `No ad package version ${packageVersionId}.` })
        }
        if (!ctx.agentInWorkspace) {
          return yield* new AgentNotFound({ detail: `No agent ${agentId} in this workspace.` })
        }
        if (ctx.orderState === null) {
          return yield* new OrderNotEligible({ detail: `The order ${orderId} is not an order of this workspace.` })
        }
        if (ctx.orderProduct !== ctx.packageCode) {
          return yield* new OrderNotEligible({ detail: "The order did not buy this ad package." })
        }
        const state = initialCampaignState(ctx.orderState)
        if (state === null) {
          return yield* new OrderNotEligible({
            detail: `The order is ${ctx.orderState}; only a paid order (or one whose payment was observed) funds a campaign.`
          })
        }
        if (ctx.orderUsed) {
          return yield* new OrderInUse({ detail: "The order already funds another ad campaign." })
        }
        const at = yield* now
        const id = yield* ids.next
        const inserted = yield* repo.insert({
          id,
          publicId: yield* ids.next,
          creativeId: yield* ids.next,
          workspaceId,
          agentId,
          orderId,
          packageVersionId,
          name: body.name,
          destinationUrl: body.destinationUrl,
          state,
          startAt: body.startAt,
          endAt: new Date(body.startAt.getTime() + ctx.durationDays * dayMs),
          targets: body.targets,
          headline: body.headline,
          body: body.body,
          accountId: input.accountId,
          at
        })
        // a concurrent create took the order between the read and the insert
        if (!inserted) return yield* new OrderInUse({ detail: "The order already funds another ad campaign." })
        return yield* repo.findById(id).pipe(Effect.map(Option.getOrThrow))
        // createContext always reads one row
      }).pipe(dieOnStorageFailure, Effect.catchTag("NoSuchElementException", Effect.die))

    /**
     * Growth_RecordAdEvent: verifies the serving token, then counts the IMPRESSION or
     * CLICK on its ACTIVE campaign whose `startAt`..`endAt` window is open now (an ended
     * campaign is refused before the lifecycle cron of `Lifecycle.ts` completes it; an
     * impression of a new visitor also counts in
     * `uniqueVisitors`) and stores the event under the request's id. Exactly once per
     * Idempotency-Key: the caller's transaction holds the key's record.
     *
     * Fails with `InvalidServingToken` (`invalid-serving-token`, `serving-token-expired`),
     * `AdCampaignNotFound` (`ad-campaign-not-found`), `AdCampaignNotActive` (`ad-campaign-not-active`:
     * not ACTIVE, or outside its window).
     */
    const recordEvent = (body: RecordAdEventRequest) =>
      Effect.gen(function*() {
        const at = yield* now
        const claims = yield* verify(servingKey, body.token, at)
        const campaignId = claims.campaign.toLowerCase()
        const { requestId } = yield* currentRequest
        const counted = yield* repo.recordEvent({
          id: requestId,
          campaignId,
          kind: body.kind,
          placement: claims.placement,
          visitor: claims.visitor,
          at
        })
        if (!counted) {
          const found = yield* repo.findById(campaignId)
          if (Option.isNone(found)) {
            return yield* new AdCampaignNotFound({ detail: `No ad campaign ${campaignId}.` })
          }
          const c = found.value
          return yield* new AdCampaignNotActive({
            detail: c.state !== "ACTIVE"
              ? `The campaign is ${c.state}; only an ACTIVE campaign records ad events.`
              : c.endAt !== null && c.endAt.getTime() <= at.getTime()
              ? `The campaign ended at ${c.endAt.toISOString()}; it records no more ad events.`
              : `The campaign starts at ${c.startAt?.toISOString()}; it records ad events from then on.`
          })
        }
        return { accepted: true as const, requestId }
      }).pipe(dieOnStorageFailure)

    /**
     * Growth_SubmitAdCampaign: DRAFT (or PAYMENT_PENDING whose order has been paid since) →
     * SUBMITTED at `expectedVersion` (version + 1). With `creative`, it becomes the campaign's
     * next creative revision; without, the current creative is submitted; either way the
     * submitted creative is READY. The workspace's audit trail records `ad_campaign.submitted`.
     *
     * Fails, in this order, with `AdCampaignNotFound` (unknown, or not a campaign of the
     * caller's workspaces), `RoleRequired` (not OWNER, ADMIN or EDITOR), `VersionConflict`,
     * `InvalidState` (not DRAFT or PAYMENT_PENDING), `OrderNotEligible` (no order, or its order
     * is not PAID, FULFILLMENT_PENDING or ACTIVE), `Conflict`.
     */
    const submit = (input: { readonly campaignId: string; readonly accountId: string; readonly body: SubmitAdCampaignRequest }) =>
      Effect.gen(function*() {
        const campaignId = input.campaignId.toLowerCase()
        const at = yield* now
        const roles = rolesFor("ads.write")
        yield* runVersioned({
          resource: "ad-campaign",
          expectedVersion: input.body.expectedVersion,
          fromStates: ["DRAFT", "PAYMENT_PENDING"],
          roles,
          update: repo.submit({ campaignId, accountId: input.accountId, expectedVersion: input.body.expectedVersion, roles, at }),
          current: repo.commandView(campaignId, input.accountId),
          notFound: () => new AdCampaignNotFound({ detail: `No ad campaign ${campaignId} in your workspaces.` }),
          otherwise: (row) =>
            row.orderState === null
              ? new OrderNotEligible({ detail: "The campaign has no order; only a campaign funded by a paid order is submitted." })
              : !paidOrderStates.includes(row.orderState)
              ? new OrderNotEligible({ detail: `The campaign's order is ${row.orderState}; it must be paid first.` })
              : undefined
        })
        const creative = input.body.creative
        if (creative === undefined) {
          yield* repo.setCreativeState(campaignId, "READY")
        } else {
          yield* repo.addCreative({
            id: yield* ids.next,
            campaignId,
            kind: creative.kind,
            headline: creative.kind === "TEXT" ? creative.headline : null,
            body: creative.kind === "TEXT" ? creative.body : null,
            storageRef: creative.kind === "IMAGE" ? creative.url : null,
            mediaType: creative.kind === "IMAGE" ? creative.mediaType : null,
            widthPixels: creative.kind === "IMAGE" ? creative.widthPixels : null,
            heightPixels: creative.kind === "IMAGE" ? creative.heightPixels : null,
            sizeBytes: creative.kind === "IMAGE" ? creative.sizeBytes : null,
            sha256: creative.kind === "IMAGE" ? creative.sha256 : null,
            altText: creative.kind === "IMAGE" ? creative.altText : null,
            at
          })
        }
        const campaign = Option.getOrThrow(yield* repo.findById(campaignId))
        yield* audit.record({
          workspaceId: campaign.workspaceId,
          actorAccountId: input.accountId,
          action: "ad_campaign.submitted",
          target: { type: "ad_campaign", id: campaignId },
          details: { creativeRevision: campaign.creative?.revision ?? null, creativeKind: campaign.creative?.kind ?? null }
        })
        return campaign
      }).pipe(dieOnStorageFailure)

    /**
     * Growth_ServeAd: an ACTIVE campaign of the placement kind whose window is open now, whose
     * current creative is APPROVED and whose targets allow the request's context
     * ({@link targetsAllow}), the one with the fewest impressions (then the oldest start), with
     * a serving token for Growth_RecordAdEvent naming the campaign, the placement kind and the
     * visitor, valid {@link ServingTokenTtlSeconds} seconds. None when no campaign fits.
     */
    const serve = (query: ServeAdQuery) =>
      Effect.gen(function*() {
        const at = yield* now
        const context: ServeContext = {
          ...(query.network !== undefined ? { NETWORK: query.network } : {}),
          ...(query.protocol !== undefined ? { PROTOCOL: query.protocol } : {}),
          ...(query.page !== undefined ? { PAGE: query.page } : {}),
          ...(query.country !== undefined ? { COUNTRY: query.country } : {}),
          ...(query.language !== undefined ? { LANGUAGE: query.language } : {})
        }
        const candidates = yield* repo.servable(query.placement, at)
        const chosen = candidates.find((c) => targetsAllow(c.targets, context))
        if (chosen === undefined) return null
        const campaign = yield* repo.findById(chosen.id)
        if (Option.isNone(campaign) || campaign.value.creative === null) return null
        const visitor = query.visitor ?? `v-${yield* ids.next}`
        const exp = Math.floor(at.getTime() / 1000) + ServingTokenTtlSeconds
        const token = mint(servingKey, { campaign: chosen.id, placement: query.placement, visitor, exp }, at)
        return {
          campaignId: chosen.id,
          placementKind: query.placement,
          destinationUrl: campaign.value.destinationUrl,
          creative: campaign.value.creative,
          token,
          tokenExpiresAt: new Date(exp * 1000),
          visitor
        } satisfies ServedAd
      }).pipe(dieOnStorageFailure)

    return { listForAccount, listAll, create, recordEvent, submit, serve }
  }),
  dependencies: [AdsRepo.Default]
}) {}
