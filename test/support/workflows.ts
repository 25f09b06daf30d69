/** Waiting in tests for the durable engine to record a workflow execution's outcome. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { until, waitFor } from "./waitFor.js"

/**
 * Waits (real time, at most `timeoutMs`) until `workflow`'s execution for `payload` has
 * a recorded result of `tag` (`Complete`: it ended; `Suspended`: it waits durably), as
 * `Workflow.poll` reads it from the engine. Dies when it has none in time.
 */
export const awaitWorkflow = <P, R>(
  workflow: {
    readonly name: string
    readonly executionId: (payload: P) => Effect.Effect<string>
    readonly poll: (executionId: string) => Effect.Effect<{ readonly _tag: string } | undefined, never, R>
  },
  payload: P,
  tag: "Complete" | "Suspended" = "Complete",
  timeoutMs = 20_000
) =>
  Effect.gen(function*() {
    const executionId = yield* workflow.executionId(payload)
    return yield* waitFor(
      `a ${tag} result of ${workflow.name} ${executionId}`,
      until(workflow.poll(executionId), (result) => result !== undefined && result._tag === tag),
      timeoutMs,
      25
    )
  })

/**
 * Whether the engine holds an occurrence of the cron `name` (`ClusterCron/<name>` in
 * `cluster_messages`): the first one is scheduled once the runner took the cron's shard.
 */
export const cronScheduled = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ n: number }>`SELECT count(*)::int AS n FROM cluster_messages WHERE entity_type = ${`ClusterCron/${name}`}`).pipe(
      Effect.map(([row]) => row!.n > 0)
    )

/** Waits (real time, at most `timeoutMs`) until the engine holds the cron `name`'s first occurrence. */
export const awaitCronScheduled = (name: string, timeoutMs = 30_000) =>
  Effect.asVoid(waitFor(`the ${name} cron to be scheduled`, until(cronScheduled(name), (held) => held), timeoutMs, 50))
