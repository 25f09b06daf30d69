/**
 * SQL of the Trust area: feedback (spec §2.9), built in its wire shape and decoded
 * with `Feedback`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Feedback } from "./Schemas.js"
import { updateVersioned } from "../db/versioned.js"

/** What the withdraw rules need to know about a feedback (`version` is its revision). */
export const FeedbackAccess = Schema.Struct({
  version: Schema.Number,
  state: Schema.String,
  isAuthor: Schema.Boolean
})
export type FeedbackAccess = typeof FeedbackAccess.Type

/** What Trust_CreateFeedback needs to know about the agent: its state, whether it is listed, its operating workspace. */
export const AgentStanding = Schema.Struct({
  state: Schema.String,
  listed: Schema.Boolean,
  workspaceId: Schema.NullOr(Schema.String)
})
export type AgentStanding = typeof AgentStanding.Type

/**
 * Order states that show a workspace did business with an agent (spec §3 commerce states):
 * paid, being fulfilled, active, completed, or expired after being active. Unpaid, cancelled,
 * refunded and manual-review orders do not count.
 */
export const InteractionOrderStates = ["PAID", "FULFILLMENT_PENDING", "ACTIVE", "COMPLETED", "EXPIRED"] as const

/** A vote row of an account on a feedback, as Trust_VoteFeedback needs it. */
export const FeedbackForVote = Schema.Struct({
  agentId: Schema.String,
  state: Schema.String,
  authorAccountId: Schema.String
})

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
      sql`SELECT revision::float8 AS version, state, author_account_id = ${accountId} AS "isAuthor"
          FROM feedback WHERE id = ${id}`
  })

  /** Withdraws in one conditional statement (revision, state, author). Returns the new revision, or none. */
  const withdraw = (r: { id: string; expectedRevision: number; accountId: string; reason: string; at: Date }) =>
    updateVersioned({
      table: "feedback",
      counter: "revision",
      id: r.id,
      expectedVersion: r.expectedRevision,
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

  /** Whether the account is an ACTIVE member of the workspace. */
  const isMember = (workspaceId: string, accountId: string) =>
    Effect.map(
      sql<{ member: boolean }>`SELECT EXISTS (SELECT 1 FROM workspace_members
                                WHERE workspace_id = ${workspaceId} AND account_id = ${accountId} AND state = 'ACTIVE') AS member`,
      (rows) => rows[0]?.member === true
    )

  /** The agent's state, listing and operating workspace, or none. */
  const agentStanding = SqlSchema.findOne({
    Request: Schema.String,
    Result: AgentStanding,
    execute: (agentId) =>
      sql`SELECT state, listed_at IS NOT NULL AS listed, workspace_id AS "workspaceId" FROM agents WHERE id = ${agentId}`
  })

  /**
   * Whether the workspace interacted with the agent: an order of the workspace for the agent
   * in one of {@link InteractionOrderStates}, a bounty the workspace posted whose delivery by
   * the agent it accepted (RELEASE_PENDING with `accepted_at`, or RELEASED: docs/bounties.md),
   * or a run of the agent (not a playground run) in a
   * conversation started by an ACTIVE member of the workspace (runs and conversations name
   * no workspace: a conversation's author is who started it).
   */
  const interacted = (workspaceId: string, agentId: string) =>
    Effect.map(
      sql<{ interacted: boolean }>`SELECT
          EXISTS (SELECT 1 FROM orders o
                  WHERE o.workspace_id = ${workspaceId} AND o.agent_id = ${agentId}
                    AND o.state IN ${sql.in(InteractionOrderStates)})
          OR EXISTS (SELECT 1 FROM bounties b
                     WHERE b.workspace_id = ${workspaceId} AND b.claimant_agent_id = ${agentId}
                       AND b.accepted_at IS NOT NULL AND b.state IN ('RELEASE_PENDING', 'RELEASED'))
          OR EXISTS (SELECT 1 FROM runs r
                     JOIN conversations c ON c.id = r.conversation_id
                     JOIN workspace_members m ON m.account_id = c.account_id AND m.workspace_id = ${workspaceId}
                                             AND m.state = 'ACTIVE'
                     WHERE r.agent_id = ${agentId} AND NOT r.is_playground) AS interacted`,
      (rows) => rows[0]?.interacted === true
    )

  /**
   * Inserts PUBLISHED feedback at revision 1; false when the workspace already has live
   * feedback on the agent in the category (the partial unique index `feedback_live_idx`:
   * a concurrent insert waits for the other to commit, then does nothing).
   */
  const insert = (f: {
    readonly id: string
    readonly agentId: string
    readonly workspaceId: string
    readonly accountId: string
    readonly category: string
    readonly ratingPpm: number
    readonly title: string
    readonly body: string
    readonly authenticity: string
    readonly at: Date
  }) =>
    Effect.map(
      sql`INSERT INTO feedback (id, agent_id, author_account_id, workspace_id, rating_ppm, category, title, body, state,
                                authenticity_state, revision, created_at, updated_at)
          VALUES (${f.id}, ${f.agentId}, ${f.accountId}, ${f.workspaceId}, ${f.ratingPpm}, ${f.category}, ${f.title}, ${f.body},
                  'PUBLISHED', ${f.authenticity}, 1, ${f.at}, ${f.at})
          ON CONFLICT (workspace_id, agent_id, category) WHERE state <> 'WITHDRAWN' AND workspace_id IS NOT NULL DO NOTHING
          RETURNING id`,
      (rows) => rows.length === 1
    )

  /** The workspace's live feedback on the agent in the category: its id, revision and state. */
  const live = SqlSchema.findOne({
    Request: Schema.Struct({ workspaceId: Schema.String, agentId: Schema.String, category: Schema.String }),
    Result: Schema.Struct({ id: Schema.String, version: Schema.Number, state: Schema.String }),
    execute: (r) =>
      sql`SELECT id, revision::float8 AS version, state FROM feedback
          WHERE workspace_id = ${r.workspaceId} AND agent_id = ${r.agentId} AND category = ${r.category} AND state <> 'WITHDRAWN'`
  })

  /** Edits the live feedback at `expectedRevision` in one conditional statement; its id, or none. */
  const edit = (f: {
    readonly agentId: string
    readonly workspaceId: string
    readonly category: string
    readonly expectedRevision: number
    readonly ratingPpm: number
    readonly title: string
    readonly body: string
    readonly authenticity: string
    readonly at: Date
  }) =>
    Effect.map(
      sql<{ id: string }>`UPDATE feedback SET rating_ppm = ${f.ratingPpm}, title = ${f.title}, body = ${f.body},
            authenticity_state = ${f.authenticity}, updated_at = ${f.at}, revision = revision + 1
          WHERE workspace_id = ${f.workspaceId} AND agent_id = ${f.agentId} AND category = ${f.category}
            AND state <> 'WITHDRAWN' AND revision = ${f.expectedRevision}
          RETURNING id`,
      (rows) => Option.fromNullable(rows[0]?.id)
    )

  /** The feedback's agent, state and author, its row locked until the transaction ends (serializes votes on it). */
  const lockForVote = SqlSchema.findOne({
    Request: Schema.String,
    Result: FeedbackForVote,
    execute: (id) =>
      sql`SELECT agent_id AS "agentId", state, author_account_id AS "authorAccountId" FROM feedback WHERE id = ${id} FOR UPDATE`
  })

  /**
   * Records the account's vote (inserted, or replacing its earlier one) and moves the
   * feedback's counts by the difference. The caller holds the feedback's row lock.
   */
  const vote = (v: { readonly feedbackId: string; readonly accountId: string; readonly vote: string; readonly at: Date }) =>
    Effect.gen(function*() {
      const before = yield* sql<{ vote: string }>`SELECT vote FROM feedback_votes
                                                  WHERE feedback_id = ${v.feedbackId} AND account_id = ${v.accountId}`
      const previous = before[0]?.vote
      if (previous === v.vote) return
      yield* sql`INSERT INTO feedback_votes (feedback_id, account_id, vote, created_at, updated_at)
                 VALUES (${v.feedbackId}, ${v.accountId}, ${v.vote}, ${v.at}, ${v.at})
                 ON CONFLICT (feedback_id, account_id) DO UPDATE SET vote = EXCLUDED.vote, updated_at = EXCLUDED.updated_at`
      const delta = (kind: string) => (v.vote === kind ? 1 : 0) - (previous === kind ? 1 : 0)
      yield* sql`UPDATE feedback SET helpful_count = helpful_count + ${delta("HELPFUL")},
                   not_helpful_count = not_helpful_count + ${delta("NOT_HELPFUL")}
                 WHERE id = ${v.feedbackId}`
    })

  /** The agent a feedback is about, or none. */
  const agentOf = (feedbackId: string) =>
    Effect.map(sql<{ agentId: string }>`SELECT agent_id AS "agentId" FROM feedback WHERE id = ${feedbackId}`,
      (rows) => Option.fromNullable(rows[0]?.agentId))

  return {
    findById, access, withdraw, trustFigures, isMember, agentStanding, interacted, insert, live, edit, lockForVote, vote, agentOf
  } as const
})

/** SQL of the Trust area. */
export class TrustRepo extends Effect.Service<TrustRepo>()("agent-directory/TrustRepo", { effect: make }) {}
