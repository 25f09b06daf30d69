/**
 * SQL of the conversation reads and their creation (tables of
 * migrations 0010, 0011, indexes of 0025): conversations in the wire shape of
 * `Conversation` (src/runtime/conversations/Schemas.ts), their messages in the shape of `Message`
 * (spec §2.20), one keyset page at a time.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Conversation } from "./Schemas.js"
import { FinishedRunStates, Message } from "../Schemas.js"

const finished = `(${FinishedRunStates.map((s) => `'${s}'`).join(", ")})`

/** The wire columns of a conversation `c`: its last message and its active run (at most one, migration 0011). */
const conversationColumns = `c.id, c.agent_id AS "entityPublicId", c.kind, c.title, c.account_id AS "authorAccountId",
  api_ts(c.created_at) AS "createdAt", api_ts(c.updated_at) AS "updatedAt",
  (SELECT api_ts(m.created_at) FROM messages m WHERE m.conversation_id = c.id ORDER BY m.ordinal DESC LIMIT 1)
    AS "lastMessageAt",
  (SELECT r.id FROM runs r WHERE r.conversation_id = c.id AND r.state NOT IN ${finished} LIMIT 1) AS "activeRunId"`

const messageColumns = `id, ordinal::text AS ordinal, role, state, content_text AS "contentText",
  content_parts AS "contentParts", run_id AS "runId", api_ts(created_at) AS "createdAt", api_ts(completed_at) AS "completedAt"`

/**
 * Keyset position in an agent's conversation list: `updated_at` as text with
 * microseconds (UTC) and the conversation id, which breaks ties (most recent first).
 */
export const ConversationPosition = Schema.Tuple(Schema.String, Schema.String)
export type ConversationPosition = typeof ConversationPosition.Type

/** Keyset position in a conversation's messages: the `ordinal` of the last message of the page. */
export const MessagePosition = Schema.String.pipe(Schema.pattern(/^[1-9][0-9]{0,17}$/))
export type MessagePosition = typeof MessagePosition.Type

const ConversationRow = Schema.Struct({ ...Conversation.fields, position: Schema.String })

/** Who a conversation belongs to: its agent and its author. */
const OwnerRow = Schema.Struct({ agentId: Schema.String, authorAccountId: Schema.String })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** Inserts a conversation (no messages yet) and returns it. */
  const insert = SqlSchema.single({
    Request: Schema.Struct({
      id: Schema.String,
      agentId: Schema.String,
      accountId: Schema.String,
      kind: Schema.String,
      title: Schema.NullOr(Schema.String),
      at: Schema.DateFromSelf
    }),
    Result: Conversation,
    execute: (r) =>
      sql`WITH c AS (
            INSERT INTO conversations (id, agent_id, account_id, kind, title, created_at, updated_at)
            VALUES (${r.id}, ${r.agentId}, ${r.accountId}, ${r.kind}, ${r.title}, ${r.at}, ${r.at})
            RETURNING *
          )
          SELECT ${sql.literal(conversationColumns)} FROM c`
  })

  /** The conversation's agent and author, if it exists. */
  const owner = SqlSchema.findOne({
    Request: Schema.String,
    Result: OwnerRow,
    execute: (id) => sql`SELECT agent_id AS "agentId", account_id AS "authorAccountId" FROM conversations WHERE id = ${id}`
  })

  const list = SqlSchema.findAll({
    Request: Schema.Struct({
      agentId: Schema.String,
      authorAccountId: Schema.NullOr(Schema.String),
      after: Schema.NullOr(ConversationPosition),
      take: Schema.Number
    }),
    Result: ConversationRow,
    execute: (r) =>
      sql`SELECT ${sql.literal(conversationColumns)},
            to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
          FROM conversations c
          WHERE c.agent_id = ${r.agentId}
            ${r.authorAccountId === null ? sql`` : sql`AND c.account_id = ${r.authorAccountId}`}
            ${r.after === null ? sql`` : sql`AND (c.updated_at, c.id) < (${r.after[0]}::timestamptz, ${r.after[1]}::uuid)`}
          ORDER BY c.updated_at DESC, c.id DESC
          LIMIT ${r.take}`
  })

  const messages = SqlSchema.findAll({
    Request: Schema.Struct({ conversationId: Schema.String, after: Schema.NullOr(MessagePosition), take: Schema.Number }),
    Result: Message,
    execute: (r) =>
      sql`SELECT ${sql.literal(messageColumns)} FROM messages
          WHERE conversation_id = ${r.conversationId}
            ${r.after === null ? sql`` : sql`AND ordinal > ${r.after}::bigint`}
          ORDER BY ordinal
          LIMIT ${r.take}`
  })

  return {
    insert,
    owner,
    /**
     * The agent's conversations (only `authorAccountId`'s when not null), most recently
     * updated first, strictly after `after`, at most `take`, with their positions.
     */
    list: (r: {
      readonly agentId: string
      readonly authorAccountId: string | null
      readonly after: ConversationPosition | undefined
      readonly take: number
    }) =>
      Effect.map(list({ ...r, after: r.after ?? null }), (rows) =>
        rows.map(({ position, ...conversation }) => ({
          conversation,
          position: [position, conversation.id] as ConversationPosition
        }))),
    /** The conversation's messages by ordinal, strictly after the ordinal `after`, at most `take`. */
    messages: (r: { readonly conversationId: string; readonly after: MessagePosition | undefined; readonly take: number }) =>
      messages({ ...r, after: r.after ?? null })
  } as const
})

/** SQL of conversations and their messages. Requires `SqlClient`. */
export class ConversationsRepo extends Effect.Service<ConversationsRepo>()("agent-directory/ConversationsRepo", {
  effect: make
}) {}
