/**
 * The workflow that runs a conversation's run (spec §2.20, §3 run states):
 * started by Runtime_SendMessage in its transaction (`layers/Engine.ts`), answered by the
 * `AgentRuntime` model seam, one execution per run (the execution id is derived from the
 * run id). A loop of at most `RUN_MAX_STEPS` model calls; each step may ask for tool
 * calls, which run before the next step sees their results.
 *
 * Activities (each one's outcome is stored by the engine, so a runner that takes over
 * after a crash never repeats one that completed):
 * 1. `start`: run QUEUED → RUNNING with its `provider`, `model` and `deadlineAt` (now +
 *    `RUN_TIMEOUT_SECONDS`), answer PENDING → STREAMING. A run that is no longer active
 *    is left alone; one whose agent has no runtime configured any more ends FAILED
 *    {@link ConfigurationMissingCode}.
 * 2. `step/<n>`: one model call (`./Repo.ts` records it): the conversation so far
 *    plus this run's tool calls and results; the agent's granted, available tools
 *    (none on the last step); text streamed into the answer in coalesced
 *    `message.delta` writes; then the step's usage (`usage`), its text part, and its
 *    tool calls (PENDING; approval PENDING when the tool's grant is APPROVAL_REQUIRED,
 *    its `riskClass` HIGH, or its definition is not the one a person approved (granted, or
 *    approved in an earlier call; else its first version): a changed definition is never
 *    called before a person approves it; arguments that fail the tool's `inputSchema` or an unknown
 *    tool: FAILED at once, `INVALID_ARGUMENTS` / `UNKNOWN_TOOL`, the model gets the
 *    message). No tool call: run SUCCEEDED, answer COMPLETE. Retryable model failures
 *    and crashes are tried again ({@link AgentRunMaxAttempts} attempts, the step's text
 *    rewritten, never appended twice); the last failure ends the run FAILED with the
 *    runtime's `failureCode` ({@link InternalErrorCode} for a crash).
 * 3. per tool call needing approval, `ask/<id>`: run → APPROVAL_REQUIRED, the call →
 *    APPROVAL_REQUIRED; then a durable wait: the call's {@link approvalDeferred}
 *    (completed by Runtime_DecideToolApproval or Runtime_CancelRun) raced with the
 *    durable clock `deadline` (the run's `deadlineAt`).
 * 4. per tool call, `tool/<id>`: runs the call once (`../tools/ToolRunner.ts`) and stores
 *    its result (`tool_result` part, `tool_call` events). A call found RUNNING (its
 *    runner died during the call) is run again only when its tool only reads
 *    (`executionClass` READ); any other ends FAILED {@link ToolInterruptedCode}: a
 *    side effect is never repeated.
 *
 * Every activity first checks the run is still active (a cancelled run stops at the
 * next boundary) and its deadline (past it: TIMED_OUT, answer FAILED, unfinished tool
 * calls CANCELLED); every final move is conditional on the run still being active. A run
 * that SUCCEEDED records its public activity item in the same transaction (./RunActivity.ts). A
 * run still asking for tools after its last step ends FAILED {@link MaxStepsCode}.
 */
import { SqlClient } from "@effect/sql"
import { Activity, DurableClock, DurableDeferred, Workflow } from "@effect/workflow"
import { Cause, Chunk, Data, Duration, Effect, Exit, Option, Schedule, Schema, Stream } from "effect"
import { AgentRuntime, AgentRuntimeError, type ModelMessage, type ModelToolCall } from "../../../layers/AgentRuntime.js"
import { RuntimeSettings } from "../Config.js"
import { now } from "../../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../../layers/Engine.js"
import { Ids } from "../../../layers/Ids.js"
import { Uuid } from "../../../schema/common.js"
import { FinishedRunStates } from "../Schemas.js"
import { recordRunCompleted } from "./RunActivity.js"
import { type CallRow, type ContentPart, FinishedToolCallStates, RunLoopRepo, RunWork } from "./Repo.js"
import { validateArguments } from "../tools/ArgumentValidator.js"
import { modelToolName, modelToolNames } from "../tools/ModelToolNames.js"
import { ToolRunner } from "../tools/ToolRunner.js"

/** Attempts of one model step; the last one always leaves the run finished. */
export const AgentRunMaxAttempts = 3

/** `failureCode` of a run whose runtime is not configured any more when the run starts. */
export const ConfigurationMissingCode = "RUNTIME_NOT_CONFIGURED"
/** `failureCode` of a run ended by an unexpected failure on its last attempt. */
export const InternalErrorCode = "INTERNAL_ERROR"
/** `failureCode` of a run whose model still asked for tools after its last step. */
export const MaxStepsCode = "MAX_STEPS_EXCEEDED"
/** `errorCode` of a tool call with side effects whose runner died during the call (not repeated). */
export const ToolInterruptedCode = "TOOL_INTERRUPTED"

/** The workflow: run `runId` (stable name `AgentRun`; execution id from `runId`). */
export const AgentRun = Workflow.make({
  name: "AgentRun",
  payload: { runId: Uuid },
  idempotencyKey: ({ runId }) => runId
})

/** What completes the wait for a person's decision on a tool call. */
export const ApprovalSignal = Schema.Literal("APPROVE", "DENY", "CANCEL")
export type ApprovalSignal = typeof ApprovalSignal.Type

/** The durable deferred of tool call `toolCallId`'s approval (one per call, in its run's execution). */
export const approvalDeferred = (toolCallId: string) => DurableDeferred.make(`approval/${toolCallId}`, { success: ApprovalSignal })

/**
 * Ends the wait of run `runId` for a decision on tool call `toolCallId` with `signal`
 * (before the wait began, the wait ends at once). Call it in the transaction that
 * records the decision. Requires the `WorkflowEngine`.
 */
export const signalApproval = (runId: string, toolCallId: string, signal: ApprovalSignal) =>
  Effect.gen(function*() {
    const deferred = approvalDeferred(toolCallId)
    const token = yield* DurableDeferred.tokenFromPayload(deferred, { workflow: AgentRun, payload: { runId } })
    yield* DurableDeferred.done(deferred, { token, exit: Exit.succeed(signal) })
  })

/** What a step hands to the loop: the run ended, or tool calls to run (in order). */
const StepOutcome = Schema.Union(
  Schema.TaggedStruct("Ended", {}),
  Schema.TaggedStruct("Tools", { calls: Schema.Array(Schema.Struct({ id: Schema.String, needsApproval: Schema.Boolean })) })
)
type StepOutcome = typeof StepOutcome.Type
const ended: StepOutcome = { _tag: "Ended" }

/** How a wait for approval ended. */
const WaitOutcome = Schema.Literal("APPROVE", "DENY", "CANCEL", "TIMEOUT")

/** Pause before model attempt n+1 (0.2 s, doubling). */
const retryDelays = Schedule.exponential("200 millis")

/** Streamed text is written at most this many deltas, or this often, at a time. */
const DeltaBatch = 64
const DeltaWindow = "150 millis"

/** The run's deadline passed while the model answered. */
class DeadlinePassed extends Data.TaggedError("DeadlinePassed")<{}> {}

const isActive = (state: string) => !(FinishedRunStates as ReadonlyArray<string>).includes(state)
const isCallFinished = (state: string) => (FinishedToolCallStates as ReadonlyArray<string>).includes(state)

/**
 * The model's view of this run so far: the answer's parts walked in order, each step's
 * text and tool calls as an assistant turn, each result as a tool message.
 */
const runMessages = (
  parts: ReadonlyArray<ContentPart>,
  calls: ReadonlyArray<CallRow>,
  nameOf: (stableName: string) => string
): Array<ModelMessage> => {
  const byId = new Map(calls.map((c) => [c.id, c]))
  const out: Array<ModelMessage> = []
  let turn: { text: string; toolCalls: Array<ModelToolCall> } | undefined
  const flush = () => {
    if (turn !== undefined) out.push({ role: "assistant", text: turn.text, toolCalls: turn.toolCalls })
    turn = undefined
  }
  for (const part of parts) {
    if (part.type === "text") {
      if (turn !== undefined && turn.toolCalls.length > 0) flush()
      turn ??= { text: "", toolCalls: [] }
      turn.text += part.text
    } else if (part.type === "tool_call") {
      turn ??= { text: "", toolCalls: [] }
      const call = byId.get(part.toolCallId)
      turn.toolCalls.push({ id: call?.providerCallId ?? part.toolCallId, name: nameOf(part.stableName), arguments: part.arguments })
    } else {
      flush()
      const call = byId.get(part.toolCallId)
      out.push({
        role: "tool",
        toolCallId: call?.providerCallId ?? part.toolCallId,
        name: nameOf(call?.stableName ?? ""),
        result: part.result,
        isError: part.isError
      })
    }
  }
  flush()
  return out
}

/**
 * The workflow's implementation, registered on the engine. Requires `SqlClient`,
 * `RunLoopRepo`, `ToolRunner`, `AgentRuntime`, `RuntimeSettings`, `Ids` (plus the engine).
 */
export const AgentRunLive = AgentRun.toLayer(({ runId }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* RunLoopRepo
    const runtime = yield* AgentRuntime
    const tools = yield* ToolRunner
    const config = yield* RuntimeSettings
    const ids = yield* Ids
    const tx = <A, E, R>(self: Effect.Effect<A, E, R>) => retryTransient(sql.withTransaction(self))

    const endRun = (state: "FAILED" | "TIMED_OUT", failureCode: string | null) =>
      Effect.flatMap(now, (at) =>
        tx(repo.finish({ runId, state, failureCode, messageState: "FAILED", at })))

    /**
     * An activity's body that never leaves the run active on a defect: an unexpected
     * failure ends the run FAILED `INTERNAL_ERROR` and answers `onDefect`; an
     * interruption (the runner going away) passes through.
     */
    const guarded = <A, R>(body: Effect.Effect<A, unknown, R>, onDefect: A) =>
      body.pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause as Cause.Cause<never>)
            : Effect.zipRight(
              Effect.logError("agent run activity failed", cause).pipe(Effect.annotateLogs({ runId })),
              Effect.as(endRun("FAILED", InternalErrorCode).pipe(Effect.orDie), onDefect)
            )
        )
      )

    /** The run's status in a transaction: `stop` when it is over (or now past its deadline: timed out first). */
    const checkActive = (at: Date) =>
      Effect.gen(function*() {
        const status = yield* repo.lockStatus(runId)
        if (Option.isNone(status) || !isActive(status.value.state)) return false
        if (status.value.deadlineAt !== null && at.getTime() >= status.value.deadlineAt) {
          yield* repo.finish({ runId, state: "TIMED_OUT", failureCode: null, messageState: "FAILED", at })
          return false
        }
        return true
      })

    const work = yield* Activity.make({
      name: "start",
      success: Schema.Option(RunWork),
      execute: guarded(
        tx(Effect.gen(function*() {
          const found = yield* repo.lockWork(runId)
          if (Option.isNone(found) || (found.value.state !== "QUEUED" && found.value.state !== "RUNNING")) {
            return Option.none()
          }
          const run = found.value
          const at = yield* now
          if (
            run.provider === null || run.model === null || run.instructions === null || run.answerId === null ||
            run.answerOrdinal === null || run.conversationId === null
          ) {
            yield* repo.finish({ runId, state: "FAILED", failureCode: ConfigurationMissingCode, messageState: "FAILED", at })
            return Option.none()
          }
          const deadlineAt = yield* repo.start(runId, { provider: run.provider, model: run.model }, at, config.runs.timeoutSeconds)
          return Option.some<RunWork>({
            agentId: run.agentId,
            conversationId: run.conversationId,
            provider: run.provider,
            model: run.model,
            instructions: run.instructions,
            temperature: run.temperature,
            maxOutputTokens: run.maxOutputTokens,
            answerId: run.answerId,
            answerOrdinal: run.answerOrdinal,
            deadlineAt
          })
        })),
        Option.none()
      )
    })
    if (Option.isNone(work)) return
    const run = work.value

    /** One model step (see the module's description). */
    const step = (ordinal: number, last: boolean) =>
      Effect.gen(function*() {
        // a step whose outcome was committed before its runner died: the same outcome again
        const recorded = yield* tx(Effect.gen(function*() {
          if (!(yield* checkActive(yield* now))) return Option.some(ended)
          const [row] = yield* sql<{ state: string }>`SELECT state FROM run_steps WHERE run_id = ${runId} AND ordinal = ${ordinal}`
          if (row?.state !== "SUCCEEDED") return Option.none<StepOutcome>()
          const calls = (yield* repo.calls(runId)).filter((c) => c.stepOrdinal === ordinal)
          return Option.some<StepOutcome>(
            calls.length === 0 ? ended : {
              _tag: "Tools",
              calls: calls.map((c) => ({ id: c.id, needsApproval: c.approvalState !== "NOT_REQUIRED" }))
            }
          )
        }))
        if (Option.isSome(recorded)) return recorded.value

        // one attempt: the step from its first delta (a retry rewrites the step's text)
        const attempt = Effect.gen(function*() {
          const context = yield* tx(Effect.gen(function*() {
            yield* repo.beginStep(runId, run.answerId, ordinal, yield* now)
            return {
              history: yield* repo.history({ conversationId: run.conversationId, before: run.answerOrdinal }),
              parts: yield* repo.answerParts(run.answerId),
              calls: yield* repo.calls(runId),
              offered: last ? [] : yield* repo.offeredTools(run.agentId)
            }
          }))
          const names = modelToolNames(context.offered.map((t) => t.stableName))
          const nameOf = (stableName: string) => names.toModel.get(stableName) ?? modelToolName(stableName)
          const messages: Array<ModelMessage> = [
            ...context.history.map((turn): ModelMessage =>
              turn.role === "user" ? { role: "user", text: turn.content } : { role: "assistant", text: turn.content, toolCalls: [] }
            ),
            ...runMessages(context.parts, context.calls, nameOf)
          ]
          const toolCalls: Array<ModelToolCall> = []
          let finish = { reason: "other", inputTokens: 0, outputTokens: 0, costMicroUsd: null as bigint | null }
          let text = ""
          yield* runtime.stream({
            agentId: run.agentId,
            runId,
            provider: run.provider,
            model: run.model,
            instructions: run.instructions,
            temperature: run.temperature,
            maxOutputTokens: run.maxOutputTokens,
            messages,
            tools: context.offered.map((t) => ({ name: nameOf(t.stableName), description: t.description, inputSchema: t.inputSchema }))
          }).pipe(
            Stream.tap((event) =>
              Effect.sync(() => {
                if (event._tag === "ToolCall") toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments })
                if (event._tag === "Finish") finish = event
              })
            ),
            Stream.filterMap((event) => event._tag === "TextDelta" && event.text !== "" ? Option.some(event.text) : Option.none()),
            Stream.groupedWithin(DeltaBatch, DeltaWindow),
            Stream.mapEffect((chunk) => {
              const delta = Chunk.join(chunk, "")
              text += delta
              return Effect.flatMap(now, (at) => tx(repo.appendText(runId, run.answerId, delta, at)))
            }),
            // the answer no longer streams (the run was cancelled): stop reading the model
            Stream.takeWhile((streaming) => streaming),
            Stream.runDrain
          )
          return { text, toolCalls, finish, offered: context.offered, names }
        }).pipe(
          // infrastructure failures and crashes of the runtime are retried like a retryable runtime failure
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.failCause(cause as Cause.Cause<never>)
              : Cause.failureOption(cause).pipe(
                Option.filter((e): e is AgentRuntimeError => e instanceof AgentRuntimeError),
                Option.match({
                  onNone: () => Effect.fail(new AgentRuntimeError({ code: InternalErrorCode, retryable: true, message: Cause.pretty(cause) })),
                  onSome: Effect.fail
                })
              )
          ),
          Effect.retry({ schedule: retryDelays, times: AgentRunMaxAttempts - 1, while: (e) => e.retryable })
        )

        const remaining = Math.max(0, run.deadlineAt - (yield* now).getTime())
        const answered = yield* attempt.pipe(
          Effect.timeoutFail({ duration: Duration.millis(remaining), onTimeout: () => new DeadlinePassed() }),
          Effect.either
        )
        const at = yield* now
        if (answered._tag === "Left") {
          const e = answered.left
          yield* endRun(e._tag === "DeadlinePassed" ? "TIMED_OUT" : "FAILED", e._tag === "DeadlinePassed" ? null : e.code)
          return ended
        }
        const answer = answered.right
        const newIds = yield* Effect.forEach(answer.toolCalls, () => ids.next)
        return yield* tx(Effect.gen(function*() {
          const status = yield* repo.lockStatus(runId)
          if (Option.isNone(status) || status.value.state !== "RUNNING") return ended
          yield* repo.endStep({
            runId,
            messageId: run.answerId,
            ordinal,
            text: answer.text,
            finishReason: answer.finish.reason,
            inputTokens: answer.finish.inputTokens,
            outputTokens: answer.finish.outputTokens,
            costMicroUsd: answer.finish.costMicroUsd,
            at
          })
          if (answer.toolCalls.length === 0) {
            const finished = yield* repo.finish({ runId, state: "SUCCEEDED", failureCode: null, messageState: "COMPLETE", at })
            // the run's public trace (./RunActivity.ts: not for playground runs), in the finishing transaction
            if (finished) yield* recordRunCompleted(runId, at).pipe(Effect.provideService(Ids, ids))
            return ended
          }
          const byName = new Map(answer.offered.map((t) => [answer.names.toModel.get(t.stableName)!, t]))
          const calls: Array<{ id: string; needsApproval: boolean }> = []
          for (const [i, call] of answer.toolCalls.entries()) {
            const id = newIds[i]!
            const tool = byName.get(call.name)
            const invalid = tool === undefined
              ? { code: "UNKNOWN_TOOL", message: `No tool ${call.name} is offered to this run.` }
              : (() => {
                const problem = typeof call.arguments === "object" && call.arguments !== null && !Array.isArray(call.arguments)
                  ? validateArguments(tool.inputSchema, call.arguments)
                  : "/: the arguments must be a JSON object"
                return problem === undefined ? undefined : { code: "INVALID_ARGUMENTS", message: `Invalid arguments: ${problem}` }
              })()
            const needsApproval = invalid === undefined &&
              (tool!.grant === "APPROVAL_REQUIRED" || tool!.riskClass === "HIGH" || tool!.definitionChanged)
            yield* repo.insertCall({
              id,
              runId,
              messageId: run.answerId,
              stepOrdinal: ordinal,
              providerCallId: call.id,
              toolId: tool?.id ?? null,
              stableName: tool?.stableName ?? call.name,
              arguments: call.arguments,
              state: "PENDING",
              approvalState: needsApproval ? "PENDING" : "NOT_REQUIRED",
              at
            })
            if (invalid !== undefined) {
              yield* repo.endCall({
                runId,
                messageId: run.answerId,
                id,
                state: "FAILED",
                result: { error: invalid.message },
                isError: true,
                errorCode: invalid.code,
                at
              })
            }
            calls.push({ id, needsApproval })
          }
          return { _tag: "Tools", calls } satisfies StepOutcome
        }))
      })

    /** Before a call that needs approval: `wait` (run and call now APPROVAL_REQUIRED), `go` (decided already), `stop`. */
    const ask = (id: string) =>
      tx(Effect.gen(function*() {
        const at = yield* now
        if (!(yield* checkActive(at))) return "stop" as const
        const call = yield* repo.lockCall({ runId, id })
        if (Option.isNone(call) || call.value.approvalState !== "PENDING" || isCallFinished(call.value.state)) return "go" as const
        yield* repo.moveCall(runId, id, ["PENDING"], "APPROVAL_REQUIRED", at)
        yield* repo.move(runId, ["RUNNING"], "APPROVAL_REQUIRED", at)
        return "wait" as const
      }))

    /** Runs tool call `id` (see the module's description); false when the run is over. */
    const runTool = (id: string) =>
      Effect.gen(function*() {
        const prepared = yield* tx(Effect.gen(function*() {
          const at = yield* now
          if (!(yield* checkActive(at))) return { _tag: "stop" } as const
          const call = (yield* repo.calls(runId)).find((c) => c.id === id)
          if (call === undefined || isCallFinished(call.state)) return { _tag: "done" } as const
          if (call.approvalState === "PENDING") {
            // the wait ended with no decision: only the deadline ends it so
            yield* repo.finish({ runId, state: "TIMED_OUT", failureCode: null, messageState: "FAILED", at })
            return { _tag: "stop" } as const
          }
          if (call.state === "RUNNING" && call.executionClass !== "READ") {
            yield* repo.endCall({
              runId,
              messageId: run.answerId,
              id,
              state: "FAILED",
              result: { error: "The tool call was interrupted; whether it took effect is unknown, and it is not repeated." },
              isError: true,
              errorCode: ToolInterruptedCode,
              at
            })
            return { _tag: "done" } as const
          }
          yield* repo.move(runId, ["APPROVAL_REQUIRED"], "RUNNING", at)
          yield* repo.moveCall(runId, id, ["PENDING", "APPROVAL_REQUIRED"], "RUNNING", at)
          return { _tag: "run", call } as const
        }))
        if (prepared._tag === "stop") return false
        if (prepared._tag === "done") return true
        const outcome = yield* tools.run(prepared.call)
        const at = yield* now
        yield* tx(repo.endCall({
          runId,
          messageId: run.answerId,
          id,
          state: outcome.isError ? "FAILED" : "SUCCEEDED",
          result: outcome.result,
          isError: outcome.isError,
          errorCode: outcome.errorCode,
          at
        }))
        return true
      })

    for (let ordinal = 1; ordinal <= config.runs.maxSteps; ordinal++) {
      const outcome = yield* Activity.make({
        name: `step/${ordinal}`,
        success: StepOutcome,
        execute: guarded(step(ordinal, ordinal === config.runs.maxSteps), ended)
      })
      if (outcome._tag === "Ended") return
      for (const call of outcome.calls) {
        if (call.needsApproval) {
          const next = yield* Activity.make({
            name: `ask/${call.id}`,
            success: Schema.Literal("wait", "go", "stop"),
            execute: guarded(ask(call.id), "stop" as const)
          })
          if (next === "stop") return
          if (next === "wait") {
            const remaining = Math.max(0, run.deadlineAt - (yield* now).getTime())
            yield* DurableDeferred.raceAll({
              name: `wait/${call.id}`,
              success: WaitOutcome,
              error: Schema.Never,
              effects: [
                DurableDeferred.await(approvalDeferred(call.id)),
                // the run's one deadline clock (scheduled once; a later wait shares it)
                DurableClock.sleep({ name: "deadline", duration: Duration.millis(remaining), inMemoryThreshold: Duration.zero })
                  .pipe(Effect.as("TIMEOUT" as const))
              ]
            })
          }
        }
        const go = yield* Activity.make({ name: `tool/${call.id}`, success: Schema.Boolean, execute: guarded(runTool(call.id), false) })
        if (!go) return
      }
    }
    yield* Activity.make({ name: "out-of-steps", execute: guarded(Effect.asVoid(endRun("FAILED", MaxStepsCode)), undefined) })
  }).pipe(survivingStorageErrors))
