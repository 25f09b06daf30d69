/**
 * The trust methodology (docs/methodology.md §Trust): a weighted Bayesian
 * average of the ratings of PUBLISHED feedback toward a stated prior, in parts per million.
 *
 *   trustPpm = round((PriorWeight × PriorPpm + Σ wᵢ·ratingPpmᵢ) / (PriorWeight + Σ wᵢ))
 *
 * with wᵢ the weight of the feedback's `authenticityState` ({@link AuthenticityWeights}).
 * Confidence: the Wilson 95 % interval of Σ wᵢ·ratingᵢ "successes" in Σ wᵢ trials
 * (src/trust/reputation/Wilson.ts). Feedback that is not PUBLISHED (pending, hidden, withdrawn)
 * does not count. Weights are integers, so the sums are exact whatever the row order.
 *
 * That value (`components.ratings.valuePpm`) is then adjusted by the safety evidence
 * (src/trust/reputation/SafetyEvidence.ts): open tool-safety findings lower it, a card signature
 * from the agent's proven domain raises it, an INVALID one lowers it; the confidence interval
 * moves by the same adjustment (both clamped to [0, 1 000 000]).
 */

/** Methodology identity of Trust_GetAgentTrust. */
export const TrustMethodology = {
  key: "trust-weighted-bayes",
  version: "3",
  summary: "Weighted Bayesian average of PUBLISHED feedback ratings toward a prior of 600000 ppm (weight 5); " +
    "weights by authenticity VERIFIED_INTERACTION 3, VERIFIED 2, UNVERIFIED 1, SUSPECTED 0; " +
    "minus open tool-safety findings (CRITICAL 200000, HIGH 100000, MEDIUM 30000, LOW 10000 ppm, at most 400000), " +
    "minus 50000 per bounty dispute lost (at most 200000), " +
    "plus 50000 for a card signature VERIFIED with a key of the agent's proven did:web domain, minus 50000 for an " +
    "INVALID one; clamped to [0, 1000000]. Confidence: Wilson 95% interval over the weighted ratings, moved by the " +
    "same adjustment. See docs/methodology.md."
} as const

/** The prior's rating (ppm): an agent without feedback is trusted at 3 of 5 stars. */
export const PriorPpm = 600_000
/** The prior's weight, in feedback-weight units (5 UNVERIFIED ratings, or a little under 2 VERIFIED_INTERACTION). */
export const PriorWeight = 5

/** Weight of one PUBLISHED feedback per `authenticityState`; any other state weighs 0. */
export const AuthenticityWeights = {
  VERIFIED_INTERACTION: 3,
  VERIFIED: 2,
  UNVERIFIED: 1,
  SUSPECTED: 0
} as const

/** The trust value (ppm) of weighted ratings: `ratings` = `[ratingPpm, weight]` pairs (pure). */
export const trustPpm = (ratings: ReadonlyArray<readonly [number, number]>): number => {
  let sw = 0
  let swr = 0
  for (const [r, w] of ratings) {
    sw += w
    swr += w * r
  }
  return Math.round((PriorWeight * PriorPpm + swr) / (PriorWeight + sw))
}

/** SQL: the weight of a feedback row's authenticity state (`column` names it). */
export const authenticityWeightSql = (column: string): string =>
  `CASE ${column} ${
    Object.entries(AuthenticityWeights).map(([state, w]) => `WHEN '${state}' THEN ${w}`).join(" ")
  } ELSE 0 END`

/** SQL: the trust value (integer ppm) from the sums `sw` (Σ w) and `swr` (Σ w·rating), null sums read as 0. */
export const trustPpmSql = (sw: string, swr: string): string =>
  `round((${PriorWeight}::numeric * ${PriorPpm} + COALESCE(${swr}, 0)) / (${PriorWeight} + COALESCE(${sw}, 0)))::int`
