/**
 * Conversations of an agent: Runtime_CreateConversation,
 * Runtime_ListConversations and Runtime_ListMessages, and the one rule of who sees a
 * conversation (`seesConversation`), which Runtime_GetRun shares (described to clients by
 * `conversationVisibility` in `./Api.ts`).
 *
 * Who sees what: a conversation is its author's. The author sees it (and its
 * messages and runs) while an ACTIVE member of the workspace operating the agent,
 * whatever the role; the workspace's OWNER and ADMIN members see every conversation
 * of the agent (they answer for what it says). Everyone else, other members
 * included, is told it does not exist (404).
 *
 * Customers (docs/runtime-access.md): an agent that sells its runtime (a PUBLISHED offer with
 * `runtime_access`) may be conversed with by accounts outside its workspace; their standing is
 * {@link CustomerRole}, and they see only their own conversations and runs.
 */
import { Effect, Option } from "effect"
import { Cursor } from "../../../layers/Cursor.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import type { ConversationKind } from "./Schemas.js"
import { type AgentAccess, AgentOperators, requireActiveAgent } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { ConversationPosition, ConversationsRepo, MessagePosition } from "./Repo.js"
import { ConversationNotFound } from "../Errors.js"
import { can, rolesFor } from "../../../schema/roles.js"
import { AgentNotFound } from "../../../schema/errors.js"
import { runtimeCustomer } from "../../commerce/index.js"

/**
 * The standing (`AgentAccess.role`) of a runtime customer: an account outside the agent's
 * workspace conversing with an agent that sells its runtime. It holds no workspace permission.
 */
export const CustomerRole = "CUSTOMER"

/**
 * The caller's standing on the agent for conversations: an operator's (`AgentOperators.access`),
 * else a runtime customer's ({@link CustomerRole}: the agent sells runtime access and the caller
 * may converse in a workspace of theirs), else `AgentNotFound`.
 */
export const conversationAccess = (operators: AgentOperators, input: { readonly entityPublicId: string; readonly accountId: string }) =>
  operators.access(input).pipe(
    Effect.catchTag("AgentNotFound", (notFound) =>
      Effect.flatMap(runtimeCustomer({ agentId: input.entityPublicId, accountId: input.accountId }), (customer) =>
        Option.match(customer, {
          onNone: () => Effect.fail<AgentNotFound>(notFound),
          onSome: (c): Effect.Effect<AgentAccess, AgentNotFound> =>
            Effect.succeed({ workspaceId: "", role: CustomerRole, state: c.state, runtimeConfigured: c.runtimeConfigured })
        })))
  )

/** Whether `access` (the caller's standing on the agent) sees every conversation of the agent. */
export const seesAllConversations = (access: AgentAccess): boolean =>
  can(access.role, "runtime.oversee")

/**
 * Whether the caller (`accountId`, with `access` on the conversation's agent) sees a
 * conversation started by `authorAccountId`: its author, or an OWNER or ADMIN.
 */
export const seesConversation = (access: AgentAccess, accountId: string, authorAccountId: string): boolean =>
  authorAccountId === accountId || seesAllConversations(access)

/**
 * Whether the caller sees a run (Runtime_GetRun's rule, which every operation on a run
 * applies before its own): a run of a conversation (`authorAccountId` its author) is
 * seen by whoever sees the conversation; a run without one (`authorAccountId` null) by
 * every ACTIVE member of the workspace operating its agent (`access` exists, not a customer's).
 */
export const seesRun = (access: AgentAccess, accountId: string, authorAccountId: string | null): boolean =>
  authorAccountId === null ? access.role !== CustomerRole : seesConversation(access, accountId, authorAccountId)

/** Conversations. Requires `SqlClient`, `Ids`, `Cursor`. */
export class Conversations extends Effect.Service<Conversations>()("agent-directory/Conversations", {
  effect: Effect.gen(function*() {
    const repo = yield* ConversationsRepo
    const operators = yield* AgentOperators
    const ids = yield* Ids
    const cursor = yield* Cursor

    /**
     * Runtime_CreateConversation: a conversation of `kind` with the agent, started by the
     * caller (its author), no messages yet. Runs in the command's transaction.
     *
     * Fails with `AgentNotFound` (`agent-not-found`: not an agent of the caller's
     * workspaces), `RoleRequired` (`role-required`: not OWNER, ADMIN, EDITOR or OPERATOR),
     * `InvalidState` (`invalid-state`: the agent is retired).
     */
    const create = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly title: string | null
      readonly kind: ConversationKind
    }) =>
      Effect.gen(function*() {
        const access = yield* operators.access({
          entityPublicId: input.entityPublicId,
          accountId: input.accountId,
          roles: { allowed: rolesFor("runtime.converse"), action: "Starting a conversation" }
        }).pipe(
          // a runtime customer (docs/runtime-access.md) starts their own conversation; running it needs an entitlement
          Effect.catchTag("AgentNotFound", () => conversationAccess(operators, input))
        )
        yield* requireActiveAgent(access, "Starting a conversation")
        return yield* repo.insert({
          id: yield* ids.next,
          agentId: input.entityPublicId,
          accountId: input.accountId,
          kind: input.kind,
          title: input.title,
          at: yield* now
        })
      }).pipe(dieOnStorageFailure, Effect.catchTag("NoSuchElementException", Effect.die))

    /**
     * Runtime_ListConversations: one page of the agent's conversations the caller sees
     * (all of them for an OWNER or ADMIN, else the caller's own), most recently updated
     * first (ties by id, descending). The cursor is bound to the agent, the caller and
     * which of the two lists it pages.
     *
     * Fails with `AgentNotFound` (`agent-not-found`), `InvalidCursor` (`invalid-cursor`).
     */
    const list = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly limit: number
      readonly cursor?: string | undefined
    }) =>
      Effect.gen(function*() {
        const access = yield* operators.access({ entityPublicId: input.entityPublicId, accountId: input.accountId })
        const all = seesAllConversations(access)
        const page = yield* cursor.page({
          position: ConversationPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: {
            operation: "Runtime_ListConversations",
            agent: input.entityPublicId.toLowerCase(),
            principal: input.accountId,
            scope: all ? "all" : "own"
          },
          limit: input.limit,
          fetch: (after, take) =>
            repo.list({ agentId: input.entityPublicId, authorAccountId: all ? null : input.accountId, after, take }),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.conversation), nextCursor: page.nextCursor }
      }).pipe(dieOnStorageFailure)

    /**
     * Runtime_ListMessages: one page of the conversation's messages in ordinal order
     * (oldest first), for a caller who sees the conversation. The cursor is bound to the
     * conversation and the caller.
     *
     * Fails with `ConversationNotFound` (`conversation-not-found`: absent, or not visible
     * to the caller), `InvalidCursor` (`invalid-cursor`).
     */
    const messages = (input: {
      readonly conversationId: string
      readonly accountId: string
      readonly limit: number
      readonly cursor?: string | undefined
    }) =>
      Effect.gen(function*() {
        const notFound = () =>
          new ConversationNotFound({ detail: `No conversation ${input.conversationId} visible to you.` })
        const owner = yield* repo.owner(input.conversationId)
        if (Option.isNone(owner)) return yield* notFound()
        const access = yield* conversationAccess(operators, { entityPublicId: owner.value.agentId, accountId: input.accountId }).pipe(
          Effect.catchTag("AgentNotFound", () => Effect.fail(notFound()))
        )
        if (!seesConversation(access, input.accountId, owner.value.authorAccountId)) return yield* notFound()
        const page = yield* cursor.page({
          position: MessagePosition,
          cursor: input.cursor,
          param: "cursor",
          binding: {
            operation: "Runtime_ListMessages",
            conversation: input.conversationId.toLowerCase(),
            principal: input.accountId
          },
          limit: input.limit,
          fetch: (after, take) => repo.messages({ conversationId: input.conversationId, after, take }),
          positionOf: (message) => message.ordinal
        })
        return { rows: page.rows, nextCursor: page.nextCursor }
      }).pipe(dieOnStorageFailure)

    return { create, list, messages }
  }),
  dependencies: [ConversationsRepo.Default, AgentOperators.Default]
}) {}
