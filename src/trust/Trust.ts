/**
 * Domain rules of the Trust area (spec §2.9, §3, §4.3): feedback
 * written (created or edited by revision), voted on and withdrawn. Every write marks the
 * agent's evidence as changed (`markAgentEvidence`) in its transaction.
 */
import { Effect, Option } from "effect"
import { SqlClient } from "@effect/sql"
import { AuthorRequired, FeedbackExists, FeedbackNotFound, OwnFeedbackVote } from "./Errors.js"
import { recordActivity } from "../../layers/Activity.js"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { AgentNotFound, InvalidState, WorkspaceNotFound } from "../../schema/errors.js"
import type { CreateFeedbackRequest, FeedbackVote } from "./Schemas.js"
import { explainRefusal } from "../db/versioned.js"
import { markAgentEvidence } from "./reputation/Evidence.js"
import { TrustRepo, WithdrawableFeedbackStates } from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"

/** Feedback: creation and edits by a workspace, votes, withdrawal by its author. Requires `SqlClient`, `Ids`, `Clock`. */
export class Trust extends Effect.Service<Trust>()("agent-directory/Trust", {
  effect: Effect.gen(function*() {
    const repo = yield* TrustRepo
    const ids = yield* Ids
    const sql = yield* SqlClient.SqlClient

    /** Marks the agent's evidence as changed, in the command's transaction. */
    const mark = (agentId: string, at: Date) => markAgentEvidence(agentId, at).pipe(Effect.provideService(SqlClient.SqlClient, sql))

    /** The feedback just written (it exists in this transaction). */
    const written = (id: string) => repo.findById(id).pipe(Effect.flatMap(Effect.orDie))

    /**
     * Trust_CreateFeedback: the workspace `workspaceId` speaks about the
     * agent. Without `expectedRevision` it creates PUBLISHED feedback at revision 1 (no
     * moderation step); with it, it edits the workspace's live (not WITHDRAWN) feedback of
     * that agent and category (rating, title, body; revision + 1; state kept). Either way
     * `authenticityState` is (re-)evaluated: VERIFIED_INTERACTION when the workspace has an
     * order of the agent or a run of it (`TrustRepo.interacted`), else UNVERIFIED. Any ACTIVE
     * member of the workspace may edit its feedback; the author stays who created it. A creation
     * records the agent's public activity item PRODUCT_EVIDENCE `feedback.published` (spec §2.21,
     * `evidencePublicId` = the feedback's id) in the same transaction; an edit records nothing.
     *
     * Fails, in this order, with `WorkspaceNotFound` (not an ACTIVE member), `AgentNotFound`
     * (unknown or never listed), `InvalidState` (RETIRED agent), then `FeedbackExists` (create while one is live),
     * `FeedbackNotFound` (edit with none live), `VersionConflict`, `Conflict`.
     */
    const create = (input: {
      readonly entityPublicId: string
      readonly body: CreateFeedbackRequest
      readonly accountId: string
    }) =>
      Effect.gen(function*() {
        const { body } = input
        const workspaceId = body.workspaceId.toLowerCase()
        const agentId = input.entityPublicId.toLowerCase()
        if (!(yield* repo.isMember(workspaceId, input.accountId))) {
          return yield* new WorkspaceNotFound({ detail: "workspaceId: no such workspace of yours (you must be an ACTIVE member)." })
        }
        const agent = yield* repo.agentStanding(agentId)
        if (Option.isNone(agent) || (agent.value.state !== "RETIRED" && !agent.value.listed)) {
          return yield* new AgentNotFound({ detail: "No listed agent has this entityPublicId." })
        }
        if (agent.value.state === "RETIRED") {
          return yield* new InvalidState({ detail: "The agent is RETIRED; it takes no new feedback." })
        }
        const at = yield* now
        const authenticity = (yield* repo.interacted(workspaceId, agentId)) ? "VERIFIED_INTERACTION" : "UNVERIFIED"
        const fields = {
          agentId,
          workspaceId,
          category: body.category,
          ratingPpm: body.ratingPpm,
          title: body.title,
          body: body.body,
          authenticity,
          at
        }
        let id: string
        if (body.expectedRevision === undefined) {
          id = yield* ids.next
          if (!(yield* repo.insert({ ...fields, id, accountId: input.accountId }))) {
            return yield* new FeedbackExists({
              detail: "The workspace already has live feedback on this agent in this category; send its revision as " +
                "expectedRevision to edit it."
            })
          }
          yield* recordActivity({
            agentId,
            activityKey: "feedback.published",
            dedupeKey: `feedback.published:${id}`,
            sourceKind: "PRODUCT_EVIDENCE",
            summary: `Received published feedback on ${body.category.toLowerCase()}.`,
            evidencePublicId: id,
            occurredAt: at
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(Ids, ids))
        } else {
          const expectedRevision = body.expectedRevision
          const edited = yield* repo.edit({ ...fields, expectedRevision })
          if (Option.isNone(edited)) {
            const current = yield* repo.live({ workspaceId, agentId, category: body.category })
            return yield* explainRefusal({
              resource: "feedback",
              id: "",
              notFound: () => new FeedbackNotFound({
                detail: "The workspace has no live feedback on this agent in this category; create it without expectedRevision."
              }),
              current,
              expectedVersion: expectedRevision,
              counterName: "revision"
            })
          }
          id = edited.value
        }
        yield* mark(agentId, at)
        return yield* written(id)
      }).pipe(dieOnStorageFailure)

    /**
     * Trust_VoteFeedback: the account's HELPFUL / NOT_HELPFUL vote on
     * PUBLISHED feedback; a later vote replaces the earlier one. `helpfulCount` and
     * `notHelpfulCount` move in the same transaction (the feedback's row is locked, so
     * concurrent votes on it are serialized and the counts stay equal to the votes).
     * Returns the feedback. Fails with `FeedbackNotFound` (unknown, or not PUBLISHED) or
     * `OwnFeedbackVote` (the caller wrote it).
     */
    const vote = (input: { readonly feedbackId: string; readonly vote: FeedbackVote; readonly accountId: string }) =>
      Effect.gen(function*() {
        const feedbackId = input.feedbackId.toLowerCase()
        const found = yield* repo.lockForVote(feedbackId)
        if (Option.isNone(found) || found.value.state !== "PUBLISHED") {
          return yield* new FeedbackNotFound({ detail: "No published feedback has this feedbackId." })
        }
        if (found.value.authorAccountId === input.accountId) {
          return yield* new OwnFeedbackVote({ detail: "You wrote this feedback; only others can vote on it." })
        }
        const at = yield* now
        yield* repo.vote({ feedbackId, accountId: input.accountId, vote: input.vote, at })
        yield* mark(found.value.agentId, at)
        return yield* written(feedbackId)
      }).pipe(dieOnStorageFailure)

    /**
     * Trust_WithdrawFeedback (spec §4.3): the author moves their feedback from
     * PENDING_MODERATION, PUBLISHED or HIDDEN to WITHDRAWN, with `revision` + 1 and
     * `updatedAt` = now, when `expectedRevision` is current. Withdrawn feedback no
     * longer counts in the agent's trust figures (view `agent_trust_figures`). One
     * conditional UPDATE: concurrent withdrawals at one revision succeed once.
     * Returns the feedback (spec §2.9).
     *
     * Fails, in this order, with `AuthorRequired` (`author-required`: PUBLISHED feedback of
     * someone else, which is public), `FeedbackNotFound` (`feedback-not-found`: absent, or
     * someone else's feedback that is not public), `VersionConflict` (`version-conflict`,
     * then `invalid-state` for WITHDRAWN, `conflict` when it changed between the update
     * and the re-read).
     */
    const withdraw = (input: {
      readonly feedbackId: string
      readonly expectedRevision: number
      readonly reason: string
      readonly accountId: string
    }) =>
      Effect.gen(function*() {
        const at = yield* now
        const changed = yield* repo.withdraw({
          id: input.feedbackId,
          expectedRevision: input.expectedRevision,
          accountId: input.accountId,
          reason: input.reason,
          at
        })
        if (Option.isNone(changed)) {
          const found = yield* repo.access({ id: input.feedbackId, accountId: input.accountId })
          if (Option.isSome(found) && !found.value.isAuthor && found.value.state === "PUBLISHED") {
            return yield* new AuthorRequired({ detail: "Only the author of a feedback can withdraw it." })
          }
          return yield* explainRefusal({
            resource: "feedback",
            id: input.feedbackId,
            notFound: (detail) => new FeedbackNotFound({ detail }),
            current: Option.filter(found, (f) => f.isAuthor),
            expectedVersion: input.expectedRevision,
            counterName: "revision",
            fromStates: WithdrawableFeedbackStates
          })
        }
        const agentId = yield* repo.agentOf(input.feedbackId)
        if (Option.isSome(agentId)) yield* mark(agentId.value, at)
        return yield* written(input.feedbackId)
      }).pipe(dieOnStorageFailure)

    return { create, vote, withdraw }
  }),
  dependencies: [TrustRepo.Default]
}) {}
