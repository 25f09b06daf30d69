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
