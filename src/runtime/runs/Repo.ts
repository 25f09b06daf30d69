/**
 * SQL of conversations and runs (spec §2.19, §2.20; tables of migrations 0010, 0011):
 * sending a message and clearing playground data (the run's own moves are in `../loop/Repo.ts`).
 * Rows come out in the wire shapes of `Message`, `Run` and `PlaygroundClearResult`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { FinishedRunStates, Message, PlaygroundClearResult, Run } from "../Schemas.js"

const messageColumns = `id, ordinal::text AS ordinal, role, state, content_text AS "contentText",
  content_parts AS "contentParts", run_id AS "runId", api_ts(created_at) AS "createdAt", api_ts(completed_at) AS "completedAt"`
const runColumns = `id, conversation_id AS "conversationId", agent_id AS "entityPublicId", trigger_type AS "triggerType",
  state, version::float8 AS version, failure_code AS "failureCode"`
const finished = `(${FinishedRunStates.map((s) => `'${s}'`).join(", ")})`

/** A conversation as SendMessage needs it (its row locked). */
const ConversationRow = Schema.Struct({
  id: Schema.String,
  agentId: Schema.String,
  accountId: Schema.String,
  kind: Schema.Literal("CHAT", "PLAYGROUND")
})

/** A run as the clearing of playground data needs it (its row locked). */
const ClearableRunRow = Schema.Struct({
  ...PlaygroundClearResult.fields,
  conversationId: Schema.NullOr(Schema.String),
  agentId: Schema.String,
  isPlayground: Schema.Boolean,
  /** The author of the run's conversation (null for a run without one). */
  authorAccountId: Schema.NullOr(Schema.String)
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The conversation, its row locked until the transaction ends (serializes senders). */
  const lockConversation = SqlSchema.findOne({
    Request: Schema.String,
    Result: ConversationRow,
    execute: (id) =>
      sql`SELECT id, agent_id AS "agentId", account_id AS "accountId", kind FROM conversations WHERE id = ${id} FOR UPDATE`
  })

  /** The ids of the conversation's active runs (at most one, by migration 0011). */
  const activeRuns = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (conversationId) =>
      sql`SELECT id FROM runs WHERE conversation_id = ${conversationId} AND state NOT IN ${sql.literal(finished)}`
  })

  /** The conversation's last message (highest ordinal), if any. */
  const lastMessage = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String, ordinal: Schema.Number }),
    execute: (conversationId) =>
      sql`SELECT id, ordinal::float8 AS ordinal FROM messages WHERE conversation_id = ${conversationId}
          ORDER BY ordinal DESC LIMIT 1`
  })

  /** Whether the message is in the conversation. */
  const messageIn = SqlSchema.findOne({
    Request: Schema.Struct({ messageId: Schema.String, conversationId: Schema.String }),
    Result: Schema.Struct({ id: Schema.String }),
    execute: (r) => sql`SELECT id FROM messages WHERE id = ${r.messageId} AND conversation_id = ${r.conversationId}`
  })

  /** Inserts a QUEUED run (version 1). */
  const insertRun = SqlSchema.single({
    Request: Schema.Struct({
      id: Schema.String,
      conversationId: Schema.String,
      agentId: Schema.String,
      triggerType: Schema.String,
      isPlayground: Schema.Boolean,
      /** The schedule whose occurrence starts the run, or null. */
      scheduleId: Schema.NullOr(Schema.String),
      retentionExpiresAt: Schema.DateFromSelf,
      at: Schema.DateFromSelf
    }),
    Result: Run,
    execute: (r) =>
      sql`INSERT INTO runs (id, conversation_id, agent_id, trigger_type, state, version, is_playground, schedule_id,
            retention_expires_at, created_at, updated_at)
          VALUES (${r.id}, ${r.conversationId}, ${r.agentId}, ${r.triggerType}, 'QUEUED', 1, ${r.isPlayground},
            ${r.scheduleId}, ${r.retentionExpiresAt}, ${r.at}, ${r.at})
          RETURNING ${sql.literal(runColumns)}`
  })

  /** Inserts a message; `contentText` null = no content yet (`contentParts` empty). */
  const insertMessage = SqlSchema.single({
    Request: Schema.Struct({
      id: Schema.String,
      conversationId: Schema.String,
      ordinal: Schema.Number,
      role: Schema.String,
      state: Schema.Literal("PENDING", "COMPLETE"),
      contentText: Schema.NullOr(Schema.String),
      parentMessageId: Schema.NullOr(Schema.String),
      runId: Schema.String,
      at: Schema.DateFromSelf
    }),
    Result: Message,
    execute: (m) =>
      sql`INSERT INTO messages (id, conversation_id, ordinal, role, state, content_text, content_parts,
            parent_message_id, run_id, created_at, completed_at)
          VALUES (${m.id}, ${m.conversationId}, ${m.ordinal}, ${m.role}, ${m.state}, ${m.contentText},
            ${JSON.stringify(m.contentText === null ? [] : [{ type: "text", text: m.contentText }])}::jsonb,
            ${m.parentMessageId}, ${m.runId}, ${m.at}, ${m.state === "COMPLETE" ? m.at : null})
          RETURNING ${sql.literal(messageColumns)}`
  })

  const touchConversation = (id: string, at: Date) => sql`UPDATE conversations SET updated_at = ${at} WHERE id = ${id}`

  /** The run with its agent and conversation, its row locked. */
  const lockRunForClear = SqlSchema.findOne({
    Request: Schema.String,
    Result: ClearableRunRow,
    execute: (id) =>
      sql`SELECT id AS "runId", conversation_id AS "conversationId", agent_id AS "agentId", state,
            is_playground AS "isPlayground", api_ts(retention_expires_at) AS "retentionExpiresAt",
            api_ts(data_cleared_at) AS "dataClearedAt",
            (SELECT c.account_id FROM conversations c WHERE c.id = r.conversation_id) AS "authorAccountId"
          FROM runs r WHERE r.id = ${id} FOR UPDATE OF r`
  })

  /**
   * Redacts every message of the conversation (state REDACTED, no text, no parts) and
   * marks its finished runs' data cleared at `at` (runs already cleared keep their time).
   */
  const clearConversation = (conversationId: string, at: Date) =>
    Effect.gen(function*() {
      yield* sql`UPDATE messages SET state = 'REDACTED', content_text = NULL, content_parts = '[]'::jsonb
                 WHERE conversation_id = ${conversationId} AND (state <> 'REDACTED' OR content_text IS NOT NULL)`
      yield* sql`UPDATE runs SET data_cleared_at = ${at}, version = version + 1, updated_at = ${at}
                 WHERE conversation_id = ${conversationId} AND data_cleared_at IS NULL AND state IN ${sql.literal(finished)}`
    })

  /** One run in its wire shape. */
  const run = SqlSchema.findOne({
    Request: Schema.String,
    Result: Run,
    execute: (id) => sql`SELECT ${sql.literal(runColumns)} FROM runs WHERE id = ${id}`
  })

  /** The run's messages, by ordinal. */
  const runMessages = SqlSchema.findAll({
    Request: Schema.String,
    Result: Message,
    execute: (runId) => sql`SELECT ${sql.literal(messageColumns)} FROM messages WHERE run_id = ${runId} ORDER BY ordinal`
  })

  return {
    lockConversation,
    activeRuns,
    lastMessage,
    messageIn,
    insertRun,
    insertMessage,
    touchConversation,
    lockRunForClear,
    clearConversation,
    run,
    runMessages
  } as const
})

/** SQL of conversations and runs. Requires `SqlClient`. */
export class RunsRepo extends Effect.Service<RunsRepo>()("agent-directory/RunsRepo", { effect: make }) {}
