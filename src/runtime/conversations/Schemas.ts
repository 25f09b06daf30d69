/**
 * Conversations of an agent (spec §2.20 for their messages and runs):
 * the resource of Runtime_CreateConversation and Runtime_ListConversations, their
 * request body and the query of the conversation and message lists.
 */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, rule, StrictStruct, Uuid, WireString } from "../../../schema/common.js"

/** Conversation kinds: CHAT (a conversation with the agent) or PLAYGROUND (the operator's test console). */
export const ConversationKind = Schema.Literal("CHAT", "PLAYGROUND").annotations({ identifier: "ConversationKind" })
export type ConversationKind = typeof ConversationKind.Type

/**
 * A conversation with an agent. `authorAccountId`: the account that started it, the only
 * one that may send in it. `updatedAt` moves on every message sent; `lastMessageAt` is
 * the creation time of its last message (null while it has none); `activeRunId` the run
 * of the conversation that has not finished yet (at most one), or null.
 */
export const Conversation = Schema.Struct({
  id: Uuid,
  entityPublicId: Uuid,
  kind: ConversationKind,
  title: Schema.NullOr(Schema.String),
  authorAccountId: Uuid,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ,
  lastMessageAt: Schema.NullOr(DateTimeZ),
  activeRunId: Schema.NullOr(Uuid)
}).annotations({ identifier: "Conversation" })
export type Conversation = typeof Conversation.Type

/** Body of Runtime_CreateConversation: `title` 1-200 characters or null (default null), `kind` (default CHAT). */
export const CreateConversationRequest = StrictStruct({
  title: Schema.optionalWith(Schema.NullOr(WireString(1, 200)), { default: () => null, exact: true }),
  kind: Schema.optionalWith(
    ConversationKind.annotations(rule("must be CHAT or PLAYGROUND")),
    { default: () => "CHAT" as const, exact: true }
  )
}).annotations({ identifier: "CreateConversationRequest" })
export type CreateConversationRequest = typeof CreateConversationRequest.Type

/** Query of Runtime_ListConversations: `limit` 1-100 (default 25), `cursor` (1-2048 characters, a signed `nextCursor`). */
export const ListConversationsQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})

/** Query of Runtime_ListMessages: `limit` 1-100 (default 50), `cursor` (1-2048 characters, a signed `nextCursor`). */
export const ListMessagesQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 50 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})
