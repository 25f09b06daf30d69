/**
 * The workflow that runs a conversation's run (spec §2.20, §3 run states): started by
 * Runtime_SendMessage in its transaction (`layers/Engine.ts`), answered by the
 * `AgentRuntime` layer. One execution per run (the execution id is derived from the
 * run id), so a second start of the same run is the same execution.
 *
 * Activities (each one's outcome is stored by the engine, so a runner that takes over
 * after a crash never repeats one that completed):
 * 1. `start`: run QUEUED → RUNNING, answer PENDING → STREAMING (empty); a run that is
 *    no longer active is left alone and the workflow ends.
 * 2. `respond`: the runtime's answer, streamed into the answer's `contentText` chunk by
 *    chunk, then run SUCCEEDED and answer COMPLETE in one transaction. A retryable
 *    runtime failure or a crash of the runtime is tried again (at most
 *    {@link AgentRunMaxAttempts} attempts, the answer rewritten from its first chunk,
 *    never appended twice); a failure that is not retryable, or the last attempt's,
 *    ends in run FAILED with the runtime's `failureCode` (`INTERNAL_ERROR` for a
 *    crash) and answer FAILED, so no run stays active (an active run blocks its
 *    conversation). Every final move is conditional on the run still being active.
 */
import { SqlClient } from "@effect/sql"
import { Activity, Workflow } from "@effect/workflow"
import { Cause, Effect, Option, Schedule, Schema, Stream } from "effect"
import { AgentRuntime, AgentRuntimeError } from "../../layers/AgentRuntime.js"
import { now } from "../../layers/Clock.js"
import { retryTransient, survivingStorageErrors } from "../../layers/Engine.js"
import { Uuid } from "../../schema/common.js"
import { RunsRepo } from "./RunsRepo.js"

/** Attempts of a run's answer; the last one always leaves the run finished. */
export const AgentRunMaxAttempts = 3

/** `failureCode` of a run whose runtime is not configured any more when the run starts. */
export const ConfigurationMissingCode = "RUNTIME_NOT_CONFIGURED"
/** `failureCode` of a run ended by an unexpected failure on its last attempt. */
export const InternalErrorCode = "INTERNAL_ERROR"

/** The workflow: run `runId` (stable name `AgentRun`; execution id from `runId`). */
export const AgentRun = Workflow.make({
  name: "AgentRun",
  payload: { runId: Uuid },
  idempotencyKey: ({ runId }) => runId
})

/** What `start` hands to `respond`: the run's configuration and its answer message. */
const RunWork = Schema.Struct({
  agentId: Schema.String,
  conversationId: Schema.String,
  provider: Schema.String,
  model: Schema.String,
  instructions: Schema.String,
  answerId: Schema.String,
  answerOrdinal: Schema.Number
})

/** Pause before answer attempt n+1 (0.2 s, doubling). */
const retryDelays = Schedule.exponential("200 millis")

/**
 * The workflow's implementation, registered on the engine. Requires `SqlClient`,
 * `RunsRepo` and `AgentRuntime` (plus the engine).
 */
export const AgentRunLive = AgentRun.toLayer(({ runId }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* RunsRepo
    const runtime = yield* AgentRuntime
    const failRun = (failureCode: string) =>
      Effect.flatMap(now, (at) => sql.withTransaction(repo.fail({ runId, failureCode, at })))

    const work = yield* Activity.make({
      name: "start",
      success: Schema.Option(RunWork),
      execute: Effect.gen(function*() {
        const found = yield* repo.lockRunWork(runId)
        if (Option.isNone(found) || (found.value.state !== "QUEUED" && found.value.state !== "RUNNING")) {
          return Option.none()
        }
        const run = found.value
        if (
          run.provider === null || run.model === null || run.instructions === null || run.answerId === null ||
          run.answerOrdinal === null || run.conversationId === null
        ) {
          yield* failRun(ConfigurationMissingCode)
          return Option.none()
        }
        yield* repo.start(runId, yield* now)
        return Option.some({ ...run, conversationId: run.conversationId, provider: run.provider, model: run.model,
          instructions: run.instructions, answerId: run.answerId, answerOrdinal: run.answerOrdinal })
      }).pipe(sql.withTransaction, retryTransient, Effect.orDie)
    })
    if (Option.isNone(work)) return
    const run = work.value

    // one attempt: the whole answer from its first chunk (a retry rewrites, never appends)
    const attempt = Effect.gen(function*() {
      yield* repo.start(runId, yield* now)
      const history = yield* repo.history({ conversationId: run.conversationId, before: run.answerOrdinal })
      return yield* runtime.stream({
        agentId: run.agentId,
        runId,
        provider: run.provider,
        model: run.model,
        instructions: run.instructions,
        temperature: null,
        maxOutputTokens: null,
        messages: history.map((turn) =>
          turn.role === "user" ? { role: "user", text: turn.content } : { role: "assistant", text: turn.content, toolCalls: [] }
        ),
        tools: []
      }).pipe(
        Stream.filterMap((event) => event._tag === "TextDelta" ? Option.some(event.text) : Option.none()),
        Stream.runFoldEffect("", (text, chunk) => Effect.as(repo.progress(run.answerId, text + chunk), text + chunk))
      )
    }).pipe(
      // infrastructure failures and crashes of the runtime are retried like a retryable runtime failure
      Effect.catchAllCause((cause) =>
        Cause.failureOption(cause).pipe(
          Option.filter((e): e is AgentRuntimeError => e instanceof AgentRuntimeError),
          Option.match({
            onNone: () => Effect.fail(new AgentRuntimeError({ code: InternalErrorCode, retryable: true, message: Cause.pretty(cause) })),
            onSome: Effect.fail
          })
        )
      )
    )

    yield* Activity.make({
      name: "respond",
      execute: attempt.pipe(
        Effect.retry({ schedule: retryDelays, times: AgentRunMaxAttempts - 1, while: (e) => e.retryable }),
        Effect.matchEffect({
          onFailure: (e) => retryTransient(failRun(e.code)),
          onSuccess: (text) =>
            retryTransient(Effect.flatMap(now, (at) => sql.withTransaction(repo.succeed({ runId, messageId: run.answerId, text, at }))))
        }),
        Effect.orDie
      )
    }).pipe(survivingStorageErrors)
  }))
