/**
 * The endpoint-health jobs on the durable engine (`layers/Engine.ts`):
 *
 * - `ProbeAgentEndpoints` (ClusterCron): a probe round ({@link EndpointHealth.probeAll}) every
 *   `ENDPOINT_PROBE_INTERVAL_MINUTES` minutes (UTC, default 5; 0 = not scheduled), one runner
 *   per occurrence. An occurrence older than one interval (every runner was down) is
 *   skipped: the next one probes.
 * - `PurgeEndpointProbes` (ClusterCron, every 15 minutes UTC, `expiredRowsPurge`): deletes
 *   probes older than {@link ProbeRetentionDays} days.
 */
import { ClusterCron } from "@effect/cluster"
import { Cron, Duration, Effect, Layer } from "effect"
import { EndpointProbeSettings } from "./Config.js"
import { expiredRowsPurge, retryTransient } from "../../layers/Engine.js"
import { EndpointHealth } from "./EndpointHealth.js"
import { EndpointProbesRepo, ProbeRetentionDays } from "./Repo.js"

/** The cron expression of a round every `minutes` minutes (a divisor of 60), UTC. */
export const probeCron = (minutes: number) => Cron.unsafeParse(minutes === 60 ? "0 * * * *" : `*/${minutes} * * * *`, "UTC")

/** The probe-round cron, as configured (nothing when `intervalMinutes` is 0). */
const ProbeAgentEndpoints = Layer.unwrapEffect(Effect.map(EndpointProbeSettings, (config) => {
  const minutes = config.endpointProbes.intervalMinutes
  if (minutes === 0) return Layer.empty
  return ClusterCron.make({
    name: "ProbeAgentEndpoints",
    cron: probeCron(minutes),
    skipIfOlderThan: Duration.minutes(minutes),
    execute: Effect.flatMap(EndpointHealth, (health) => health.probeAll).pipe(retryTransient, Effect.asVoid)
  })
}))

/** The purge of probes older than 90 days. */
const PurgeEndpointProbes = expiredRowsPurge({
  name: "PurgeEndpointProbes",
  what: `endpoint probes older than ${ProbeRetentionDays} days`,
  purge: (at) =>
    Effect.flatMap(EndpointProbesRepo, (repo) => repo.purgeBefore(new Date(at.getTime() - ProbeRetentionDays * 86_400_000)))
})

/**
 * Both crons, with the area's services. Requires the engine's `Sharding`, `SqlClient`,
 * `Ids`, `Outbound` and `EndpointProbeSettings`.
 */
export const EndpointHealthWorkflows = Layer.mergeAll(ProbeAgentEndpoints, PurgeEndpointProbes).pipe(
  Layer.provide([EndpointHealth.Default, EndpointProbesRepo.Default])
)
