/**
 * Reputation contract (spec §9): an agent's trust, rank and performance
 * subresources, projections of its evidence. Its own group ("Reputation"), named "Trust" in
 * the OpenAPI document (`OpenApi.Title`) beside the feedback operations.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { AgentPath } from "../../../schema/agents.js"
import { Data } from "../../../schema/envelope.js"
import { AgentNotFound } from "../../../schema/errors.js"
import { AgentPerformance, AgentRank, AgentTrust } from "../../../schema/reputation.js"
import { operation } from "../../api/operation.js"

const common = "A projection, recomputed on the durable engine within seconds of new evidence and in full every hour " +
  "(the same evidence always gives the same values). `freshness` (also `meta.freshness`) says when it was projected " +
  "(`projectedAt`) and from which evidence (`sourceWatermark`: the newest evidence time, the evidence rows and the " +
  "star count). An agent that exists but is not projected yet answers 200 with null values and null freshness. " +
  "Values are integers in parts per million (ppm). `coverage` is the share of the 30-UTC-day evidence window with data. " +
  "The full method, every constant and how to reproduce a value: docs/methodology.md in the repository.\n\n" +
  "Unknown agent UUID: 404 `agent-not-found`."

export class ReputationApi extends HttpApiGroup.make("Reputation")
  .add(
    HttpApiEndpoint.get("getAgentTrust", "/api/v1/agents/:entityPublicId/trust")
      .setPath(AgentPath)
      .addSuccess(Data(AgentTrust))
      .pipe(
        operation({
          id: "Trust_GetAgentTrust",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "An agent's trust: weighted Bayesian rating moved by safety evidence, with its Wilson interval and components",
          description: "Methodology `trust-weighted-bayes` v2: the weighted Bayesian average of the ratings of PUBLISHED " +
            "feedback toward a prior of 600000 ppm with weight 5 (each feedback weighs by its `authenticityState`: " +
            "VERIFIED_INTERACTION 3, VERIFIED 2, UNVERIFIED 1, SUSPECTED 0), minus the penalty of the agent's open " +
            "tool-safety findings (CRITICAL 200000, HIGH 100000, MEDIUM 30000, LOW 10000 ppm; at most 400000), plus " +
            "50000 when its A2A card's signature is VERIFIED with a key of its proven did:web domain, minus 50000 when " +
            "INVALID; clamped to [0, 1000000]. `confidence`: the Wilson 95% interval of the weighted ratings, moved " +
            "by the same adjustment. `components`: ratings (their value, by category and by authenticity), proofs held " +
            "(verification state, proven identities by method), helpful votes, `safety` (the open findings and their " +
            "penalty, the most severe named) and `signature` (state, signer host, the proven domain it matched, its " +
            "adjustment). The rules: docs/methodology.md.\n\n" + common,
          errors: [AgentNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAgentRank", "/api/v1/agents/:entityPublicId/rank")
      .setPath(AgentPath)
      .addSuccess(Data(AgentRank))
      .pipe(
        operation({
          id: "Trust_GetAgentRank",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "An agent's rank in the directory and the composite score it comes from",
          description: "Methodology `rank-composite` v1: `scorePpm` = 0.45 x trust + 0.30 x performance (500000 when " +
            "unknown) + 0.15 x proofs (proven identities, 3 = full) + 0.10 x stars (log10(1 + stars) / 4, capped). " +
            "`rank` 1 is the highest score among listed agents, ties broken by the smaller entity UUID; unlisted and " +
            "retired agents have no rank (null), as in Agents_ListAgents (sort=rank), the profile and favorites. " +
            "`confidence`: the score with trust at its Wilson bounds.\n\n" + common,
          errors: [AgentNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getAgentPerformance", "/api/v1/agents/:entityPublicId/performance")
      .setPath(AgentPath)
      .addSuccess(Data(AgentPerformance))
      .pipe(
        operation({
          id: "Trust_GetAgentPerformance",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "An agent's performance: run success rate, run latency and endpoint availability",
          description: "Methodology `performance-runs-probes` v1, over the last 30 UTC days: the run success rate " +
            "(SUCCEEDED against FAILED and TIMED_OUT; CANCELLED and playground runs excluded), run latency p50/p95 " +
            "(ms from start to finish), endpoint availability (the share of ok probes of the agent's endpoints) and " +
            "probe latency p50/p95 of the ok probes; percentiles are observed values (`percentile_disc`). " +
            "`performancePpm` = 0.6 x success rate + 0.4 x availability (the one present when only one is; null when " +
            "neither). `confidence`: the Wilson 95% interval of the run success rate (null without runs).\n\n" + common,
          errors: [AgentNotFound]
        })
      )
  )
  .annotate(OpenApi.Title, "Trust")
  .annotate(OpenApi.Description, "Trust: an agent's trust, rank and performance (projections of its evidence)")
{}
