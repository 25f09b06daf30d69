/**
 * Following a run live (`Runtime_StreamRunEvents`): the run's events
 * (`run_events`, src/runtime/events/Schemas.ts) as a WHATWG Server-Sent Events stream.
 *
 * The stream, in order:
 * - `retry: 1000` (the client's reconnection delay, ms), which also sends the headers at once;
 * - each event after `Last-Event-ID` (0 when absent) in `seq` order, as
 *   `id: <seq>` / `event: <kind>` / `data: <JSON of data>` and an empty line;
 * - `: keep-alive` comment lines after every `heartbeatMs` (config) in between;
 * - the end (the server closes the response) once the run is finished (SUCCEEDED, FAILED,
 *   CANCELLED, TIMED_OUT) and its last event has been sent, or after `maxStreamMs`
 *   (config) whatever the run does: the client resumes with `Last-Event-ID`.
 *
 * New events are noticed through {@link RunEventWakeups} (PostgreSQL notifications from
 * any process, and a slow read as a safety net; on the embedded database, a read every
 * `pollMs`). Each read takes the run's head (state and last `seq`), then the events up
 * to that `seq`: events commit with the run's `event_seq` (src/runtime/events/RunEventLog.ts), so
 * none is skipped and a finished run's last event is sent before the end. The stream sends only
 * the events in `seq` order from where it stands: should a later event (or the head) be read
 * before an earlier one is visible, it waits for that one ({@link GapGraceMs} at most) rather
 * than pass it.
 *
 * Of a run whose playground data was cleared (`dataClearedAt`), `message.delta` events
 * are not sent (their text is the cleared content); the other events are.
 */
import { Chunk, Duration, Effect, Metric, Option, Schedule, Stream } from "effect"
import { RuntimeSettings } from "../Config.js"
import { FinishedRunStates } from "../Schemas.js"
import { AgentOperators } from "../../agentAccess/Operators.js"
import { conversationAccess, seesRun } from "../conversations/Conversations.js"
import { RunNotFound, StreamLimitReached } from "../Errors.js"
import { RunEventsRepo, type StoredRunEvent } from "./Repo.js"
import { RunEventWakeups } from "./RunEventWakeups.js"

/** The reconnection delay a stream asks of its client (`retry:`), ms. */
export const ReconnectDelayMs = 1000

/** `Retry-After` of a refused stream (`stream-limit-reached`), seconds. */
export const StreamLimitRetryAfterSeconds = 5

/** Run event streams open in this process (a gauge, `/metrics`). */
export const OpenRunEventStreams = Metric.gauge("agent_directory_run_event_streams", {
  description: "Run event streams (GET /api/v1/runs/{runId}/events) open in this process"
})

/**
 * How long a stream waits for an event missing behind a later one before it passes it (ms).
 * Appends are serialized per run and commit in seq order (RunEventLog.ts), so a gap is a moment
 * between two commits; one that lasts is an event that will not come.
 */
const GapGraceMs = 2_000

const isFinished = (state: string) => (FinishedRunStates as ReadonlyArray<string>).includes(state)

/** One event in the SSE wire form. */
export const sseEvent = (event: StoredRunEvent) => `id: ${event.seq}\nevent: ${event.kind}\ndata: ${JSON.stringify(event.data)}\n\n`

/** The SSE comment sent as a heartbeat. */
export const sseHeartbeat = ": keep-alive\n\n"

/** What a follow request gets: the stream, or nothing to send ever again (a finished run, all sent). */
export type Following =
  | { readonly _tag: "Stream"; readonly body: Stream.Stream<string> }
  | { readonly _tag: "Finished" }

/** The run event streams of this process. Requires `SqlClient`, `PgClient`, `RuntimeSettings`. */
export class RunEventStreams extends Effect.Service<RunEventStreams>()("agent-directory/RunEventStreams", {
  effect: Effect.gen(function*() {
    const repo = yield* RunEventsRepo
    const operators = yield* AgentOperators
    const wakeups = yield* RunEventWakeups
    const config = (yield* RuntimeSettings).runEvents
    let open = 0

    /** The run's events after `last`, read whenever woken, until the run is finished and all is sent. */
    const events = (runId: string, last: number): Stream.Stream<string> =>
      Stream.unwrapScoped(Effect.map(wakeups.subscribe(runId), (wakeup) =>
        Stream.unfoldChunkEffect(last, (after) =>
          Effect.gen(function*() {
            // when a read first found `after + 1` missing behind a later event (real time, ms)
            let gapSince: number | undefined
            for (;;) {
              yield* wakeup.reset
              const found = yield* repo.head(runId)
              // a run that disappeared (retention) has nothing more to send
              if (Option.isNone(found)) return Option.none()
              const head = found.value
              if (head.eventSeq > after) {
                const read = yield* repo.after({ runId, after, upTo: head.eventSeq })
                // only the events in seq order from `after + 1`: a head or a later event read before an earlier
                // event is visible waits for it, so the cursor never passes an event not yet sent (a gap older than
                // GapGraceMs is passed: its event will not come)
                let contiguous = 0
                while (contiguous < read.length && read[contiguous]!.seq === after + contiguous + 1) contiguous++
                if (contiguous === 0) {
                  gapSince ??= performance.now()
                  if (performance.now() - gapSince < GapGraceMs) {
                    yield* wakeup.wait(Math.min(wakeups.pollMs(), 50))
                    continue
                  }
                }
                const page = contiguous > 0 ? read.slice(0, contiguous) : read
                const next = page.length === 0 ? head.eventSeq : page[page.length - 1]!.seq
                const shown = head.dataCleared ? page.filter((e) => e.kind !== "message.delta") : page
                return Option.some([Chunk.fromIterable(shown.map(sseEvent)), next] as const)
              }
              if (isFinished(head.state)) return Option.none()
              yield* wakeup.wait(wakeups.pollMs())
            }
          }).pipe(
            // a database failure ends the stream; the client resumes with Last-Event-ID
            Effect.tapError((e) => Effect.logWarning(`run events of ${runId}: read failed, ending the stream`, e)),
            Effect.orElseSucceed(() => Option.none())
          ))
      ))

    /**
     * Runtime_StreamRunEvents: the SSE body of run `runId` for `accountId`, starting after
     * `lastEventId` (0 when absent). `Finished` when the run is finished and has no event
     * after `lastEventId` (the handler answers 204, which stops an EventSource).
     *
     * Fails with `RunNotFound` (`run-not-found`: absent, or not visible to the caller: the
     * rule of Runtime_GetRun, `seesRun`) and `StreamLimitReached`
     * (`stream-limit-reached`: `maxStreams` streams are open in this process; `retryAfter`).
     */
    const follow = (input: { readonly runId: string; readonly accountId: string; readonly lastEventId: number }) =>
      Effect.gen(function*() {
        const notFound = () => new RunNotFound({ detail: `No run ${input.runId} of an agent of your workspaces.` })
        const found = yield* repo.head(input.runId).pipe(Effect.orDie)
        if (Option.isNone(found)) return yield* notFound()
        const head = found.value
        const access = yield* conversationAccess(operators, { entityPublicId: head.agentId, accountId: input.accountId }).pipe(
          Effect.catchTag("AgentNotFound", () => Effect.fail(notFound()))
        )
        // the events carry the conversation's content: the same rule as Runtime_GetRun
        if (!seesRun(access, input.accountId, head.authorAccountId)) return yield* notFound()
        if (isFinished(head.state) && input.lastEventId >= head.eventSeq) return { _tag: "Finished" } as Following
        if (open >= config.maxStreams) {
          return yield* new StreamLimitReached({
            detail: "This server follows as many runs as it may right now; retry later (resume with Last-Event-ID).",
            retryAfter: StreamLimitRetryAfterSeconds
          })
        }
        open++
        yield* Metric.set(OpenRunEventStreams, open)
        const release = Effect.suspend(() => {
          open--
          return Metric.set(OpenRunEventStreams, open)
        })
        const heartbeats = Stream.fromSchedule(Schedule.spaced(Duration.millis(config.heartbeatMs))).pipe(
          Stream.as(sseHeartbeat)
        )
        const body = Stream.make(`retry: ${ReconnectDelayMs}\n\n`).pipe(
          Stream.concat(Stream.merge(events(input.runId, input.lastEventId), heartbeats, { haltStrategy: "left" })),
          Stream.interruptAfter(Duration.millis(config.maxStreamMs)),
          Stream.ensuring(release)
        )
        return { _tag: "Stream", body } as Following
      })

    return {
      follow,
      /** Streams open in this process. */
      open: () => open
    } as const
  }),
  dependencies: [RunEventsRepo.Default, RunEventWakeups.Default, AgentOperators.Default]
}) {}
