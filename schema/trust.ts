/** Trust area (spec §2.9, §4.3): agent feedback. */
import { Schema } from "effect"
import { CountString, DateTimeZ, StrictStruct, Uuid, Version, WireString } from "./common.js"

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
