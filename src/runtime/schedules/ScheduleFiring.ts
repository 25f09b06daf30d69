/**
 * The firing of agent schedules: every occurrence of an enabled
 * schedule starts exactly one run (`triggerType` SCHEDULE, `runs.schedule_id`) in the
 * schedule's conversation, posting its `message`, through the same start as
 * Runtime_SendMessage (`Runs.startRun`), at the instants Runtime_PreviewAgentSchedule
 * shows for the same expression (`./Schedule.ts`, one computation, DST included).
 *
 * - **Who fires**: the `AgentSchedulesDue` `ClusterCron`, every minute (UTC), on the
 *   durable engine (one runner runs each tick). It calls {@link ScheduleFiring.fireDue}
 *   with its now.
 * - **Exactly once**: each due schedule is claimed with `FOR UPDATE SKIP LOCKED` and
 *   fired in its own transaction that also moves `next_occurrence_at` past now and
 *   records the occurrence (`agent_schedule_firings`, primary key schedule +
 *   occurrence). Concurrent firings (several runners, a late tick beside the next one)
 *   skip the rows another holds and find them no longer due once it commits; a rolled
 *   back firing starts no run (the run's workflow request is written in the same
 *   transaction, `layers/Engine.ts`) and the schedule stays due for the next tick.
 * - **One active run per conversation**: if the schedule's previous run is still
 *   active, the occurrence is skipped and recorded `SKIPPED_RUN_ACTIVE`; runs are never
 *   queued behind each other. An agent without a runtime skips (`SKIPPED_NO_RUNTIME`)
 *   and keeps its schedule; a retired agent's schedule stops (`SKIPPED_AGENT_RETIRED`,
 *   `nextOccurrenceAt` null).
 * - **Missed occurrences** (every runner down across several occurrences): they are not
 *   replayed one by one. The first tick after the downtime fires the schedule once (the
 *   occurrence it was due at) and moves it to its first occurrence after that tick's now.
 * - A disabled or deleted schedule has no `next_occurrence_at` and never fires.
 */
import { ClusterCron } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { Cron, Effect, Layer, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { retryTransient } from "../../../layers/Engine.js"
import { Runs } from "../runs/Runs.js"
import { RunsRepo } from "../runs/Repo.js"
import { nextOccurrence } from "./Schedule.js"
import { type FiringOutcome, SchedulesRepo } from "./Repo.js"

/** The most occurrences one call of {@link ScheduleFiring.fireDue} handles (the next tick takes the rest). */
export const MaxFiringsPerTick = 1000

/** How one due occurrence was handled. */
export interface Firing {
  readonly scheduleId: string
  /** The occurrence that was due (the schedule's `nextOccurrenceAt` before the firing). */
  readonly occurrenceAt: Date
  readonly outcome: FiringOutcome
  /** The run it started (outcome STARTED), else null. */
  readonly runId: string | null
  /** The schedule's next occurrence after the firing's time, or null. */
  readonly next: Date | null
}

/** Fires due schedules. Requires `SqlClient`, `Ids`, the `WorkflowEngine`. */
export class ScheduleFiring extends Effect.Service<ScheduleFiring>()("agent-directory/ScheduleFiring", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SchedulesRepo
    const runsRepo = yield* RunsRepo
    const runs = yield* Runs

    /** Claims and fires one schedule due at `at`, in one transaction; none when nothing (else) is due. */
    const fireOne = (at: Date) =>
      Effect.gen(function*() {
        const claimed = yield* repo.claimDue(at)
        if (Option.isNone(claimed)) return Option.none<Firing>()
        const due = claimed.value
        const following = nextOccurrence(due, at)
        const firingOf = (outcome: FiringOutcome, runId: string | null, next: Date | null): Firing =>
          ({ scheduleId: due.id, occurrenceAt: due.nextOccurrenceAt, outcome, runId, next })
        let firing: Firing
        if (due.agentState === "RETIRED") {
          firing = firingOf("SKIPPED_AGENT_RETIRED", null, null)
        } else if (!due.runtimeConfigured) {
          firing = firingOf("SKIPPED_NO_RUNTIME", null, following)
        } else {
          // serialized with the conversation's other senders, as Runtime_SendMessage is
          const conversation = yield* runsRepo.lockConversation(due.conversationId).pipe(
            Effect.flatMap(Option.match({
              onNone: () => Effect.dieMessage(`schedule ${due.id}: conversation ${due.conversationId} is missing`),
              onSome: Effect.succeed
            }))
          )
          const started = yield* runs.startRun({
            conversation,
            content: due.message,
            parentMessageId: null,
            triggerType: "SCHEDULE",
            scheduleId: due.id
          }).pipe(
            Effect.map((sent) => Option.some(sent.run.id)),
            Effect.catchTag("RunInProgress", () => Effect.succeed(Option.none<string>()))
          )
          firing = Option.match(started, {
            onNone: () => firingOf("SKIPPED_RUN_ACTIVE", null, following),
            onSome: (runId) => firingOf("STARTED", runId, following)
          })
        }
        yield* repo.recordFiring({ ...firing, firedAt: at })
        return Option.some(firing)
      }).pipe(sql.withTransaction)

    /**
     * Fires every schedule due at `at` (`next_occurrence_at <= at`, enabled, not
     * deleted), each in its own transaction (see the module docs), at most
     * {@link MaxFiringsPerTick}; returns how each occurrence was handled, in firing
     * order. Safe to call concurrently from several processes: each occurrence is
     * handled once. Fails with `SqlError`; dies on a storage defect.
     */
    const fireDue = (at: Date) =>
      Effect.gen(function*() {
        const fired: Array<Firing> = []
        while (fired.length < MaxFiringsPerTick) {
          const one = yield* fireOne(at)
          if (Option.isNone(one)) break
          fired.push(one.value)
        }
        return fired as ReadonlyArray<Firing>
      })

    return { fireDue }
  }),
  dependencies: [SchedulesRepo.Default, RunsRepo.Default, Runs.Default]
}) {}

/** Every minute (UTC), fire the schedules that are due (a late tick still runs: it fires what is due then). */
const AgentSchedulesDue = ClusterCron.make({
  name: "AgentSchedulesDue",
  cron: Cron.unsafeParse("* * * * *"),
  skipIfOlderThan: "3650 days",
  execute: Effect.gen(function*() {
    const firing = yield* ScheduleFiring
    const fired = yield* firing.fireDue(yield* now)
    if (fired.length > 0) yield* Effect.logInfo("agent schedules fired").pipe(Effect.annotateLogs({ occurrences: fired.length }))
  }).pipe(retryTransient, Effect.provide(ScheduleFiring.Default))
})

/** The schedule-firing cron, registered on the engine (needs `SqlClient`, `Ids` and the engine). */
export const ScheduleFiringWorkflows = Layer.mergeAll(AgentSchedulesDue)
