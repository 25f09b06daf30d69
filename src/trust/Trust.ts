/**
 * Domain rules of the Trust area (spec §2.9, §3, §4.3): feedback withdrawal.
 */
import { Effect, Option } from "effect"
import { AuthorRequired, FeedbackNotFound } from "./Errors.js"
import { now } from "../../layers/Clock.js"
import { explainRefusal } from "../db/versioned.js"
import { TrustRepo, WithdrawableFeedbackStates } from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"

/** Feedback: withdrawal by its author. Requires `SqlClient`. */
export class Trust extends Effect.Service<Trust>()("agent-directory/Trust", {
  effect: Effect.gen(function*() {
    const repo = yield* TrustRepo

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
        return yield* repo.findById(input.feedbackId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    return { withdraw }
  }),
  dependencies: [TrustRepo.Default]
}) {}
