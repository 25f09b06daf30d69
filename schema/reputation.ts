/**
 * The trust, rank and performance subresources of an agent (spec §9):
 * projections with their `methodology`, `coverage`, `confidence`, `freshness` and the
 * `components` that made them. Every formula, constant and window is in docs/methodology.md.
 * Values are integers in parts per million (ppm, 0-1 000 000) unless named `…Ms`
 * (milliseconds). An agent not yet projected answers nulls (and freshness nulls).
 */
import { Schema } from "effect"
import { CountString, DateTimeZ, Uuid } from "./common.js"
import { CardSignatureState } from "./agentImports.js"
import { Freshness } from "./envelope.js"

const Ppm = Schema.Int.pipe(Schema.between(0, 1_000_000))
const Count = Schema.Int.pipe(Schema.nonNegative())
const Ms = Schema.NullOr(Schema.Int.pipe(Schema.nonNegative()))

/** Which method computed a value: `key` and `version` name it; docs/methodology.md states it in full. */
export const Methodology = Schema.Struct({ key: Schema.String, version: Schema.String, summary: Schema.String })
  .annotations({ identifier: "Methodology" })

/**
 * The share of the evidence window with data: `daysWithData` = distinct UTC days of
 * `[windowStart, windowEnd)` on which the value's evidence has a record (feedback written for
 * trust; runs finished or probes for performance; either for rank); `ratioPpm` = daysWithData / windowDays.
 */
export const Coverage = Schema.Struct({
  windowStart: DateTimeZ,
  windowEnd: DateTimeZ,
  windowDays: Count,
  daysWithData: Count,
  ratioPpm: Ppm
}).annotations({ identifier: "Coverage" })

/** A confidence interval in ppm (`method` names it: Wilson 95 % for trust and run success). */
export const ConfidenceInterval = Schema.Struct({ lowPpm: Ppm, highPpm: Ppm, method: Schema.String })
  .annotations({ identifier: "ConfidenceInterval" })

/**
 * What every projection (trust, performance, rank) answers besides its value and components:
 * its confidence interval, coverage of the evidence window, methodology and freshness (null
 * confidence and coverage: not projected yet).
 */
const projectionFields = {
  confidence: Schema.NullOr(ConfidenceInterval),
  coverage: Schema.NullOr(Coverage),
  methodology: Methodology,
  freshness: Freshness
}

/**
 * What trust was computed from: `ratings` (its `valuePpm` is the weighted Bayesian value of the
 * ratings alone), then the safety evidence that moves it (docs/methodology.md):
 * `trustPpm = clamp(ratings.valuePpm + signature.adjustmentPpm − safety.penaltyPpm, 0, 1 000 000)`.
 */
export const TrustComponents = Schema.Struct({
  ratings: Schema.Struct({
    /** The weighted Bayesian average of the ratings toward the prior, before the safety evidence. */
    valuePpm: Ppm,
    /** PUBLISHED feedback counted. */
    count: Count,
    /** Σ of their authenticity weights. */
    weightTotal: Count,
    meanPpm: Schema.NullOr(Ppm),
    weightedMeanPpm: Schema.NullOr(Ppm),
    byCategory: Schema.Array(Schema.Struct({ category: Schema.String, count: Count, meanPpm: Ppm })),
    byAuthenticity: Schema.Array(
      Schema.Struct({ authenticityState: Schema.String, count: Count, meanPpm: Ppm, weight: Count })
    )
  }),
  proofs: Schema.Struct({
    verificationState: Schema.String,
    provenIdentities: Count,
    byMethod: Schema.Array(Schema.Struct({ method: Schema.String, count: Count }))
  }),
  votes: Schema.Struct({ helpful: Count, notHelpful: Count }),
  /**
   * The agent's open tool-safety findings (Trust_ListAgentFindings; those of a DISABLED MCP
   * connection do not count): how many, the penalty they take from trust (Σ per severity,
   * at most `maxPenaltyPpm`), per severity (most severe first), and the first 20 of them, most
   * severe first (then oldest), each with its penalty.
   */
  safety: Schema.Struct({
    openFindings: Count,
    penaltyPpm: Ppm,
    maxPenaltyPpm: Ppm,
    bySeverity: Schema.Array(Schema.Struct({ severity: Schema.String, count: Count, penaltyPpm: Count })),
    findings: Schema.Array(Schema.Struct({
      findingId: Uuid,
      kind: Schema.String,
      ruleId: Schema.String,
      severity: Schema.String,
      subject: Schema.String,
      penaltyPpm: Ppm
    }))
  }),
  /**
   * The agent's A2A card signature: its `signatureState` (null without an imported card, or one imported before verification),
   * the signer's key id, `signerHost` (the host whose key verified: the `jku`'s, or the card URL's
   * for an embedded `jwk`), `provenDomain` (the proven did:web domain that host is; null when it is
   * none) and `adjustmentPpm`: +50 000 when VERIFIED from the proven domain, −50 000 when INVALID, else 0.
   */
  signature: Schema.Struct({
    signatureState: Schema.NullOr(CardSignatureState),
    signerKid: Schema.NullOr(Schema.String),
    signerHost: Schema.NullOr(Schema.String),
    provenDomain: Schema.NullOr(Schema.String),
    adjustmentPpm: Schema.Int.pipe(Schema.between(-1_000_000, 1_000_000))
  }),
  /**
   * The agent's bounty work (docs/bounties.md): deliveries accepted, bounty disputes it lost (resolved
   * REFUND, or SPLIT with less to the provider than to the client) and the penalty they take from
   * trust (50 000 each, at most `maxPenaltyPpm`). Absent from a document projected before work was evidence.
   */
  work: Schema.optionalWith(Schema.Struct({
    acceptedDeliveries: Count,
    disputesLost: Count,
    penaltyPpm: Ppm,
    maxPenaltyPpm: Ppm
  }), { exact: true })
}).annotations({ identifier: "TrustComponents" })

/** Trust_GetAgentTrust's data. */
export const AgentTrust = Schema.Struct({
  agentId: Uuid,
  trustPpm: Schema.NullOr(Ppm),
  ...projectionFields,
  components: Schema.NullOr(TrustComponents)
}).annotations({ identifier: "AgentTrust" })
export type AgentTrust = typeof AgentTrust.Type

/** What performance was computed from (the evidence window). */
export const PerformanceComponents = Schema.Struct({
  runs: Schema.Struct({
    finished: Count,
    succeeded: Count,
    failed: Count,
    timedOut: Count,
    successRatePpm: Schema.NullOr(Ppm),
    latencyP50Ms: Ms,
    latencyP95Ms: Ms
  }),
  endpoints: Schema.Struct({
    probes: Count,
    ok: Count,
    availabilityPpm: Schema.NullOr(Ppm),
    latencyP50Ms: Ms,
    latencyP95Ms: Ms
  }),
  /**
   * Bounty deliveries of the agent accepted in the window (`acceptedAt`) and their delivery time
   * (claim → the accepted submission, ms) p50 / p95 (percentile_disc; null without one). Reported, not
   * scored. Absent from a document projected before work was evidence.
   */
  work: Schema.optionalWith(Schema.Struct({
    acceptedDeliveries: Count,
    deliveryTimeP50Ms: Ms,
    deliveryTimeP95Ms: Ms
  }), { exact: true })
}).annotations({ identifier: "PerformanceComponents" })

/** Trust_GetAgentPerformance's data (`performancePpm` null without runs or probes in the window). */
export const AgentPerformance = Schema.Struct({
  agentId: Uuid,
  performancePpm: Schema.NullOr(Ppm),
  ...projectionFields,
  components: Schema.NullOr(PerformanceComponents)
}).annotations({ identifier: "AgentPerformance" })
export type AgentPerformance = typeof AgentPerformance.Type

const Weighted = Schema.Struct({ valuePpm: Ppm, weight: Schema.Number })

/** What the composite score was computed from: each component's value and weight. */
export const RankComponents = Schema.Struct({
  trust: Weighted,
  performance: Schema.Struct({ valuePpm: Schema.NullOr(Ppm), weight: Schema.Number }),
  proofs: Schema.Struct({ ...Weighted.fields, provenIdentities: Count }),
  stars: Schema.Struct({ ...Weighted.fields, starCount: CountString })
}).annotations({ identifier: "RankComponents" })

/**
 * Trust_GetAgentRank's data: `rank` (1 = best, a digit string like the profile's; null when
 * unlisted, retired or not yet projected), the composite `scorePpm` and its components.
 */
export const AgentRank = Schema.Struct({
  agentId: Uuid,
  rank: Schema.NullOr(CountString),
  listed: Schema.Boolean,
  scorePpm: Schema.NullOr(Ppm),
  ...projectionFields,
  components: Schema.NullOr(RankComponents)
}).annotations({ identifier: "AgentRank" })
export type AgentRank = typeof AgentRank.Type
