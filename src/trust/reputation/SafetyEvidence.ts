/**
 * The safety evidence of the trust methodology (docs/methodology.md §Trust): an agent's open
 * tool-safety findings (docs/findings.md) lower its trust by a penalty per severity, bounded;
 * its A2A card's signature raises it when the signature is VERIFIED with a key from the
 * agent's proven domain, and lowers it when the signature is INVALID.
 *
 *   findingsPenaltyPpm   = min(MaxFindingsPenaltyPpm, Σ SeverityPenaltyPpm[severity] over open findings)
 *   signatureAdjustment  = +DomainSignatureBonusPpm (VERIFIED, domain-bound), −InvalidSignaturePenaltyPpm (INVALID), else 0
 *   trustPpm             = clamp(ratingsPpm + signatureAdjustment − findingsPenaltyPpm, 0, 1 000 000)
 *
 * An **open** finding is one recorded in `agent_findings` (the MCP area deletes a finding when
 * a fetch no longer finds it, and a TOOL_DEFINITION_CHANGED one when a person approves the
 * changed definition), except one of a DISABLED MCP connection (its catalog is neither fetched
 * nor offered to the model, so its findings can neither clear nor matter).
 *
 * A signature is **domain-bound** when the card is VERIFIED, the agent's verification state is
 * VERIFIED (so not CONFLICTED or REVOKED), and `agent_a2a_cards.signer_host` (the host whose key
 * verified: the `jku`'s host, or for an embedded `jwk` the host of the URL the card was imported
 * from) equals the host of one of the agent's proven `did:web` identities (REGISTRY_BOUND,
 * `proof_method` DID_WEB): the DID's first segment, `%3A` read as `:`, lower case; compared as
 * written, so `example.com` and `example.com:8443` differ and a subdomain is another host.
 */

/** Penalty (ppm of trust) of one open finding, by severity. */
export const SeverityPenaltyPpm = {
  CRITICAL: 200_000,
  HIGH: 100_000,
  MEDIUM: 30_000,
  LOW: 10_000
} as const

/** The findings penalty never exceeds this (ppm). */
export const MaxFindingsPenaltyPpm = 400_000

/** Added to trust for a VERIFIED, domain-bound card signature (ppm). */
export const DomainSignatureBonusPpm = 50_000

/** Subtracted from trust for an INVALID card signature (ppm). */
export const InvalidSignaturePenaltyPpm = 50_000

/**
 * Subtracted from trust per bounty dispute the agent lost (ppm): a resolution against the
 * provider, REFUND (all to the client) or a SPLIT giving the provider less than the client.
 */
export const DisputeLostPenaltyPpm = 50_000

/** The disputes-lost penalty never exceeds this (ppm). */
export const MaxDisputesPenaltyPpm = 200_000

/** The disputes-lost penalty (ppm) of `lost` disputes (pure). */
export const disputesPenaltyPpm = (lost: number): number => Math.min(MaxDisputesPenaltyPpm, lost * DisputeLostPenaltyPpm)

/** SQL: a `dispute_resolutions` row (alias `r`) that went against the provider. */
export const disputeLostSql = (r: string): string =>
  `(${r}.resolution = 'REFUND' OR (${r}.resolution = 'SPLIT' AND ${r}.units_to_provider < ${r}.units_to_client))`

/** Most findings the `safety` component lists (most severe first); `openFindings` counts them all. */
export const ListedFindings = 20

/** The severities, most severe first (the order of the component's arrays). */
export const Severities = ["CRITICAL", "HIGH", "MEDIUM", "LOW"] as const

/** The findings penalty (ppm) of open findings of `severities` (pure). */
export const findingsPenaltyPpm = (severities: ReadonlyArray<keyof typeof SeverityPenaltyPpm>): number =>
  Math.min(MaxFindingsPenaltyPpm, severities.reduce((sum, s) => sum + SeverityPenaltyPpm[s], 0))

/** The signature adjustment (ppm, signed) of a card's `state` and whether it is domain-bound (pure). */
export const signatureAdjustmentPpm = (state: string | null, domainBound: boolean): number =>
  state === "VERIFIED" && domainBound ? DomainSignatureBonusPpm : state === "INVALID" ? -InvalidSignaturePenaltyPpm : 0

/** Trust (ppm) from the ratings value and the safety evidence, clamped to [0, 1e6] (pure). */
export const adjustedTrustPpm = (ratingsPpm: number, e: { readonly findingsPenaltyPpm: number; readonly signatureAdjustmentPpm: number }): number =>
  Math.max(0, Math.min(1_000_000, ratingsPpm + e.signatureAdjustmentPpm - e.findingsPenaltyPpm))

/** SQL: the penalty (integer ppm) of a finding row's `severity` (`column` names it). */
export const severityPenaltySql = (column: string): string =>
  `CASE ${column} ${Object.entries(SeverityPenaltyPpm).map(([s, p]) => `WHEN '${s}' THEN ${p}`).join(" ")} ELSE 0 END`

/** SQL: the position (1 = most severe) of a finding row's `severity`. */
export const severityOrderSql = (column: string): string =>
  `CASE ${column} ${Severities.map((s, i) => `WHEN '${s}' THEN ${i + 1}`).join(" ")} ELSE ${Severities.length + 1} END`

/** SQL: the host of a `did:web` DID (`column`): its first segment, `%3A` as `:`, lower case. */
export const didWebHostSql = (column: string): string =>
  `lower(regexp_replace(split_part(substr(${column}, 9), ':', 1), '%3[Aa]', ':', 'g'))`

/** SQL: the signature adjustment (integer ppm) of a card `state` and a `domainBound` boolean expression. */
export const signatureAdjustmentSql = (state: string, domainBound: string): string =>
  `CASE WHEN ${state} = 'VERIFIED' AND ${domainBound} THEN ${DomainSignatureBonusPpm}
        WHEN ${state} = 'INVALID' THEN ${-InvalidSignaturePenaltyPpm} ELSE 0 END`

/** SQL: trust (integer ppm) from the ratings value, the signature adjustment and the findings penalty, clamped. */
export const adjustedTrustSql = (ratings: string, signature: string, penalty: string): string =>
  `greatest(0, least(1000000, ${ratings} + ${signature} - ${penalty}))::int`
