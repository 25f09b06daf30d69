/**
 * The job that runs a conversation's run (issue 11, spec §2.20): enqueued by
 * Runtime_SendMessage in its transaction, run by the durable job runner
 * (`layers/JobRunner.ts`), answered by the `AgentRuntime` layer.
 *
 * Moves: run QUEUED → RUNNING → SUCCEEDED, answer PENDING → STREAMING (its
 * `contentText` grows chunk by chunk, so a client polling the conversation sees the
 * answer arrive) → COMPLETE. A runtime failure that is not retryable, or still fails
 * on the last attempt, ends in run FAILED with the runtime's `failureCode` and answer
 * FAILED; any other failure on the last attempt ends in FAILED `INTERNAL_ERROR`, so no
 * run stays active forever (an active run blocks its conversation).
 *
 * Idempotent (the runner may run a job again after a crash or a lost lease): a run
 * that is already finished is left alone; a RUNNING run is answered again from the
 * first chunk (the answer's text is rewritten, never appended twice); every final
 * move is conditional on the run still being active, so it happens once.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema, Stream } from "effect"
import { AgentRuntime, AgentRuntimeError } from "../../layers/AgentRuntime.js"
import { now } from "../../layers/Clock.js"
import { jobHandler } from "../../layers/JobRunner.js"
import { jobKind } from "../../layers/Jobs.js"
import { Uuid } from "../../schema/common.js"
import { RunsRepo } from "./RunsRepo.js"

/** The job kind: run `runId` (stable name `agent-run`). */
export const AgentRun = jobKind("agent-run", Schema.Struct({ runId: Uuid }))

/** Attempts of an agent run job; the last one always leaves the run finished. */
export const AgentRunMaxAttempts = 3

/** `failureCode` of a run whose runtime is not configured any more when the job starts. */
export const ConfigurationMissingCode = "RUNTIME_NOT_CONFIGURED"
/** `failureCode` of a run ended by an unexpected failure on its last attempt. */
export const InternalErrorCode = "INTERNAL_ERROR"

/** The handler of {@link AgentRun}. Requires `SqlClient`, `RunsRepo`, `AgentRuntime`. */
export const agentRunHandler = jobHandler(AgentRun, ({ runId }, { attempt }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* RunsRepo
    const runtime = yield* AgentRuntime
    const lastAttempt = attempt >= AgentRunMaxAttempts
    const failRun = (failureCode: string) =>
      Effect.flatMap(now, (at) => sql.withTransaction(repo.fail({ runId, failureCode, at })))

    const work = yield* Effect.gen(function*() {
      const found = yield* repo.lockRunWork(runId)
      if (Option.isNone(found) || (found.value.state !== "QUEUED" && found.value.state !== "RUNNING")) {
        return Option.none()
      }
      yield* repo.start(runId, yield* now)
      return found
    }).pipe(sql.withTransaction)
    if (Option.isNone(work)) return
    const run = work.value
    if (
      run.provider === null || run.model === null || run.instructions === null || run.answerId === null ||
      run.answerOrdinal === null || run.conversationId === null
    ) {
      yield* failRun(ConfigurationMissingCode)
      return
    }
    const answerId = run.answerId
    const history = yield* repo.history({ conversationId: run.conversationId, before: run.answerOrdinal })
    const answered = yield* runtime.respond({
      agentId: run.agentId,
      runId,
      provider: run.provider,
      model: run.model,
      instructions: run.instructions,
      history
    }).pipe(
      Stream.runFoldEffect("", (text, chunk) => Effect.as(repo.progress(answerId, text + chunk), text + chunk)),
      Effect.map(Option.some),
      Effect.catchIf(
        (e): e is AgentRuntimeError => e instanceof AgentRuntimeError && (!e.retryable || lastAttempt),
        (e) => Effect.as(failRun(e.code), Option.none<string>())
      )
    )
    if (Option.isNone(answered)) return
    const at = yield* now
    yield* sql.withTransaction(repo.succeed({ runId, messageId: answerId, text: answered.value, at }))
  }).pipe(
    // the last attempt leaves the run finished whatever went wrong; the job still records the failure
    Effect.tapErrorCause(() =>
      attempt >= AgentRunMaxAttempts
        ? Effect.flatMap(now, (at) =>
          Effect.flatMap(RunsRepo, (repo) => repo.fail({ runId, failureCode: InternalErrorCode, at }))).pipe(Effect.ignoreLogged)
        : Effect.void
    )
  ))
