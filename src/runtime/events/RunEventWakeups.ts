/**
 * Waking the followers of runs: one process-wide source of "run X has
 * new events", fanned out in-process to every stream following X.
 *
 * - PostgreSQL: one `LISTEN run_events` connection per process (`PgClient.listen`), fed by
 *   the `pg_notify('run_events', runId)` of `appendRunEvent` (src/runtime/events/RunEventLog.ts)
 *   in whichever process wrote the event. A stream also reads on its own every
 *   `fallbackPollMs` (a notification lost while the listening connection was broken only
 *   delays it). A failed listen is retried (0.5 s doubling to 30 s); each failure wakes
 *   every follower, so none waits for a notification that was missed.
 * - Embedded database (PGlite: one session, no `LISTEN`): no listener; streams read every
 *   `pollMs`.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Schedule, Stream } from "effect"
import { RuntimeSettings } from "../Config.js"
import { RunEventsChannel } from "./RunEventLog.js"

/** One follower's wake-up: set by a notification, awaited by the follower between reads. */
export interface Wakeup {
  /** Clears the wake-up; call it before reading, so a notification during the read is kept. */
  readonly reset: Effect.Effect<void>
  /** Waits until woken or `ms` passed (whichever comes first). */
  readonly wait: (ms: number) => Effect.Effect<void>
}

/**
 * The process's wake-up hub. `subscribe(runId)` (scoped) registers a follower of the run;
 * `pollMs` is how long a follower waits between reads when not woken (the embedded
 * database's poll, or PostgreSQL's safety net). `listening` tells whether notifications
 * arrive (PostgreSQL).
 */
export class RunEventWakeups extends Effect.Service<RunEventWakeups>()("agent-directory/RunEventWakeups", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const config = (yield* RuntimeSettings).runEvents
    const followers = new Map<string, Set<Effect.Latch>>()

    const wake = (runId: string) => {
      const set = followers.get(runId)
      if (set !== undefined) for (const latch of set) latch.unsafeOpen()
    }
    const wakeAll = () => {
      for (const set of followers.values()) for (const latch of set) latch.unsafeOpen()
    }

    // PGlite reports itself in version(); it has one session and no LISTEN. Learnt in the
    // background: a database that is down when the server starts must not stop the server
    // (its requests answer 503); until it is known, followers poll at `pollMs`.
    let listening = false
    yield* Effect.gen(function*() {
      const [row] = yield* sql<{ embedded: boolean }>`SELECT version() LIKE '%PGlite%' AS embedded`
      if (row?.embedded === true) return
      listening = true
      yield* pg.listen(RunEventsChannel).pipe(
        Stream.runForEach((runId) => Effect.sync(() => wake(runId))),
        Effect.tapErrorCause((cause) =>
          Effect.logWarning("run events: LISTEN run_events failed; retrying (followers poll meanwhile)", cause).pipe(
            Effect.zipRight(Effect.sync(wakeAll))
          )
        )
      )
    }).pipe(
      Effect.retry(Schedule.exponential("500 millis").pipe(Schedule.union(Schedule.spaced("30 seconds")))),
      Effect.forkScoped
    )

    /** Registers a follower of `runId` until the scope closes. */
    const subscribe = (runId: string) =>
      Effect.acquireRelease(
        Effect.gen(function*() {
          const latch = yield* Effect.makeLatch(false)
          let set = followers.get(runId)
          if (set === undefined) followers.set(runId, set = new Set())
          set.add(latch)
          return latch
        }),
        (latch) =>
          Effect.sync(() => {
            const set = followers.get(runId)
            set?.delete(latch)
            if (set?.size === 0) followers.delete(runId)
          })
      ).pipe(Effect.map((latch): Wakeup => ({
        reset: latch.close,
        wait: (ms) => Effect.raceFirst(latch.await, Effect.sleep(ms))
      })))

    return {
      subscribe,
      /** Whether PostgreSQL notifications wake the followers (false on the embedded database, or until known). */
      listening: () => listening,
      /** How long a follower waits between reads (ms): the safety net when notifications wake it, else the poll. */
      pollMs: () => listening ? config.fallbackPollMs : config.pollMs,
      /** Streams waiting on one run or more, in this process. */
      followedRuns: () => followers.size
    } as const
  })
}) {}
