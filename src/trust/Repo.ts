/**
 * SQL of the Trust area: feedback (spec §2.9), built in its wire shape and decoded
 * with `Feedback`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Feedback } from "../../schema/trust.js"
import { updateVersioned } from "../db/versioned.js"

/** What the withdraw rules need to know about a feedback. */
export const FeedbackAccess = Schema.Struct({
  counter: Schema.Number,
  state: Schema.String,
  isAuthor: Schema.Boolean
})
export type FeedbackAccess = typeof FeedbackAccess.Type

/** States its author can withdraw feedback from. */
export const WithdrawableFeedbackStates = ["PENDING_MODERATION", "PUBLISHED", "HIDDEN"] as const

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The feedback in its wire shape, or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: Feedback,
    execute: (id) =>
      sql`SELECT f.id AS "publicId", f.agent_id AS "entityPublicId", f.rating_ppm AS "ratingPpm", f.category, f.title, f.body,
            f.state, f.authenticity_state AS "authenticityState", f.revision::float8 AS revision,
            api_ts(f.created_at) AS "createdAt", api_ts(f.updated_at) AS "updatedAt",
            f.helpful_count::text AS "helpfulCount", f.not_helpful_count::text AS "notHelpfulCount",
            f.response_count::text AS "responseCount"
          FROM feedback f WHERE f.id = ${id}`
  })

  /** The feedback's revision, state and whether the account wrote it, or none. */
  const access = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.String }),
    Result: FeedbackAccess,
    execute: ({ accountId, id }) =>
      sql`SELECT revision::float8 AS counter, state, author_account_id = ${accountId} AS "isAuthor"
          FROM feedback WHERE id = ${id}`
  })

  /** Withdraws in one conditional statement (revision, state, author). Returns whether the row changed. */
  const withdraw = (r: { id: string; expectedRevision: number; accountId: string; reason: string; at: Date }) =>
    updateVersioned({
      table: "feedback",
      counter: "revision",
      id: r.id,
      expected: r.expectedRevision,
      set: sql`state = 'WITHDRAWN', withdrawal_reason = ${r.reason}, withdrawn_at = ${r.at}, updated_at = ${r.at}`,
      fromStates: WithdrawableFeedbackStates,
      where: [sql`author_account_id = ${r.accountId}`]
    })

  /** Trust figures of an agent from the `agent_trust_figures` view (only PUBLISHED feedback counts). */
  const trustFigures = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({
      feedbackCount: Schema.Number,
      averageRatingPpm: Schema.NullOr(Schema.Number),
      verifiedFeedbackCount: Schema.Number
    }),
    execute: (agentId) =>
      sql`SELECT feedback_count::float8 AS "feedbackCount", average_rating_ppm AS "averageRatingPpm",
            verified_feedback_count::float8 AS "verifiedFeedbackCount"
          FROM agent_trust_figures WHERE agent_id = ${agentId}`
  })

  return { findById, access, withdraw, trustFigures } as const
})

/** SQL of the Trust area. */
export class TrustRepo extends Effect.Service<TrustRepo>()("agent-directory/TrustRepo", { effect: make }) {}
