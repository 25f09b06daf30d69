/**
 * Logging during a database outage: one ERROR (with its cause) when the database
 * becomes unavailable, one INFO line when a request succeeds again with the count
 * of requests that failed in between, and nothing per failed request.
 */
import { type Cause, Effect } from "effect"

/** The outage state of this process. */
export class OutageLog extends Effect.Service<OutageLog>()("agent-directory/OutageLog", {
  sync: () => {
    /**
     * Requests failed since the outage began; 0 = no outage. A plain variable (JS is single-threaded):
     * `success` runs on every request, and reading it costs no runtime operation beyond one suspend.
     */
    let failed = 0
    return {
      /** Records a request that failed because the database is unavailable; logs the first one. */
      failure: (cause: Cause.Cause<unknown>) =>
        Effect.suspend(() => failed++ === 0 ? Effect.logError("database unavailable", cause) : Effect.void),
      /** Records a successful request; ends an outage, logging how many requests it failed. */
      success: Effect.suspend(() => {
        if (failed === 0) return Effect.void
        const before = failed
        failed = 0
        return Effect.logInfo(`database available again; ${before} requests failed during the outage`)
      })
    }
  }
}) {}
