/**
 * The rank methodology (docs/methodology.md §Rank): a composite score in
 * ppm, then the ordinal rank over listed agents.
 *
 *   scorePpm = round(0.45 × trustPpm + 0.30 × (performancePpm ?? 500000) + 0.15 × proofsPpm + 0.10 × starsPpm)
 *   proofsPpm = round(1e6 × min(provenIdentities, 3) / 3)
 *   starsPpm  = min(1e6, round(1e6 × log10(1 + starCount) / 4))   (10 000 stars or more: full)
 *
 * Rank: 1 = the highest score among listed agents (`agents.listed_at` set, ACTIVE), ties
 * broken by the smaller entity UUID; unlisted and retired agents have no rank (null).
 * Confidence: the score recomputed with trust at its Wilson low and high bounds.
 */

/** Methodology identity of Trust_GetAgentRank. */
export const RankMethodology = {
  key: "rank-composite",
  version: "1",
  summary: "Composite score 0.45 x trust + 0.30 x performance (500000 when unknown) + 0.15 x proofs (proven identities, " +
    "3 = full) + 0.10 x stars (log10(1 + stars) / 4); rank 1 = highest score among listed agents, ties by entity UUID; " +
    "unlisted agents unranked. See docs/methodology.md."
} as const

/** Weights of the composite score's components (sum 1). */
export const RankWeights = { trust: 0.45, performance: 0.3, proofs: 0.15, stars: 0.1 } as const
/** The performance value used when an agent has no run or probe evidence. */
export const NeutralPerformancePpm = 500_000
/** Proven identities counted toward the proofs component (more count as this many). */
export const FullProofs = 3
/** log10(1 + stars) at which the stars component is full (10 000 stars). */
export const FullStarsLog10 = 4

/** SQL: the proofs component (integer ppm) from the count of proven identities. */
export const proofsPpmSql = (proven: string): string =>
  `round(1000000::numeric * least(COALESCE(${proven}, 0), ${FullProofs}) / ${FullProofs})::int`

/** SQL: the stars component (integer ppm) from `agents.star_count`. */
export const starsPpmSql = (stars: string): string =>
  `least(1000000, round(1000000::numeric * log(10::numeric, 1 + ${stars}::numeric) / ${FullStarsLog10}))::int`

/** SQL: the composite score (integer ppm) from the components (integer ppm; performance may be null). */
export const rankScoreSql = (trust: string, performance: string, proofs: string, stars: string): string =>
  `round(${RankWeights.trust}::numeric * ${trust} + ${RankWeights.performance}::numeric * COALESCE(${performance}, ${NeutralPerformancePpm})
     + ${RankWeights.proofs}::numeric * ${proofs} + ${RankWeights.stars}::numeric * ${stars})::int`

/** The composite score (pure). */
export const rankScorePpm = (c: {
  readonly trustPpm: number
  readonly performancePpm: number | null
  readonly provenIdentities: number
  readonly starCount: number
}): number => {
  const proofs = Math.round(1_000_000 * Math.min(c.provenIdentities, FullProofs) / FullProofs)
  const stars = Math.min(1_000_000, Math.round(1_000_000 * Math.log10(1 + c.starCount) / FullStarsLog10))
  return Math.round(
    RankWeights.trust * c.trustPpm + RankWeights.performance * (c.performancePpm ?? NeutralPerformancePpm) +
      RankWeights.proofs * proofs + RankWeights.stars * stars
  )
}
