/**
 * The conversation operations of the Runtime group, added to `RuntimeApi`:
 * Runtime_CreateConversation, Runtime_ListConversations and Runtime_ListMessages.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Conversation, CreateConversationRequest, ListConversationsQuery, ListMessagesQuery } from "./Schemas.js"
import { Data, Page } from "../../../schema/envelope.js"
import { AgentNotFound, InvalidCursor, InvalidState, RoleRequired } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { Message } from "../Schemas.js"
import { LocationOf } from "../../api/location.js"
import { operation } from "../../api/operation.js"
import { ConversationNotFound } from "../Errors.js"

/**
 * Who sees a conversation (its messages, its runs), in the words of the descriptions; the
 * rule itself is `seesConversation` in `./Conversations.ts`.
 */
export const conversationVisibility = "A conversation is visible to its author (while an ACTIVE member of the " +
  "workspace operating its agent, whatever the role) and to the OWNER and ADMIN members of that workspace, who see " +
  "every conversation of the agent; other members do not see it."

/** The agent rule of the operations named after an agent. */
const agentRule = "An agent that is not operated by a workspace the caller is an ACTIVE member of (absent, " +
  "directory-only, or another workspace's) is 404 `agent-not-found`: its existence is not revealed."

const AgentPath = Schema.Struct({ entityPublicId: Uuid })

const conversationShape = "A conversation: `id`, `entityPublicId` (its agent), `kind` (CHAT, or PLAYGROUND: the " +
  "operator's test console, whose runs are playground runs), `title` (null when none was given), `authorAccountId` " +
  "(the account that started it, the only one that may send messages in it), `createdAt`, `updatedAt` (moves with " +
  "every message sent), `lastMessageAt` (when its last message was created; null while it has none) and " +
  "`activeRunId` (its run that has not finished yet, at most one, else null)."

const pages = "Pass `nextCursor` back as `cursor` for the next page (null on the last one); a cursor is signed and " +
  "bound to this list and caller: altered, or used for another list or caller, it is refused with 400 " +
  "`invalid-cursor`. `limit` may change between pages."

/** The messages of the created conversation: where its content is read (`Location` of the 201). */
const messagesPath = (body: unknown): string | undefined => {
  const id = (body as { readonly data?: { readonly id?: unknown } } | null)?.data?.id
  return typeof id === "string" ? `/api/v1/conversations/${id}/messages` : undefined
}

/** POST /api/v1/agents/{entityPublicId}/conversations. */
export const createConversation = HttpApiEndpoint.post("createConversation", "/api/v1/agents/:entityPublicId/conversations")
  .setPath(AgentPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(CreateConversationRequest)
  .addSuccess(Data(Conversation), { status: 201 })
  .annotate(LocationOf, messagesPath)
  .pipe(
    operation({
      id: "Runtime_CreateConversation",
      permission: "runtime.converse",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 500],
      summary: "Start a conversation with an agent",
      description: "Starts a conversation with the agent, with no messages yet, and answers 201 with it and, in " +
        "`Location`, the URL of its messages (Runtime_ListMessages; send with Runtime_SendMessage). The caller is its " +
        "author: the only account that may send messages in it. Body: `title` (1-200 characters or null, default " +
        "null), `kind` (CHAT, the default, or PLAYGROUND: its runs are playground runs, whose data " +
        "Runtime_ClearPlaygroundRunData clears). " + conversationShape + " " + agentRule + " Needs the OWNER, " +
        "ADMIN, EDITOR or OPERATOR role, the roles that may run the agent (403 `role-required` otherwise); a RETIRED " +
        "agent takes no new conversation (409 `invalid-state`). No runtime needs to be configured to start one " +
        "(sending does). An agent that sells its runtime (a PUBLISHED offer with runtime access) also takes " +
        "conversations from accounts outside its workspace with the OWNER, ADMIN, EDITOR or OPERATOR role in a workspace " +
        "of theirs: they see only their own, and running needs an entitlement (docs/runtime-access.md). Needs a session " +
        "with its CSRF token and an `Idempotency-Key`: a replay answers the same 201 and creates nothing.",
      errors: [AgentNotFound, RoleRequired, InvalidState]
    })
  )

/** GET /api/v1/agents/{entityPublicId}/conversations. */
export const listConversations = HttpApiEndpoint.get("listConversations", "/api/v1/agents/:entityPublicId/conversations")
  .setPath(AgentPath)
  .setUrlParams(ListConversationsQuery)
  .addSuccess(Page(Conversation, 100))
  .pipe(
    operation({
      id: "Runtime_ListConversations",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 500],
      summary: "The conversations of an agent the caller sees (cursor pages)",
      description: "The agent's conversations the caller sees, most recently updated first (ties: by `id`, " +
        "descending), `limit` per page (1-100, default 25). " + conversationVisibility + " So an OWNER or ADMIN " +
        "lists every conversation of the agent; any other member, whatever the role, lists the conversations they " +
        "started. " + pages + " A conversation updated while you page moves to the front of the list: it is on a new " +
        "first page, not on a later one. " + conversationShape + " " + agentRule,
      errors: [AgentNotFound, InvalidCursor]
    })
  )

/** GET /api/v1/conversations/{conversationId}/messages. */
export const listMessages = HttpApiEndpoint.get("listMessages", "/api/v1/conversations/:conversationId/messages")
  .setPath(Schema.Struct({ conversationId: Uuid }))
  .setUrlParams(ListMessagesQuery)
  .addSuccess(Page(Message, 100))
  .pipe(
    operation({
      id: "Runtime_ListMessages",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 500],
      summary: "The messages of a conversation, in order (cursor pages)",
      description: "The conversation's messages (spec §2.20) in `ordinal` order, oldest first, `limit` per page " +
        "(1-100, default 50), each as it is now: an answer being written is STREAMING with the text so far, a " +
        "cleared playground message REDACTED with `contentText` null. " + pages + " Messages added while you page " +
        "come on the later pages (ordinals only grow). " + conversationVisibility + " A conversation that does not " +
        "exist or that the caller does not see is 404 `conversation-not-found` (its existence is not revealed).",
      errors: [ConversationNotFound, InvalidCursor]
    })
  )
