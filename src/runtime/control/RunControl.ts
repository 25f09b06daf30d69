/**
 * Run control: a person's decision on a tool call that needs approval
 * (Runtime_DecideToolApproval) and cancelling a run (Runtime_CancelRun). Both run in the
 * command's one transaction (`src/http/group.ts`): the change, its run events and the
 * signal to the run's workflow (`signalApproval`: the engine's request row is written in
 * the same transaction, so a rolled-back command wakes nothing).
 */
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { InvalidState, VersionConflict } from "../../../schema/errors.js"
import type { ToolApprovalResult } from "./Schemas.js"
import type { Run } from "../Schemas.js"
import { FinishedRunStates } from "../Schemas.js"
import { AgentOperators, requireRole } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { signalApproval } from "../loop/AgentRunWorkflow.js"
import { ApprovalNotPending, RunNotFound, ToolCallNotFound } from "../Errors.js"
import { seesRun } from "../conversations/Conversations.js"
import { RunLoopRepo } from "../loop/Repo.js"
import { rolesFor } from "../../../schema/roles.js"


const isFinished = (state: string) => (FinishedRunStates as ReadonlyArray<string>).includes(state)

/** Decisions and cancels. Requires `SqlClient`, the `WorkflowEngine`. */
export class RunControl extends Effect.Service<RunControl>()("agent-directory/RunControl", {
  effect: Effect.gen(function*() {
    const repo = yield* RunLoopRepo
    const operators = yield* AgentOperators
    const engine = yield* WorkflowEngine.WorkflowEngine

    /**
     * The run, row locked, if the caller may act on it: first who may read it (Runtime_GetRun's
     * rule, `seesRun`; anyone else gets `RunNotFound`, its existence not revealed), then the
     * role (`RoleRequired`).
     */
    const lockRun = (runId: string, accountId: string, action: string) =>
      Effect.gen(function*() {
        const notFound = () => new RunNotFound({ detail: `No run ${runId} visible to you.` })
        const found = yield* repo.lockForControl(runId)
        if (Option.isNone(found)) return yield* notFound()
        const access = yield* operators.access({ entityPublicId: found.value.agentId, accountId }).pipe(
          Effect.catchTag("AgentNotFound", () => Effect.fail(notFound()))
        )
        if (!seesRun(access, accountId, found.value.authorAccountId)) return yield* notFound()
        yield* requireRole(access, { allowed: rolesFor("runtime.control"), action })
        return found.value
      })

    const versionConflict = (current: number) =>
      new VersionConflict({ detail: `expectedVersion is not the run's current version (${current}); read the run again.` })

    /**
     * Runtime_DecideToolApproval: APPROVE records the approval (the call then runs), DENY
     * ends the call DENIED with an error result the model sees ("denied by a person").
     * The run's version grows by one; a run waiting for this call (APPROVAL_REQUIRED)
     * is RUNNING again. Then the run's wait for the call ends.
     *
     * Fails with `RunNotFound` (absent, or not visible to the caller, as Runtime_GetRun
     * answers), `RoleRequired` (visible, but not OWNER, ADMIN, EDITOR or OPERATOR),
     * `ToolCallNotFound`, `VersionConflict`,
     * `ApprovalNotPending` (the call awaits no decision: decided, not needing one, ended,
     * or its run is over).
     */
    const decide = (input: {
      readonly runId: string
      readonly accountId: string
      readonly toolCallId: string
      readonly decision: "APPROVE" | "DENY"
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        const run = yield* lockRun(input.runId, input.accountId, "Deciding tool approvals")
        const call = yield* repo.lockCall({ runId: input.runId, id: input.toolCallId })
        if (Option.isNone(call)) {
          return yield* new ToolCallNotFound({ detail: `No tool call ${input.toolCallId} in this run.` })
        }
        if (run.version !== input.expectedVersion) return yield* versionConflict(run.version)
        if (isFinished(run.state) || call.value.approvalState !== "PENDING" || !["PENDING", "APPROVAL_REQUIRED"].includes(call.value.state)) {
          return yield* new ApprovalNotPending({
            detail: "This tool call awaits no decision: it was decided already, needs none, or its run is over."
          })
        }
        const at = yield* now
        if (input.decision === "APPROVE") {
          yield* repo.approveCall({ runId: input.runId, id: input.toolCallId, decidedBy: input.accountId, at })
        } else {
          const messageId = Option.getOrThrow(yield* repo.answerOf(input.runId))
          yield* repo.endCall({
            runId: input.runId,
            messageId,
            id: input.toolCallId,
            state: "DENIED",
            result: { error: "A person denied this tool call; it was not run." },
            isError: true,
            errorCode: "DENIED",
            at,
            decision: { approvalState: "DENIED", decidedBy: input.accountId }
          })
        }
        const resumed = call.value.state === "APPROVAL_REQUIRED" && run.state === "APPROVAL_REQUIRED"
          ? yield* repo.move(input.runId, ["APPROVAL_REQUIRED"], "RUNNING", at)
          : Option.none()
        if (Option.isNone(resumed)) yield* repo.touch(input.runId, at)
        yield* signalApproval(input.runId, input.toolCallId, input.decision).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        return {
          run: Option.getOrThrow(yield* repo.run(input.runId)),
          toolCall: Option.getOrThrow(yield* repo.toolCall({ runId: input.runId, id: input.toolCallId }))
        } satisfies ToolApprovalResult
      }).pipe(dieOnStorageFailure)

    /**
     * Runtime_CancelRun: an active run → CANCELLED now (`cancelRequestedAt`, `completedAt`),
     * its unfinished answer CANCELLED, its unfinished tool calls and steps CANCELLED; the
     * run's workflow stops at its next boundary and a wait for an approval ends.
     *
     * Fails with `RunNotFound` (absent, or not visible to the caller, as Runtime_GetRun
     * answers), `RoleRequired` (visible, but not OWNER, ADMIN, EDITOR or OPERATOR),
     * `VersionConflict`, `InvalidState` (the run is already over).
     */
    const cancel = (input: { readonly runId: string; readonly accountId: string; readonly expectedVersion: number }) =>
      Effect.gen(function*() {
        const run = yield* lockRun(input.runId, input.accountId, "Cancelling runs")
        if (run.version !== input.expectedVersion) return yield* versionConflict(run.version)
        if (isFinished(run.state)) {
          return yield* new InvalidState({ detail: `The run is already over (${run.state}); only an active run can be cancelled.` })
        }
        const waiting = yield* repo.pendingApprovals(input.runId)
        yield* repo.finish({ runId: input.runId, state: "CANCELLED", failureCode: null, messageState: "CANCELLED", at: yield* now, cancelRequested: true })
        yield* Effect.forEach(waiting, (id) => signalApproval(input.runId, id, "CANCEL"), { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        return Option.getOrThrow(yield* repo.run(input.runId)) satisfies Run
      }).pipe(dieOnStorageFailure)

    return { decide, cancel }
  }),
  dependencies: [RunLoopRepo.Default, AgentOperators.Default]
}) {}
