/**
 * Admin review of ad campaigns (spec §3, §4.2 Growth_ReviewAdCampaign): a two-step
 * command, preview (`dryRun`) then apply with the preview's confirmation text at the
 * campaign's version.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Audit } from "../../../layers/Audit.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import type { AdCampaign, AdCampaignReview, AdCampaignState, ReviewAdCampaignRequest, ReviewDecision } from "./Schemas.js"
import { requireConfirmation } from "../../db/confirmation.js"
import { explainRefusal, updateVersioned } from "../../db/versioned.js"
import { AdsRepo } from "./Repo.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { AdCampaignNotFound } from "./Errors.js"

/** The states each decision applies to (spec §3; the moves are ours, the spec shows none). */
export const ReviewFromStates: Record<ReviewDecision, ReadonlyArray<AdCampaignState>> = {
  APPROVE: ["SUBMITTED", "UNDER_REVIEW"],
  REJECT: ["SUBMITTED", "UNDER_REVIEW"],
  SUSPEND: ["APPROVED", "SCHEDULED", "ACTIVE", "PAUSED"]
}

/** The state a decision moves a campaign to: APPROVE → SCHEDULED when `startAt` is after `at`, else APPROVED. */
export const reviewTarget = (decision: ReviewDecision, startAt: Date | null, at: Date): AdCampaignState =>
  decision === "APPROVE"
    ? (startAt !== null && startAt.getTime() > at.getTime() ? "SCHEDULED" : "APPROVED")
    : decision === "REJECT"
    ? "REJECTED"
    : "SUSPENDED"

/** What an approval or rejection does to the campaign's current creative (a suspension leaves it). */
const creativeState: Partial<Record<ReviewDecision, string>> = { APPROVE: "APPROVED", REJECT: "REJECTED" }

/** The text an operator echoes as `confirmation` to apply a decision. */
export const reviewConfirmation = (decision: ReviewDecision, campaignId: string): string => `${decision} ${campaignId}`

/** Ad campaign review. Requires `SqlClient` and `Ids`. */
export class Review extends Effect.Service<Review>()("agent-directory/AdCampaignReview", {
  effect: Effect.gen(function*() {
    const repo = yield* AdsRepo
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const audit = yield* Audit

    const refuse = (campaignId: string, decision: ReviewDecision, found: Option.Option<AdCampaign>, expectedVersion: number) =>
      explainRefusal({
        resource: "ad-campaign",
        id: campaignId,
        notFound: (detail) => new AdCampaignNotFound({ detail }),
        current: Option.map(found, (c) => ({ version: c.version, state: c.state })),
        expectedVersion,
        fromStates: ReviewFromStates[decision],
        stateDetail: (state) => `The campaign is ${state}; ${decision} applies only from ${ReviewFromStates[decision].join(", ")}.`
      })

    /**
     * Growth_ReviewAdCampaign. Both steps first check `expectedVersion` and that the
     * decision applies to the campaign's state. `dryRun` (default) → `applied: false`,
     * the campaign unchanged and the `confirmation` text (`<decision> <campaignId>`).
     * Apply (`dryRun: false`, `confirmation` = that text) → the move of
     * {@link reviewTarget} (version + 1), the creative APPROVED/REJECTED on approve/reject,
     * an `admin_audit_events` record, the workspace's audit event `ad_campaign.reviewed`
     * (decision and states, never `privateDecision`) and a review row holding `privateDecision`.
     *
     * Fails with `AdCampaignNotFound` (`ad-campaign-not-found`), `InvalidRequest`
     * (`confirmation-required`, `confirmation-mismatch`), `VersionConflict` (`version-conflict`,
     * `invalid-state`).
     */
    const review = (input: {
      readonly campaignId: string
      readonly reviewerAccountId: string
      readonly body: ReviewAdCampaignRequest
    }) =>
      Effect.gen(function*() {
        const { body } = input
        const campaignId = input.campaignId.toLowerCase()
        const fromStates: ReadonlyArray<string> = ReviewFromStates[body.decision]
        const found = yield* repo.findById(campaignId)
        if (
          Option.isNone(found) || found.value.version !== body.expectedVersion || !fromStates.includes(found.value.state)
        ) return yield* refuse(campaignId, body.decision, found, body.expectedVersion)
        const campaign = found.value
        const confirmation = reviewConfirmation(body.decision, campaignId)
        if (body.dryRun) return { applied: false, confirmation, campaign } satisfies AdCampaignReview
        yield* requireConfirmation(body.confirmation, confirmation, "the preview's confirmation text")
        const at = yield* now
        const toState = reviewTarget(body.decision, campaign.startAt, at)
        const version = yield* updateVersioned({
          table: "ad_campaigns",
          id: campaignId,
          expectedVersion: body.expectedVersion,
          set: sql`state = ${toState}, updated_at = ${at}`,
          fromStates
        })
        if (Option.isNone(version)) {
          return yield* refuse(campaignId, body.decision, yield* repo.findById(campaignId), body.expectedVersion)
        }
        const creative = creativeState[body.decision]
        if (creative !== undefined) yield* repo.setCreativeState(campaignId, creative)
        yield* repo.recordReview({
          id: yield* ids.next,
          auditEventId: yield* ids.next,
          campaignId,
          reviewerAccountId: input.reviewerAccountId,
          decision: body.decision,
          decisionCode: body.decisionCode,
          publicDecision: body.publicDecision,
          privateDecision: body.privateDecision,
          fromState: campaign.state,
          toState,
          version: version.value,
          at
        })
        // the workspace's own trail (docs/audit.md): the public decision only, never the private one
        yield* audit.record({
          workspaceId: campaign.workspaceId,
          actorAccountId: input.reviewerAccountId,
          action: "ad_campaign.reviewed",
          target: { type: "ad_campaign", id: campaignId },
          details: {
            decision: body.decision,
            decisionCode: body.decisionCode,
            fromState: campaign.state,
            toState
          }
        })
        const updated = yield* repo.findById(campaignId).pipe(Effect.map(Option.getOrThrow))
        return { applied: true, confirmation, campaign: updated } satisfies AdCampaignReview
      }).pipe(dieOnStorageFailure)

    return { review }
  }),
  dependencies: [AdsRepo.Default]
}) {}
