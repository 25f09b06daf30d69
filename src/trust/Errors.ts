/**
 * The problem causes of Trust feedback (the shared ones are in `schema/errors.ts`).
 * Each is one `Schema.TaggedError` (see `Problem` in `schema/problem.ts`) with its status and `type` slug.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `feedback-not-found`: no such feedback, or someone else's feedback that is not public. */
export class FeedbackNotFound extends Problem<FeedbackNotFound>()("FeedbackNotFound", {
  status: 404, type: "feedback-not-found", meaning: "no such feedback, or someone else's feedback that is not public"
}) {}
/** 403 `author-required`: only the author of the feedback may do this. */
export class AuthorRequired extends Problem<AuthorRequired>()("AuthorRequired", {
  status: 403, type: "author-required", meaning: "only the author of the feedback may do this"
}) {}
/** 409 `feedback-exists`: the workspace already has live feedback on this agent in this category (edit it by revision). */
export class FeedbackExists extends Problem<FeedbackExists>()("FeedbackExists", {
  status: 409, type: "feedback-exists",
  meaning: "the workspace already has live feedback on this agent in this category; send expectedRevision to edit it"
}) {}
/** 403 `own-feedback-vote`: the author of a feedback cannot vote on it. */
export class OwnFeedbackVote extends Problem<OwnFeedbackVote>()("OwnFeedbackVote", {
  status: 403, type: "own-feedback-vote", meaning: "the author of a feedback cannot vote on it"
}) {}
