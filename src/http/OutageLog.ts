/**
 * Logging during a database outage: one ERROR (with its cause) when the database
 * becomes unavailable, one INFO line when a request succeeds again with the count
 * of requests that failed in between, and nothing per failed request.
 */
import { type Cause, Effect, Ref } from "effect"

/** The outage state of this process. */
export class OutageLog extends Effect.Service<OutageLog>()("agent-directory/OutageLog", {
  effect: Effect.gen(function*() {
    /** Requests failed since the outage began; 0 = no outage. */
    const failed = yield* Ref.make(0)
    return {
      /** Records a request that failed because the database is unavailable; logs the first one. */
      failure: (cause: Cause.Cause<unknown>) =>
        Ref.getAndUpdate(failed, (n) => n + 1).pipe(
          Effect.flatMap((before) => before === 0 ? Effect.logError("database unavailable", cause) : Effect.void)
        ),
      /** Records a successful request; ends an outage, logging how many requests it failed. */
      success: Ref.getAndSet(failed, 0).pipe(
        Effect.flatMap((before) =>
          before === 0 ? Effect.void : Effect.logInfo(`database available again; ${before} requests failed during the outage`)
        )
      )
    }
  })
}) {}
