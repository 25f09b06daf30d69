/**
 * The performance methodology (docs/methodology.md §Performance), over the
 * evidence window (src/trust/reputation/EvidenceWindow.ts):
 *
 * - run success rate: SUCCEEDED / (SUCCEEDED + FAILED + TIMED_OUT) of the agent's runs that
 *   finished in the window (`completed_at`), playground runs excluded, CANCELLED excluded;
 *   run latency p50 / p95 (ms, `percentile_disc`: an observed value) of `completed_at − started_at`
 *   of those runs that started;
 * - endpoint availability: ok probes / probes of `agent_endpoint_probes` in the window
 *   (`probed_at`); latency p50 / p95 (ms) of the ok probes;
 * - performancePpm = round(RunWeight × successPpm + ProbeWeight × availabilityPpm) when both
 *   exist, the one that exists otherwise, null when neither.
 *
 * Confidence: the Wilson 95 % interval of the run success rate (none without runs).
 */

/** Methodology identity of Trust_GetAgentPerformance. */
export const PerformanceMethodology = {
  key: "performance-runs-probes",
  version: "1",
  summary: "Run success rate (SUCCEEDED vs FAILED/TIMED_OUT, CANCELLED and playground excluded) and endpoint " +
    "availability (ok probes) over the last 30 UTC days, latencies as p50/p95 (percentile_disc); " +
    "score 0.6 x success + 0.4 x availability. See docs/methodology.md."
} as const

/** Weight of the run success rate in the performance score. */
export const RunWeight = 0.6
/** Weight of endpoint availability in the performance score. */
export const ProbeWeight = 0.4

/** SQL: the performance score (integer ppm or null) from `success` and `availability` (integer ppm or null). */
export const performancePpmSql = (success: string, availability: string): string =>
  `CASE WHEN ${success} IS NOT NULL AND ${availability} IS NOT NULL
     THEN round(${RunWeight}::numeric * ${success} + ${ProbeWeight}::numeric * ${availability})::int
     ELSE COALESCE(${success}, ${availability}) END`

/** The performance score (pure; see the module's description). */
export const performancePpm = (successPpm: number | null, availabilityPpm: number | null): number | null =>
  successPpm !== null && availabilityPpm !== null
    ? Math.round(RunWeight * successPpm + ProbeWeight * availabilityPpm)
    : successPpm ?? availabilityPpm
