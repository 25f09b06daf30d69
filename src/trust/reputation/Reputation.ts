/**
 * The reputation area's service (spec §9): an agent's trust, performance
 * and rank as last projected (src/trust/reputation/Projection.ts), with the methodology that
 * computed them and their freshness. Reads the stored projection: a read never computes
 * (the projector recomputes within seconds of new evidence, and hourly in full); an agent
 * not yet projected answers nulls and freshness nulls. Used by the HTTP handlers and the MCP
 * tool `get_agent_trust`.
 */
import { Effect, Option, Schema } from "effect"
import { AgentNotFound } from "../../../schema/errors.js"
import { AgentPerformance, AgentRank, AgentTrust } from "../../../schema/reputation.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { PerformanceMethodology } from "./PerformanceMethod.js"
import { RankMethodology } from "./RankMethod.js"
import { ReputationRepo, type ReputationRow } from "./Repo.js"
import { TrustMethodology } from "./TrustMethod.js"

/** `meta.freshness` of a projection (nulls when none). */
export interface ProjectionFreshness {
  readonly projectedAt: Date | null
  readonly sourceWatermark: string | null
}

const none = { confidence: null, coverage: null, components: null }

/** Trust, performance and rank reads. Requires `SqlClient`. */
export class Reputation extends Effect.Service<Reputation>()("agent-directory/Reputation", {
  effect: Effect.gen(function*() {
    const repo = yield* ReputationRepo

    const load = (agentId: string) =>
      Effect.flatMap(repo.find(agentId), Option.match({
        onNone: () => Effect.fail(new AgentNotFound({ detail: "No agent has this entity UUID." })),
        onSome: Effect.succeed
      }))
    const freshnessOf = (row: ReputationRow) => ({ projectedAt: row.projectedAt, sourceWatermark: row.sourceWatermark })
    const decoded = <A, I>(schema: Schema.Schema<A, I>, value: unknown, row: ReputationRow) =>
      Schema.decodeUnknown(schema)(value).pipe(
        Effect.map((data) => ({
          data,
          freshness: {
            projectedAt: row.projectedAt === null ? null : new Date(row.projectedAt),
            sourceWatermark: row.sourceWatermark
          } satisfies ProjectionFreshness
        })),
        dieOnStorageFailure
      )

    /** Trust_GetAgentTrust. Fails with `AgentNotFound` (`agent-not-found`). */
    const trust = (agentId: string) =>
      Effect.flatMap(load(agentId), (row) =>
        decoded(AgentTrust, {
          agentId,
          methodology: TrustMethodology,
          freshness: freshnessOf(row),
          ...(row.trust === null ? { trustPpm: null, ...none } : (row.trust as object))
        }, row))

    /** Trust_GetAgentPerformance. Fails with `AgentNotFound` (`agent-not-found`). */
    const performance = (agentId: string) =>
      Effect.flatMap(load(agentId), (row) =>
        decoded(AgentPerformance, {
          agentId,
          methodology: PerformanceMethodology,
          freshness: freshnessOf(row),
          ...(row.performance === null ? { performancePpm: null, ...none } : (row.performance as object))
        }, row))

    /** Trust_GetAgentRank. Fails with `AgentNotFound` (`agent-not-found`). */
    const rank = (agentId: string) =>
      Effect.flatMap(load(agentId), (row) =>
        decoded(AgentRank, {
          agentId,
          rank: row.rankDoc === null ? null : row.rank,
          listed: row.listed,
          methodology: RankMethodology,
          freshness: freshnessOf(row),
          ...(row.rankDoc === null ? { scorePpm: null, ...none } : (row.rankDoc as object))
        }, row))

    return { trust, performance, rank }
  }),
  dependencies: [ReputationRepo.Default]
}) {}
