/**
 * Endpoint health as reputation evidence (spec §9): every stored endpoint
 * of every listed ACTIVE agent (A2A interfaces, MCP servers, ERC-8004 registration
 * endpoints with an http(s) URL, see `./Repo.ts`) is probed (`./Probe.ts`) and each probe
 * recorded in `agent_endpoint_probes`, with the agent's evidence mark
 * (`markAgentEvidence`), in one transaction per agent.
 *
 * A round is bounded: at most {@link ProbeConcurrency} probes at a time, each by
 * `ENDPOINT_PROBE_TIMEOUT_MS`, the whole round by {@link roundBoundMs} (the agents not done by
 * then are left for the next round, nothing of theirs written). One endpoint failing never
 * stops the round, nor does one agent's failed write (logged). Nothing is retried within a
 * round, so a dead endpoint is logged once per round at most, its URL as origin and path only
 * (`loggedUrl`: a query string may carry a key).
 */
import { type SqlError } from "@effect/sql"
import { Effect, Option } from "effect"
import { EndpointProbeSettings } from "./Config.js"
import { now } from "../../layers/Clock.js"
import { loggedUrl } from "../../layers/Logging.js"
import { Outbound } from "../../layers/Outbound.js"
import { probeEndpoint } from "./Probe.js"
import { type EndpointProbe, EndpointProbesRepo, type EndpointTarget } from "./Repo.js"

/** The most probes in flight at once, across the round. */
export const ProbeConcurrency = 8

/**
 * The bound on a whole round, in milliseconds: the scheduled interval
 * (`ENDPOINT_PROBE_INTERVAL_MINUTES`; 5 minutes when rounds are off), so rounds never pile up.
 */
export const roundBoundMs = (intervalMinutes: number) => (intervalMinutes > 0 ? intervalMinutes : 5) * 60_000

/**
 * What a round did: when it started (`startedAt`, the domain's clock), every probe it
 * recorded (by agent, in target order), how many of them failed, and whether the round's
 * bound cut it off before every agent was done.
 */
export interface ProbeRound {
  readonly startedAt: Date
  readonly probes: ReadonlyArray<EndpointProbe>
  readonly failed: number
  readonly cutOff: boolean
}

/** Probes agents' endpoints. Requires `SqlClient`, `Ids`, `Outbound` and `EndpointProbeSettings`. */
export class EndpointHealth extends Effect.Service<EndpointHealth>()("agent-directory/EndpointHealth", {
  effect: Effect.gen(function*() {
    const repo = yield* EndpointProbesRepo
    const outbound = yield* Outbound
    const config = (yield* EndpointProbeSettings).endpointProbes
    const permits = yield* Effect.makeSemaphore(ProbeConcurrency)

    /** Probes one agent's targets (within the shared permits) and records them; the probes recorded. */
    const probeTargets = (agentId: string, targets: ReadonlyArray<EndpointTarget>) =>
      Effect.gen(function*() {
        const probes = yield* Effect.forEach(targets, (target) =>
          permits.withPermits(1)(Effect.gen(function*() {
            const probedAt = yield* now
            const outcome = yield* probeEndpoint(outbound.fetch, target, config.timeoutMs)
            if (!outcome.ok) {
              yield* Effect.logInfo("endpoint probe failed").pipe(
                Effect.annotateLogs({ agentId, kind: target.kind, url: loggedUrl(target.url), failureCode: outcome.failureCode })
              )
            }
            return { ...target, probedAt, ...outcome } satisfies EndpointProbe
          })), { concurrency: "unbounded" })
        yield* repo.record(agentId, probes, yield* now)
        return probes
      })

    /** The targets grouped by agent, in order. */
    const byAgent = (targets: ReadonlyArray<EndpointTarget>) => {
      const groups = new Map<string, Array<EndpointTarget>>()
      for (const target of targets) {
        const group = groups.get(target.agentId)
        if (group === undefined) groups.set(target.agentId, [target])
        else group.push(target)
      }
      return [...groups.entries()]
    }

    /**
     * One round over every listed ACTIVE agent (see the module's description). Fails with
     * `SqlError` only when the endpoints cannot be read; an agent whose probes cannot be
     * written is logged and left out of the result.
     */
    const probeAll: Effect.Effect<ProbeRound, SqlError.SqlError> = Effect.gen(function*() {
      const startedAt = yield* now
      const groups = byAgent(yield* repo.targets(Option.none()))
      const done: Array<ReadonlyArray<EndpointProbe>> = groups.map(() => [])
      const finished = yield* Effect.forEach(groups, ([agentId, targets], i) =>
        probeTargets(agentId, targets).pipe(
          Effect.tap((probes) => Effect.sync(() => done[i] = probes)),
          Effect.catchAll((error) =>
            Effect.logWarning("endpoint probes not recorded").pipe(Effect.annotateLogs({ agentId, error: String(error) }))
          )
        ), { concurrency: ProbeConcurrency, discard: true }).pipe(
        Effect.timeoutTo({ duration: roundBoundMs(config.intervalMinutes), onSuccess: () => true, onTimeout: () => false })
      )
      const probes = done.flat()
      const round: ProbeRound = { startedAt, probes, failed: probes.filter((p) => !p.ok).length, cutOff: !finished }
      yield* Effect.logInfo("endpoint probe round").pipe(
        Effect.annotateLogs({ agents: groups.length, probes: probes.length, failed: round.failed, cutOff: round.cutOff })
      )
      return round
    })

    /**
     * Probes the endpoints of one agent now and records them (none when the agent is not
     * listed and ACTIVE, or has no endpoints): the probes, in target order. Fails with
     * `SqlError` when the endpoints cannot be read or the probes written.
     */
    const probeAgent = (agentId: string): Effect.Effect<ReadonlyArray<EndpointProbe>, SqlError.SqlError> =>
      Effect.flatMap(repo.targets(Option.some(agentId)), (targets) => probeTargets(agentId, targets))

    return { probeAll, probeAgent }
  }),
  dependencies: [EndpointProbesRepo.Default]
}) {}
