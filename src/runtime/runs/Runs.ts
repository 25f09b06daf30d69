/**
 * Domain rules of conversations and their runs (spec §2.19, §2.20, §4.4):
 * Runtime_SendMessage and Runtime_ClearPlaygroundRunData. Both run inside the
 * command's one transaction (see `src/http/group.ts`).
 */
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { WorkflowEngine } from "@effect/workflow"
import { ConfigurationMissing } from "../../../schema/errors.js"
import { ConversationAuthorRequired, ConversationNotFound, MessageNotFound, PlaygroundRunRequired, RunInProgress, RunNotFound } from "../Errors.js"
import type { PlaygroundClearResult, SentMessage } from "../Schemas.js"
import { FinishedRunStates } from "../Schemas.js"
import { AgentRun } from "../loop/AgentRunWorkflow.js"
import { RunsRepo } from "./Repo.js"
import { appendRunEvent } from "../events/RunEventLog.js"
import { type AccessInput, AgentOperators, requireRole } from "../../agentAccess/Operators.js"
import { conversationAccess, CustomerRole, seesConversation, seesRun } from "../conversations/Conversations.js"
import { meterRun } from "../../commerce/index.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { rolesFor } from "../../../schema/roles.js"

/** How long a run's data is kept (ms, 30 days) before retention may purge it (`retentionExpiresAt`). */
export const RunRetentionMs = 30 * 24 * 60 * 60 * 1000


const isFinished = (state: string) => (FinishedRunStates as ReadonlyArray<string>).includes(state)

// infrastructure failures are defects (rendered as 500 by the request middleware)

/** Conversations and runs. Requires `SqlClient`, `Ids`, the `WorkflowEngine`. */
export class Runs extends Effect.Service<Runs>()("agent-directory/Runs", {
  effect: Effect.gen(function*() {
    const repo = yield* RunsRepo
    const operators = yield* AgentOperators
    const ids = yield* Ids
    const engine = yield* WorkflowEngine.WorkflowEngine

    /** The agent's access rule, reported as the resource the caller named (its existence is not revealed). */
    const accessVia = <NF, I extends AccessInput>(
      notFound: () => NF,
      input: I
    ) => operators.access(input).pipe(Effect.catchTag("AgentNotFound", () => Effect.fail(notFound())))

    /**
     * Starts a run in a conversation whose row the caller has locked
     * ({@link RunsRepo.lockConversation}), in the caller's transaction: stores `content`
     * as the user's message (COMPLETE) and the assistant's answer (PENDING) at the next
     * two ordinals, queues a run (QUEUED, version 1, `triggerType`, `scheduleId`) and
     * starts the {@link AgentRun} workflow. The one way a run starts, shared by
     * Runtime_SendMessage and the firing of schedules (`../schedules/ScheduleFiring.ts`); the
     * callers check who may start it.
     *
     * Fails with `RunInProgress` (`run-in-progress`): a run of the conversation is still
     * active (one active run per conversation; nothing is written).
     */
    const startRun = (input: {
      readonly conversation: { readonly id: string; readonly agentId: string }
      readonly content: string
      /** The message the user's message answers; null/undefined: the conversation's last message. */
      readonly parentMessageId: string | null | undefined
      readonly triggerType: "MESSAGE" | "PLAYGROUND" | "SCHEDULE"
      /** The schedule whose occurrence starts the run (`triggerType` SCHEDULE), else null. */
      readonly scheduleId: string | null
    }) =>
      Effect.gen(function*() {
        const conversationId = input.conversation.id
        if ((yield* repo.activeRuns(conversationId)).length > 0) {
          return yield* new RunInProgress({
            detail: "A run of this conversation is still active; send again once it has finished."
          })
        }
        const last = yield* repo.lastMessage(conversationId)
        const ordinal = Option.match(last, { onNone: () => 1, onSome: (m) => m.ordinal + 1 })
        const at = yield* now
        const run = yield* repo.insertRun({
          id: yield* ids.next,
          conversationId,
          agentId: input.conversation.agentId,
          triggerType: input.triggerType,
          isPlayground: input.triggerType === "PLAYGROUND",
          scheduleId: input.scheduleId,
          retentionExpiresAt: new Date(at.getTime() + RunRetentionMs),
          at
        })
        const userMessage = yield* repo.insertMessage({
          id: yield* ids.next,
          conversationId,
          ordinal,
          role: "user",
          state: "COMPLETE",
          contentText: input.content,
          parentMessageId: input.parentMessageId ?? Option.getOrNull(Option.map(last, (m) => m.id)),
          runId: run.id,
          at
        })
        const assistantMessage = yield* repo.insertMessage({
          id: yield* ids.next,
          conversationId,
          ordinal: ordinal + 1,
          role: "assistant",
          state: "PENDING",
          contentText: null,
          parentMessageId: userMessage.id,
          runId: run.id,
          at
        })
        yield* repo.touchConversation(conversationId, at)
        yield* appendRunEvent(run.id, { kind: "run.state", data: { runId: run.id, state: "QUEUED", version: run.version, failureCode: null } }, at)
        // in this transaction: a rolled-back start starts no run (layers/Engine.ts)
        yield* AgentRun.execute({ runId: run.id }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        return { userMessage, assistantMessage, run } satisfies SentMessage
      }).pipe(dieOnStorageFailure, Effect.catchTag("NoSuchElementException", Effect.die))

    /**
     * Runtime_SendMessage: checks the caller and the conversation, then
     * {@link startRun} (trigger `PLAYGROUND` in a playground conversation, else
     * `MESSAGE`), all in the caller's transaction. Senders of one conversation are
     * serialized on its row.
     *
     * Who may send: whoever sees the conversation (`seesConversation`, the rule of
     * Runtime_ListMessages and Runtime_GetRun) with a role that may start a conversation
     * (the `runtime.converse` permission: OWNER, ADMIN, EDITOR, OPERATOR), and only its author.
     *
     * Fails with `ConversationNotFound` (`conversation-not-found`: absent, or not visible to
     * the caller), `RoleRequired` (`role-required`: visible, but not OWNER, ADMIN, EDITOR or
     * OPERATOR), `ConversationAuthorRequired` (`conversation-author-required`: an OWNER or
     * ADMIN who is not its author), `MessageNotFound` (`message-not-found`:
     * `parentMessageId` is not a message of this conversation), `ConfigurationMissing`
     * (`configuration-missing`: the agent has no runtime), `RunInProgress` (`run-in-progress`),
     * `PaymentRequired` (`payment-required`: the agent sells its runtime and the caller, not one
     * of its operators, has no entitlement with runs left; docs/runtime-access.md).
     *
     * Customers: an account outside the agent's workspace sends in its own conversation of an
     * agent selling runtime access (`conversationAccess`); each run takes one run of an entitlement.
     */
    const send = (input: {
      readonly conversationId: string
      readonly accountId: string
      readonly content: string
      readonly parentMessageId: string | null | undefined
    }) =>
      Effect.gen(function*() {
        const notFound = () => new ConversationNotFound({ detail: `No conversation ${input.conversationId} visible to you.` })
        const conversation = yield* repo.lockConversation(input.conversationId)
        if (Option.isNone(conversation)) return yield* notFound()
        const { agentId, accountId: authorId, kind } = conversation.value
        const access = yield* conversationAccess(operators, { entityPublicId: agentId, accountId: input.accountId }).pipe(
          Effect.catchTag("AgentNotFound", () => Effect.fail(notFound()))
        )
        // who may not read the conversation (Runtime_ListMessages' rule) is told it does not exist, before any role is asked
        if (!seesConversation(access, input.accountId, authorId)) return yield* notFound()
        // sending starts a run: the roles that may start a conversation (Runtime_CreateConversation); a customer's
        // roles are those of their own workspaces, checked with their entitlement below
        if (access.role !== CustomerRole) {
          yield* requireRole(access, { allowed: rolesFor("runtime.converse"), action: "Sending a message (starting a run)" })
        }
        if (authorId !== input.accountId) {
          return yield* new ConversationAuthorRequired({
            detail: "Only the account that started the conversation may send messages in it."
          })
        }
        if (!access.runtimeConfigured) {
          return yield* new ConfigurationMissing({
            detail: "The conversation's agent has no runtime configured; configure its runtime first."
          })
        }
        if (input.parentMessageId != null) {
          const parent = yield* repo.messageIn({ messageId: input.parentMessageId, conversationId: input.conversationId })
          if (Option.isNone(parent)) {
            return yield* new MessageNotFound({
              detail: "parentMessageId names no message of this conversation."
            })
          }
        }
        if ((yield* repo.activeRuns(input.conversationId)).length === 0) {
          // the run's entitlement (docs/runtime-access.md): one run of it, in this transaction; 402 without one
          yield* meterRun({ agentId, accountId: input.accountId })
        }
        return yield* startRun({
          conversation: conversation.value,
          content: input.content,
          parentMessageId: input.parentMessageId,
          triggerType: kind === "PLAYGROUND" ? "PLAYGROUND" : "MESSAGE",
          scheduleId: null
        })
      }).pipe(dieOnStorageFailure)

    /**
     * Runtime_ClearPlaygroundRunData: redacts every message of the playground run's
     * conversation (state REDACTED, `contentText` null, `contentParts` empty) and sets
     * `dataClearedAt` of its finished runs. Clearing again changes nothing and returns
     * the same result (the first `dataClearedAt`).
     *
     * Who may clear: whoever may read the run (Runtime_GetRun: its conversation's author, or
     * an OWNER or ADMIN of the workspace operating the agent), with the OWNER, ADMIN, EDITOR
     * or OPERATOR role.
     *
     * Fails with `RunNotFound` (`run-not-found`: absent, or not visible to the caller, as
     * Runtime_GetRun answers), `RoleRequired` (`role-required`: visible, but not OWNER,
     * ADMIN, EDITOR or OPERATOR), `PlaygroundRunRequired` (`playground-run-required`),
     * `RunInProgress` (`run-in-progress`: the run, or another run of its conversation, is
     * still active).
     */
    const clearPlaygroundData = (input: { readonly runId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const notFound = `No run ${input.runId} visible to you.`
        const found = yield* repo.lockRunForClear(input.runId)
        if (Option.isNone(found)) return yield* new RunNotFound({ detail: notFound })
        const run = found.value
        // who may not read the run (Runtime_GetRun's rule) is told it does not exist, before any role is asked
        const access = yield* accessVia(() => new RunNotFound({ detail: notFound }), {
          entityPublicId: run.agentId,
          accountId: input.accountId
        })
        if (!seesRun(access, input.accountId, run.authorAccountId)) return yield* new RunNotFound({ detail: notFound })
        yield* requireRole(access, { allowed: rolesFor("runtime.control"), action: "Clearing playground data" })
        if (!run.isPlayground || run.conversationId === null) {
          return yield* new PlaygroundRunRequired({
            detail: "Only a playground run's data can be cleared; this run is not one."
          })
        }
        const result = (dataClearedAt: Date | null): PlaygroundClearResult => ({
          runId: run.runId,
          conversationId: run.conversationId!,
          state: run.state,
          retentionExpiresAt: run.retentionExpiresAt,
          dataClearedAt
        })
        if (run.dataClearedAt !== null) return result(run.dataClearedAt)
        if (!isFinished(run.state) || (yield* repo.activeRuns(run.conversationId)).length > 0) {
          return yield* new RunInProgress({
            detail: "The run or another run of its conversation is still active; clear its data once it has finished."
          })
        }
        const at = yield* now
        yield* repo.clearConversation(run.conversationId, at)
        return result(at)
      }).pipe(dieOnStorageFailure)

    return { send, startRun, clearPlaygroundData }
  }),
  dependencies: [RunsRepo.Default, AgentOperators.Default]
}) {}
