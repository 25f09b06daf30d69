/**
 * The projector's statements: the trust, performance and rank documents
 * of a set of agents (or all of them) computed from their evidence in ONE set-based SQL
 * statement (GROUP BY aggregates in the database), upserted into `agent_reputation`, then
 * the ordinal ranks rewritten in one UPDATE. The formulas are the methodology files'
 * (TrustMethod, PerformanceMethod, RankMethod, Wilson, EvidenceWindow, VerificationRule);
 * docs/methodology.md states them. Deterministic: integer weights and exact `numeric`
 * sums (independent of row order), `percentile_disc` (an observed value), documents built
 * with sorted arrays.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import { evidenceWindow, EvidenceWindowDays } from "./EvidenceWindow.js"
import { performancePpmSql } from "./PerformanceMethod.js"
import { proofsPpmSql, rankScoreSql, RankWeights, starsPpmSql } from "./RankMethod.js"
import {
  adjustedTrustSql,
  didWebHostSql,
  DisputeLostPenaltyPpm,
  disputeLostSql,
  MaxDisputesPenaltyPpm,
  ListedFindings,
  MaxFindingsPenaltyPpm,
  severityOrderSql,
  severityPenaltySql,
  signatureAdjustmentSql
} from "./SafetyEvidence.js"
import { authenticityWeightSql, trustPpmSql } from "./TrustMethod.js"
import { applyVerificationRule } from "./VerificationRule.js"
import { wilsonSql } from "./Wilson.js"

const ppm = (num: string, den: string) => `CASE WHEN COALESCE(${den}, 0) > 0 THEN round(1000000::numeric * ${num} / ${den})::int END`
const clampPpm = (x: string) => `greatest(0, least(1000000, ${x}))::int`
const coverage = (days: string) =>
  `jsonb_build_object('windowStart', api_ts($1::timestamptz), 'windowEnd', api_ts($2::timestamptz), 'windowDays', ${EvidenceWindowDays},
     'daysWithData', COALESCE(${days}, 0), 'ratioPpm', round(1000000::numeric * COALESCE(${days}, 0) / ${EvidenceWindowDays})::int)`

/**
 * The upsert of the projections of the agents `$4` (uuid[]; null = every agent), window
 * `[$1, $2)`, projected at `$3`.
 */
const projectStatement = `
WITH target AS (
  SELECT a.id, a.star_count, a.verification_state FROM agents a WHERE $4::uuid[] IS NULL OR a.id = ANY($4::uuid[])
),
fb AS (
  SELECT f.agent_id, f.category, f.authenticity_state, f.rating_ppm::numeric AS r, f.updated_at,
    (${authenticityWeightSql("f.authenticity_state")})::numeric AS w, f.helpful_count, f.not_helpful_count
  FROM feedback f JOIN target t ON t.id = f.agent_id WHERE f.state = 'PUBLISHED'
),
fb_sum AS (
  SELECT agent_id, count(*) AS n, sum(w) AS sw, sum(w * r) AS swr, round(avg(r))::int AS mean,
    sum(helpful_count) AS helpful, sum(not_helpful_count) AS not_helpful
  FROM fb GROUP BY agent_id
),
fb_cat AS (
  SELECT agent_id, jsonb_agg(jsonb_build_object('category', category, 'count', n, 'meanPpm', mean) ORDER BY category) AS j
  FROM (SELECT agent_id, category, count(*) AS n, round(avg(r))::int AS mean FROM fb GROUP BY agent_id, category) x
  GROUP BY agent_id
),
fb_auth AS (
  SELECT agent_id, jsonb_agg(jsonb_build_object('authenticityState', authenticity_state, 'count', n, 'meanPpm', mean, 'weight', w)
    ORDER BY authenticity_state) AS j
  FROM (SELECT agent_id, authenticity_state, count(*) AS n, round(avg(r))::int AS mean, min(w)::int AS w
        FROM fb GROUP BY agent_id, authenticity_state) x
  GROUP BY agent_id
),
proofs AS (
  SELECT agent_id, sum(n) AS proven, jsonb_agg(jsonb_build_object('method', method, 'count', n) ORDER BY method) AS j
  FROM (SELECT i.agent_id, i.proof_method AS method, count(*) AS n FROM agent_identities i JOIN target t ON t.id = i.agent_id
        WHERE i.proven_at IS NOT NULL GROUP BY i.agent_id, i.proof_method) x
  GROUP BY agent_id
),
findings_w AS (
  SELECT f.agent_id, f.id, f.kind, f.rule_id, f.severity, f.subject, f.detected_at, f.seen_at,
    ${severityPenaltySql("f.severity")} AS penalty, ${severityOrderSql("f.severity")} AS sev_order
  FROM agent_findings f JOIN target t ON t.id = f.agent_id LEFT JOIN mcp_connections c ON c.id = f.connection_id
  WHERE c.state IS DISTINCT FROM 'DISABLED'
),
finding_sum AS (
  SELECT agent_id, count(*) AS n, least(${MaxFindingsPenaltyPpm}, sum(penalty))::int AS penalty FROM findings_w GROUP BY agent_id
),
finding_sev AS (
  SELECT agent_id, jsonb_agg(jsonb_build_object('severity', severity, 'count', n, 'penaltyPpm', p) ORDER BY o) AS j
  FROM (SELECT agent_id, severity, min(sev_order) AS o, count(*) AS n, sum(penalty)::int AS p FROM findings_w GROUP BY agent_id, severity) x
  GROUP BY agent_id
),
finding_list AS (
  SELECT agent_id, jsonb_agg(jsonb_build_object('findingId', id, 'kind', kind, 'ruleId', rule_id, 'severity', severity,
    'subject', subject, 'penaltyPpm', penalty) ORDER BY pos) AS j
  FROM (SELECT fw.*, row_number() OVER (PARTITION BY agent_id ORDER BY sev_order, detected_at, id) AS pos FROM findings_w fw) x
  WHERE pos <= ${ListedFindings} GROUP BY agent_id
),
card AS (
  SELECT c.agent_id, c.signature_state, c.signer_kid, c.signer_host, c.fetched_at, d.host AS proven_domain
  FROM agent_a2a_cards c JOIN target t ON t.id = c.agent_id
  LEFT JOIN LATERAL (
    SELECT ${didWebHostSql("i.native_id")} AS host FROM agent_identities i
    WHERE i.agent_id = c.agent_id AND i.proof_method = 'DID_WEB' AND i.proven_at IS NOT NULL AND i.binding = 'REGISTRY_BOUND'
      AND i.native_id LIKE 'did:web:%' AND ${didWebHostSql("i.native_id")} = c.signer_host
    LIMIT 1
  ) d ON c.signature_state = 'VERIFIED' AND t.verification_state = 'VERIFIED'
),
work_t AS (
  SELECT b.claimant_agent_id AS agent_id, count(DISTINCT b.id) FILTER (WHERE b.accepted_at IS NOT NULL) AS accepted,
    count(dr.id) FILTER (WHERE ${disputeLostSql("dr")}) AS lost, max(GREATEST(b.accepted_at, dr.created_at)) AS newest
  FROM bounties b JOIN target t ON t.id = b.claimant_agent_id LEFT JOIN dispute_resolutions dr ON dr.bounty_id = b.id
  WHERE b.accepted_at IS NOT NULL OR dr.id IS NOT NULL
  GROUP BY b.claimant_agent_id
),
work_w AS (
  SELECT b.claimant_agent_id AS agent_id, b.accepted_at,
    round(extract(epoch FROM (b.submitted_at - b.claimed_at)) * 1000)::bigint AS ms
  FROM bounties b JOIN target t ON t.id = b.claimant_agent_id
  WHERE b.accepted_at >= $1::timestamptz AND b.accepted_at < $2::timestamptz
    AND b.claimed_at IS NOT NULL AND b.submitted_at IS NOT NULL
),
work_sum AS (
  SELECT agent_id, count(*) AS n, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY ms) AS p95
  FROM work_w GROUP BY agent_id
),
runs_w AS (
  SELECT r.agent_id, r.state, r.completed_at,
    CASE WHEN r.started_at IS NOT NULL THEN round(extract(epoch FROM (r.completed_at - r.started_at)) * 1000)::bigint END AS ms
  FROM runs r JOIN target t ON t.id = r.agent_id
  WHERE r.completed_at >= $1::timestamptz AND r.completed_at < $2::timestamptz
    AND r.state IN ('SUCCEEDED', 'FAILED', 'TIMED_OUT') AND NOT r.is_playground
),
run_sum AS (
  SELECT agent_id, count(*) AS n, count(*) FILTER (WHERE state = 'SUCCEEDED') AS ok,
    count(*) FILTER (WHERE state = 'FAILED') AS failed, count(*) FILTER (WHERE state = 'TIMED_OUT') AS timed_out,
    percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_disc(0.95) WITHIN GROUP (ORDER BY ms) AS p95,
    max(completed_at) AS newest
  FROM runs_w GROUP BY agent_id
),
probes_w AS (
  SELECT p.agent_id, p.ok, p.latency_ms, p.probed_at FROM agent_endpoint_probes p JOIN target t ON t.id = p.agent_id
  WHERE p.probed_at >= $1::timestamptz AND p.probed_at < $2::timestamptz
),
probe_sum AS (
  SELECT agent_id, count(*) AS n, count(*) FILTER (WHERE ok) AS ok,
    percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE ok) AS p50,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE ok) AS p95,
    max(probed_at) AS newest
  FROM probes_w GROUP BY agent_id
),
days AS (
  SELECT agent_id, 'T' AS k, date_trunc('day', updated_at AT TIME ZONE 'UTC') AS d FROM fb
    WHERE updated_at >= $1::timestamptz AND updated_at < $2::timestamptz
  UNION SELECT agent_id, 'P', date_trunc('day', completed_at AT TIME ZONE 'UTC') FROM runs_w
  UNION SELECT agent_id, 'P', date_trunc('day', probed_at AT TIME ZONE 'UTC') FROM probes_w
  UNION SELECT agent_id, 'P', date_trunc('day', accepted_at AT TIME ZONE 'UTC') FROM work_w
),
day_sum AS (
  SELECT agent_id, count(DISTINCT d) FILTER (WHERE k = 'T') AS t, count(DISTINCT d) FILTER (WHERE k = 'P') AS p,
    count(DISTINCT d) AS a
  FROM days GROUP BY agent_id
),
marks AS (
  SELECT f.agent_id, f.updated_at AS at FROM feedback f JOIN target t ON t.id = f.agent_id
  UNION ALL SELECT f.agent_id, v.updated_at FROM feedback_votes v JOIN feedback f ON f.id = v.feedback_id JOIN target t ON t.id = f.agent_id
  UNION ALL SELECT i.agent_id, COALESCE(i.proven_at, i.created_at) FROM agent_identities i JOIN target t ON t.id = i.agent_id
  UNION ALL SELECT agent_id, completed_at FROM runs_w
  UNION ALL SELECT agent_id, probed_at FROM probes_w
  UNION ALL SELECT agent_id, seen_at FROM findings_w
  UNION ALL SELECT agent_id, fetched_at FROM card
  UNION ALL SELECT agent_id, newest FROM work_t
),
mark_sum AS (SELECT agent_id, max(at) AS newest, count(*) AS n FROM marks GROUP BY agent_id),
base0 AS (
  SELECT t.id, t.star_count, t.verification_state,
    fs.n AS fb_n, fs.sw, fs.swr, fs.mean AS fb_mean, fs.helpful, fs.not_helpful, fc.j AS by_category, fa.j AS by_authenticity,
    COALESCE(pr.proven, 0) AS proven, pr.j AS by_method,
    rs.n AS run_n, rs.ok AS run_ok, rs.failed, rs.timed_out, rs.p50 AS run_p50, rs.p95 AS run_p95,
    ps.n AS probe_n, ps.ok AS probe_ok, ps.p50 AS probe_p50, ps.p95 AS probe_p95,
    ds.t AS t_days, ds.p AS p_days, ds.a AS a_days,
    COALESCE(api_ts(ms.newest), 'none') || ';rows=' || COALESCE(ms.n, 0) || ';stars=' || t.star_count AS watermark,
    ${trustPpmSql("fs.sw", "fs.swr")} AS ratings_ppm,
    COALESCE(fn.n, 0) AS findings_n, COALESCE(fn.penalty, 0) AS findings_penalty, fv.j AS findings_by_severity,
    fl.j AS findings_listed, cd.signature_state, cd.signer_kid, cd.signer_host, cd.proven_domain,
    ${signatureAdjustmentSql("cd.signature_state", "cd.proven_domain IS NOT NULL")} AS signature_adj,
    COALESCE(wt.accepted, 0) AS work_accepted, COALESCE(wt.lost, 0) AS disputes_lost,
    least(${MaxDisputesPenaltyPpm}, COALESCE(wt.lost, 0) * ${DisputeLostPenaltyPpm})::int AS disputes_penalty,
    ws.n AS work_n, ws.p50 AS work_p50, ws.p95 AS work_p95,
    ${ppm("rs.ok", "rs.n")} AS success_ppm,
    ${ppm("ps.ok", "ps.n")} AS availability_ppm
  FROM target t
  LEFT JOIN fb_sum fs ON fs.agent_id = t.id LEFT JOIN fb_cat fc ON fc.agent_id = t.id LEFT JOIN fb_auth fa ON fa.agent_id = t.id
  LEFT JOIN proofs pr ON pr.agent_id = t.id LEFT JOIN run_sum rs ON rs.agent_id = t.id LEFT JOIN probe_sum ps ON ps.agent_id = t.id
  LEFT JOIN day_sum ds ON ds.agent_id = t.id LEFT JOIN mark_sum ms ON ms.agent_id = t.id
  LEFT JOIN finding_sum fn ON fn.agent_id = t.id LEFT JOIN finding_sev fv ON fv.agent_id = t.id
  LEFT JOIN finding_list fl ON fl.agent_id = t.id LEFT JOIN card cd ON cd.agent_id = t.id
  LEFT JOIN work_t wt ON wt.agent_id = t.id LEFT JOIN work_sum ws ON ws.agent_id = t.id
),
adjusted AS (
  SELECT b0.*, ${adjustedTrustSql("b0.ratings_ppm", "b0.signature_adj", "(b0.findings_penalty + b0.disputes_penalty)")} AS trust_ppm,
    ${wilsonSql("b0.swr / 1000000", "b0.sw", "wilson-95-weighted-ratings")} AS ratings_confidence
  FROM base0 b0
),
scored AS (
  SELECT b.*, ${performancePpmSql("b.success_ppm", "b.availability_ppm")} AS performance_ppm,
    ${proofsPpmSql("b.proven")} AS proofs_ppm, ${starsPpmSql("b.star_count")} AS stars_ppm,
    jsonb_build_object(
      'lowPpm', ${clampPpm("(b.ratings_confidence->>'lowPpm')::int + b.signature_adj - b.findings_penalty - b.disputes_penalty")},
      'highPpm', ${clampPpm("(b.ratings_confidence->>'highPpm')::int + b.signature_adj - b.findings_penalty - b.disputes_penalty")},
      'method', b.ratings_confidence->>'method') AS trust_confidence
  FROM adjusted b
),
ranked AS (
  SELECT s.*, ${rankScoreSql("s.trust_ppm", "s.performance_ppm", "s.proofs_ppm", "s.stars_ppm")} AS score_ppm,
    ${rankScoreSql("(s.trust_confidence->>'lowPpm')::int", "s.performance_ppm", "s.proofs_ppm", "s.stars_ppm")} AS score_low,
    ${rankScoreSql("(s.trust_confidence->>'highPpm')::int", "s.performance_ppm", "s.proofs_ppm", "s.stars_ppm")} AS score_high
  FROM scored s
)
INSERT INTO agent_reputation (agent_id, trust, performance, rank, trust_ppm, performance_ppm, rank_score_ppm, projected_at, source_watermark)
SELECT r.id,
  jsonb_build_object(
    'trustPpm', r.trust_ppm,
    'confidence', r.trust_confidence,
    'coverage', ${coverage("r.t_days")},
    'components', jsonb_build_object(
      'ratings', jsonb_build_object('valuePpm', r.ratings_ppm,
        'count', COALESCE(r.fb_n, 0), 'weightTotal', COALESCE(r.sw, 0)::int, 'meanPpm', r.fb_mean,
        'weightedMeanPpm', CASE WHEN r.sw > 0 THEN round(r.swr / r.sw)::int END,
        'byCategory', COALESCE(r.by_category, '[]'::jsonb), 'byAuthenticity', COALESCE(r.by_authenticity, '[]'::jsonb)),
      'proofs', jsonb_build_object('verificationState', v.verification_state, 'provenIdentities', r.proven::int,
        'byMethod', COALESCE(r.by_method, '[]'::jsonb)),
      'votes', jsonb_build_object('helpful', COALESCE(r.helpful, 0)::int, 'notHelpful', COALESCE(r.not_helpful, 0)::int),
      'safety', jsonb_build_object('openFindings', r.findings_n::int, 'penaltyPpm', r.findings_penalty,
        'maxPenaltyPpm', ${MaxFindingsPenaltyPpm}, 'bySeverity', COALESCE(r.findings_by_severity, '[]'::jsonb),
        'findings', COALESCE(r.findings_listed, '[]'::jsonb)),
      'signature', jsonb_build_object('signatureState', r.signature_state, 'signerKid', r.signer_kid,
        'signerHost', r.signer_host, 'provenDomain', r.proven_domain, 'adjustmentPpm', r.signature_adj),
      'work', jsonb_build_object('acceptedDeliveries', r.work_accepted::int, 'disputesLost', r.disputes_lost::int,
        'penaltyPpm', r.disputes_penalty, 'maxPenaltyPpm', ${MaxDisputesPenaltyPpm}))),
  jsonb_build_object(
    'performancePpm', r.performance_ppm,
    'confidence', CASE WHEN r.run_n > 0 THEN ${wilsonSql("r.run_ok", "r.run_n", "wilson-95-run-success")} END,
    'coverage', ${coverage("r.p_days")},
    'components', jsonb_build_object(
      'runs', jsonb_build_object('finished', COALESCE(r.run_n, 0)::int, 'succeeded', COALESCE(r.run_ok, 0)::int,
        'failed', COALESCE(r.failed, 0)::int, 'timedOut', COALESCE(r.timed_out, 0)::int, 'successRatePpm', r.success_ppm,
        'latencyP50Ms', r.run_p50, 'latencyP95Ms', r.run_p95),
      'endpoints', jsonb_build_object('probes', COALESCE(r.probe_n, 0)::int, 'ok', COALESCE(r.probe_ok, 0)::int,
        'availabilityPpm', r.availability_ppm, 'latencyP50Ms', r.probe_p50, 'latencyP95Ms', r.probe_p95),
      'work', jsonb_build_object('acceptedDeliveries', COALESCE(r.work_n, 0)::int,
        'deliveryTimeP50Ms', r.work_p50, 'deliveryTimeP95Ms', r.work_p95))),
  jsonb_build_object(
    'scorePpm', r.score_ppm,
    'confidence', jsonb_build_object('lowPpm', r.score_low, 'highPpm', r.score_high, 'method', 'trust-wilson-bounds'),
    'coverage', ${coverage("r.a_days")},
    'components', jsonb_build_object(
      'trust', jsonb_build_object('valuePpm', r.trust_ppm, 'weight', ${RankWeights.trust}),
      'performance', jsonb_build_object('valuePpm', r.performance_ppm, 'weight', ${RankWeights.performance}),
      'proofs', jsonb_build_object('valuePpm', r.proofs_ppm, 'weight', ${RankWeights.proofs}, 'provenIdentities', r.proven::int),
      'stars', jsonb_build_object('valuePpm', r.stars_ppm, 'weight', ${RankWeights.stars}, 'starCount', r.star_count::text))),
  r.trust_ppm, r.performance_ppm, r.score_ppm, $3::timestamptz, r.watermark
FROM ranked r JOIN agents v ON v.id = r.id
ON CONFLICT (agent_id) DO UPDATE SET trust = EXCLUDED.trust, performance = EXCLUDED.performance, rank = EXCLUDED.rank,
  trust_ppm = EXCLUDED.trust_ppm, performance_ppm = EXCLUDED.performance_ppm, rank_score_ppm = EXCLUDED.rank_score_ppm,
  projected_at = EXCLUDED.projected_at, source_watermark = EXCLUDED.source_watermark`

/**
 * The ordinal ranks (`agents.rank`) from the projected scores in one UPDATE: 1 = the highest
 * score among listed ACTIVE agents with a projection, ties by the smaller entity UUID; every
 * other agent null. Only changed rows are written; the profile's `version` is not touched
 * (the rank is a projection, not an edit). Answers how many agents changed rank.
 */
const rerankStatement = `
WITH ranked AS (
  SELECT a.id, row_number() OVER (ORDER BY r.rank_score_ppm DESC, a.id) AS pos
  FROM agents a JOIN agent_reputation r ON r.agent_id = a.id
  WHERE a.listed_at IS NOT NULL AND a.state = 'ACTIVE'
)
UPDATE agents t SET rank = ranked.pos
FROM agents a LEFT JOIN ranked ON ranked.id = a.id
WHERE t.id = a.id AND t.rank IS DISTINCT FROM ranked.pos::numeric
RETURNING t.id`

/** The transaction-level advisory lock that serializes projections (an arbitrary constant key). */
export const ProjectionLockKey = 22_0003

/**
 * Projects `agentIds` (or every agent, `"all"`) at `at`: applies the verification rule,
 * recomputes their three documents, then re-ranks every listed agent. Answers how many agents
 * were projected. Fails with `SqlError`; run it in a transaction.
 */
export const projectAgents = (
  agentIds: ReadonlyArray<string> | "all",
  at: Date
): Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (agentIds !== "all" && agentIds.length === 0) return 0
    const sql = yield* SqlClient.SqlClient
    const window = evidenceWindow(at)
    // one projection at a time (the drain, the hourly full run): their re-ranks would otherwise
    // update the same agents in different orders; held until the transaction ends
    yield* sql`SELECT pg_advisory_xact_lock(${ProjectionLockKey})`
    yield* applyVerificationRule(agentIds, at)
    const ids = agentIds === "all" ? null : `{${agentIds.join(",")}}`
    const rows = yield* sql.unsafe(`${projectStatement} RETURNING agent_id`, [
      window.start.toISOString(),
      window.end.toISOString(),
      at.toISOString(),
      ids
    ])
    yield* rerank
    return rows.length
  })

/** Rewrites the ordinal ranks (see {@link rerankStatement}); answers how many changed. Fails with `SqlError`. */
export const rerank: Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => Effect.map(sql.unsafe(rerankStatement), (rows) => rows.length)
)

