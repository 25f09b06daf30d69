/** Trust area (spec §2.9, §4.3): agent feedback. */
import { Schema } from "effect"
import { CountString, DateTimeZ, rule, StrictStruct, Uuid, Version, WireString } from "../../schema/common.js"

/** Feedback categories (spec §2.9). */
export const FeedbackCategory = Schema.Literal("QUALITY", "RELIABILITY", "SAFETY", "VALUE", "COMMUNICATION", "OTHER")

/**
 * Feedback states used by this service (spec §3 leaves the set open): PENDING_MODERATION,
 * PUBLISHED (public, counts in the agent's trust figures), HIDDEN (by moderation), WITHDRAWN
 * (by its author).
 */
export const FeedbackStates = ["PENDING_MODERATION", "PUBLISHED", "HIDDEN", "WITHDRAWN"] as const

/** Feedback (spec §2.9). `revision` is its optimistic-concurrency counter. */
export const Feedback = Schema.Struct({
  publicId: Uuid,
  entityPublicId: Uuid,
  ratingPpm: Schema.Int,
  category: FeedbackCategory,
  title: Schema.String,
  body: Schema.String,
  state: Schema.String,
  authenticityState: Schema.String,
  revision: Schema.Int.pipe(Schema.positive()),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ,
  helpfulCount: CountString,
  notHelpfulCount: CountString,
  responseCount: CountString
}).annotations({ identifier: "Feedback" })
export type Feedback = typeof Feedback.Type

/** Body of Trust_WithdrawFeedback (spec §4.3): the revision the caller saw and why. */
export const WithdrawFeedbackRequest = StrictStruct({
  expectedRevision: Version,
  reason: WireString(4, 2000)
}).annotations({ identifier: "WithdrawFeedbackRequest" })

/** Authenticity of feedback written through Trust_CreateFeedback: the workspace interacted with the agent, or not. */
export const FeedbackAuthenticity = ["VERIFIED_INTERACTION", "UNVERIFIED"] as const

/** Feedback just created (Trust_CreateFeedback's 201): revision 1. An edit answers 200 with a later revision. */
export const CreatedFeedback = Feedback.pipe(
  Schema.filter((f) => f.revision === 1),
  Schema.annotations({ identifier: "CreatedFeedback" })
)

/** A feedback title: 1-200 characters, not only white space. */
const FeedbackTitle = WireString(1, 200).pipe(
  Schema.filter((s) => s.trim().length > 0),
  Schema.annotations(rule("must be a string of 1-200 characters, not only white space, without U+0000"))
)

/** A rating in parts per million: an integer 0-1000000. */
const RatingPpm = Schema.Int.pipe(
  Schema.between(0, 1_000_000),
  Schema.annotations(rule("must be an integer 0-1000000"))
)

/**
 * Body of Trust_CreateFeedback: the workspace the feedback speaks for,
 * its category, rating (ppm), title (1-200, not blank) and body (0-10000). With
 * `expectedRevision` it edits the workspace's live feedback of that agent and category.
 */
export const CreateFeedbackRequest = StrictStruct({
  workspaceId: Uuid,
  category: FeedbackCategory,
  ratingPpm: RatingPpm,
  title: FeedbackTitle,
  body: WireString(0, 10000),
  expectedRevision: Schema.optionalWith(Version, { exact: true })
}).annotations({ identifier: "CreateFeedbackRequest" })
export type CreateFeedbackRequest = typeof CreateFeedbackRequest.Type

/** A vote on feedback. */
export const FeedbackVote = Schema.Literal("HELPFUL", "NOT_HELPFUL")
export type FeedbackVote = typeof FeedbackVote.Type

/** Body of Trust_VoteFeedback: the caller's vote, which replaces any earlier one of theirs. */
export const VoteFeedbackRequest = StrictStruct({ vote: FeedbackVote }).annotations({ identifier: "VoteFeedbackRequest" })
export type VoteFeedbackRequest = typeof VoteFeedbackRequest.Type
