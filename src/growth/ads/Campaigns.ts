/**
 * Domain rules of ad campaigns (spec §2.3, §3, §4.2 Growth_ListAdCampaigns,
 * Growth_CreateAdCampaign, Growth_RecordAdEvent, Growth_ListAdminAdCampaigns).
 */
import { Effect, Option, Redacted } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { currentRequest } from "../../../layers/RequestContext.js"
import type { AdCampaignState, CreateAdCampaignRequest, RecordAdEventRequest } from "./Schemas.js"
import { AgentNotFound, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { AdCampaignNotActive, AdCampaignNotFound, AdPackageVersionNotFound, OrderInUse, OrderNotEligible } from "./Errors.js"
import { AdsRepo } from "./Repo.js"
import { verify } from "./ServingToken.js"
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

/** Ad campaigns: lists, creation and event recording. Requires `SqlClient`, `Ids` and `AppConfig`. */
export class Campaigns extends Effect.Service<Campaigns>()("agent-directory/AdCampaigns", {
  effect: Effect.gen(function*() {
    const repo = yield* AdsRepo
    const ids = yield* Ids
    const servingKey = Redacted.value((yield* AppConfig).keys.adServing)

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

    return { listForAccount, listAll, create, recordEvent }
  }),
  dependencies: [AdsRepo.Default]
}) {}
