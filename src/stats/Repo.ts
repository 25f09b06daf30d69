/**
 * SQL of the stats area: the figures of a span of time `[from, upTo)`
 * from the evidence tables (set-based: one grouped query per source, no per-agent loop),
 * and the stored projections of closed days (migration 0028). The definitions of the
 * figures are in docs/stats.md.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { Effect } from "effect"
import type { DayFreshness } from "./Document.js"

/** The directory's raw figures of a span (counts as decimal strings). */
export interface DirectoryFigureRow {
  readonly listed: string
  readonly verified: string
  readonly new: string
  readonly runsStarted: string
  readonly runsSucceeded: string
  readonly runsFailed: string
  readonly feedbackCreated: string
  readonly meanRatingPpm: number | null
  readonly bountiesPosted: string
  readonly bountiesFunded: string
  readonly bountiesPaid: string
  readonly bountiesDisputed: string
}

/** Revenue of one asset (units as a decimal string). */
export interface RevenueRow {
  readonly assetId: string
  readonly symbol: string | null
  readonly units: string
}

/** One agent's raw figures of a span (counts as decimal strings). */
export interface AgentFigureRow {
  readonly agentId: string
  readonly runsStarted: string
  readonly runsSucceeded: string
  readonly runsFailed: string
  readonly latencyP50Ms: number | null
  readonly feedbackCreated: string
  readonly meanRatingPpm: number | null
  readonly stars: string
  readonly probesOk: string
  readonly probesTotal: string
  readonly activityItems: string
  readonly ordersPaid: string
  readonly revenue: ReadonlyArray<RevenueRow>
}

/** A stored projection: the day, its document and tag, its freshness. */
export interface StoredDay {
  readonly day: string
  readonly document: string
  readonly etag: string
  readonly freshness: DayFreshness
}

/** Rows of a batch insert per statement. */
const InsertChunk = 500

interface StoredRow {
  readonly day: string
  readonly document: string
  readonly etag: string
  readonly projectedAt: string
  readonly sourceWatermark: string
}
const stored = (r: StoredRow): StoredDay => ({
  day: r.day,
  document: r.document,
  etag: r.etag,
  freshness: { projectedAt: new Date(r.projectedAt), sourceWatermark: r.sourceWatermark }
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /**
   * The agents listed at `upTo`: an ACTIVE agent listed before it, or a RETIRED one created
   * before it and retired at or after it (retiring clears `listed_at`; such an agent was
   * listed from its creation). `since`: when it was first listed.
   */
  const listedAt = (upTo: Date) =>
    sql`SELECT a.id, a.verification_state,
               CASE WHEN a.state = 'RETIRED' THEN a.created_at ELSE a.listed_at END AS since
          FROM agents a
         WHERE (a.state = 'ACTIVE' AND a.listed_at < ${upTo})
            OR (a.state = 'RETIRED' AND a.created_at < ${upTo} AND a.retired_at >= ${upTo})`

  /**
   * The orders of every workspace paid in `[from, upTo)` (`paid_at`): their count and revenue
   * by asset (ascending asset id).
   */
  const paidOrders = (from: Date, upTo: Date) =>
    Effect.map(
      sql<{ assetId: string; symbol: string | null; paid: string; units: string }>`
        SELECT o.asset_id AS "assetId", a.symbol, count(*)::text AS paid, sum(o.total_units)::text AS units
          FROM orders o JOIN assets a ON a.id = o.asset_id
         WHERE o.paid_at >= ${from} AND o.paid_at < ${upTo}
         GROUP BY o.asset_id, a.symbol ORDER BY o.asset_id`,
      (rows) => ({
        paid: String(rows.reduce((n, r) => n + BigInt(r.paid), 0n)),
        revenue: rows.map((r) => ({ assetId: r.assetId, symbol: r.symbol, units: r.units }))
      })
    )

  /** The directory's figures of `[from, upTo)`. Fails with `SqlError`. */
  const directoryFigures = (from: Date, upTo: Date) =>
    Effect.gen(function*() {
      const [row] = yield* sql<DirectoryFigureRow>`
        WITH listed AS (${listedAt(upTo)})
        SELECT (SELECT count(*) FROM listed)::text AS listed,
               (SELECT count(*) FROM listed WHERE verification_state = 'VERIFIED')::text AS verified,
               (SELECT count(*) FROM listed WHERE since >= ${from})::text AS new,
               (SELECT count(*) FROM runs WHERE NOT is_playground AND started_at >= ${from} AND started_at < ${upTo})::text
                 AS "runsStarted",
               (SELECT count(*) FROM runs WHERE NOT is_playground AND state = 'SUCCEEDED'
                  AND completed_at >= ${from} AND completed_at < ${upTo})::text AS "runsSucceeded",
               (SELECT count(*) FROM runs WHERE NOT is_playground AND state IN ('FAILED','TIMED_OUT')
                  AND completed_at >= ${from} AND completed_at < ${upTo})::text AS "runsFailed",
               (SELECT count(*) FROM feedback WHERE created_at >= ${from} AND created_at < ${upTo})::text AS "feedbackCreated",
               (SELECT round(avg(rating_ppm))::int FROM feedback WHERE created_at >= ${from} AND created_at < ${upTo})
                 AS "meanRatingPpm",
               (SELECT count(*) FROM bounties WHERE created_at >= ${from} AND created_at < ${upTo})::text AS "bountiesPosted",
               (SELECT count(*) FROM bounties WHERE funded_at >= ${from} AND funded_at < ${upTo})::text AS "bountiesFunded",
               (SELECT count(*) FROM bounties WHERE state = 'RELEASED' AND settled_at >= ${from} AND settled_at < ${upTo})::text
                 AS "bountiesPaid",
               (SELECT count(*) FROM bounty_disputes WHERE created_at >= ${from} AND created_at < ${upTo})::text
                 AS "bountiesDisputed"`
      const networks = yield* sql<{ network: string; listed: string }>`
        WITH listed AS (${listedAt(upTo)})
        SELECT i.network, count(DISTINCT i.agent_id)::text AS listed
          FROM agent_identities i JOIN listed l ON l.id = i.agent_id
         WHERE i.binding = 'REGISTRY_BOUND' AND i.network IS NOT NULL AND i.created_at < ${upTo}
         GROUP BY i.network ORDER BY i.network COLLATE "C"`
      const protocols = yield* sql<{ protocol: string; listed: string }>`
        WITH listed AS (${listedAt(upTo)})
        SELECT p.protocol_key AS protocol, count(*)::text AS listed
          FROM agent_protocols p JOIN listed l ON l.id = p.agent_id
         GROUP BY p.protocol_key ORDER BY p.protocol_key COLLATE "C"`
      const orders = yield* paidOrders(from, upTo)
      return { row: row!, networks, protocols, orders }
    })

  /**
   * The figures of `[from, upTo)` of the agents `targets` selects (a query of one column
   * `agent_id`): one statement, each source grouped by agent. Fails with `SqlError`.
   */
  const agentFigures = (from: Date, upTo: Date, targets: Statement.Fragment) =>
    sql<AgentFigureRow>`
      WITH r AS (
        SELECT agent_id,
               count(*) FILTER (WHERE started_at >= ${from} AND started_at < ${upTo}) AS started,
               count(*) FILTER (WHERE state = 'SUCCEEDED' AND completed_at >= ${from} AND completed_at < ${upTo}) AS succeeded,
               count(*) FILTER (WHERE state IN ('FAILED','TIMED_OUT') AND completed_at >= ${from} AND completed_at < ${upTo})
                 AS failed,
               percentile_disc(0.5) WITHIN GROUP (ORDER BY completed_at - started_at)
                 FILTER (WHERE state = 'SUCCEEDED' AND started_at IS NOT NULL
                           AND completed_at >= ${from} AND completed_at < ${upTo}) AS p50
          FROM runs
         WHERE NOT is_playground
           AND ((started_at >= ${from} AND started_at < ${upTo}) OR (completed_at >= ${from} AND completed_at < ${upTo}))
         GROUP BY agent_id),
      f AS (
        SELECT agent_id, count(*) AS created, round(avg(rating_ppm))::int AS mean
          FROM feedback WHERE created_at >= ${from} AND created_at < ${upTo} GROUP BY agent_id),
      p AS (
        SELECT agent_id, count(*) FILTER (WHERE ok) AS ok, count(*) AS total
          FROM agent_endpoint_probes WHERE probed_at >= ${from} AND probed_at < ${upTo} GROUP BY agent_id),
      act AS (
        SELECT agent_id, count(*) AS items
          FROM agent_activity WHERE occurred_at >= ${from} AND occurred_at < ${upTo} GROUP BY agent_id),
      ord AS (
        SELECT agent_id, sum(n) AS paid,
               json_agg(json_build_object('assetId', asset_id, 'symbol', symbol, 'units', units::text) ORDER BY asset_id)
                 AS revenue
          FROM (SELECT o.agent_id, o.asset_id, a.symbol, count(*) AS n, sum(o.total_units) AS units
                  FROM orders o JOIN assets a ON a.id = o.asset_id
                 WHERE o.agent_id IS NOT NULL AND o.paid_at >= ${from} AND o.paid_at < ${upTo}
                 GROUP BY o.agent_id, o.asset_id, a.symbol) x
         GROUP BY agent_id),
      t AS (${targets})
      SELECT t.agent_id AS "agentId",
             COALESCE(r.started, 0)::text AS "runsStarted",
             COALESCE(r.succeeded, 0)::text AS "runsSucceeded",
             COALESCE(r.failed, 0)::text AS "runsFailed",
             round(extract(epoch FROM r.p50) * 1000)::float8 AS "latencyP50Ms",
             COALESCE(f.created, 0)::text AS "feedbackCreated",
             f.mean AS "meanRatingPpm",
             (SELECT count(*) FROM favorite_agents fa WHERE fa.agent_id = t.agent_id AND fa.created_at < ${upTo})::text AS stars,
             COALESCE(p.ok, 0)::text AS "probesOk",
             COALESCE(p.total, 0)::text AS "probesTotal",
             COALESCE(act.items, 0)::text AS "activityItems",
             COALESCE(ord.paid, 0)::text AS "ordersPaid",
             COALESCE(ord.revenue, '[]'::json) AS revenue
        FROM t
        LEFT JOIN r ON r.agent_id = t.agent_id
        LEFT JOIN f ON f.agent_id = t.agent_id
        LEFT JOIN p ON p.agent_id = t.agent_id
        LEFT JOIN act ON act.agent_id = t.agent_id
        LEFT JOIN ord ON ord.agent_id = t.agent_id
       ORDER BY t.agent_id`

  /** The `targets` of one agent. */
  const oneAgent = (agentId: string) => sql`SELECT ${agentId}::uuid AS agent_id`

  /**
   * The `targets` of every agent with evidence in `[from, upTo)`: a run started or ended,
   * feedback written, a favorite added, an endpoint probed, an activity item or an order paid.
   */
  const agentsWithEvidence = (from: Date, upTo: Date) =>
    sql`SELECT agent_id FROM runs WHERE NOT is_playground AND started_at >= ${from} AND started_at < ${upTo}
        UNION SELECT agent_id FROM runs WHERE NOT is_playground AND completed_at >= ${from} AND completed_at < ${upTo}
        UNION SELECT agent_id FROM feedback WHERE created_at >= ${from} AND created_at < ${upTo}
        UNION SELECT agent_id FROM favorite_agents WHERE created_at >= ${from} AND created_at < ${upTo}
        UNION SELECT agent_id FROM agent_endpoint_probes WHERE probed_at >= ${from} AND probed_at < ${upTo}
        UNION SELECT agent_id FROM agent_activity WHERE occurred_at >= ${from} AND occurred_at < ${upTo}
        UNION SELECT agent_id FROM orders WHERE agent_id IS NOT NULL AND paid_at >= ${from} AND paid_at < ${upTo}`

  /** True when an agent has this id. */
  const agentExists = (agentId: string) =>
    Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM agents WHERE id = ${agentId}`, ([r]) => r!.n > 0)

  const storedColumns = sql`day::text AS day, document, etag, api_ts(projected_at) AS "projectedAt",
                            source_watermark AS "sourceWatermark"`

  /** The stored directory days of `from`..`to` (both included), in day order. */
  const storedDirectoryDays = (from: string, to: string) =>
    Effect.map(
      sql<StoredRow>`SELECT ${storedColumns} FROM stats_directory_daily
                      WHERE day BETWEEN ${from}::date AND ${to}::date ORDER BY day`,
      (rows) => rows.map(stored)
    )

  /** The stored days of one agent in `from`..`to` (both included), in day order. */
  const storedAgentDays = (agentId: string, from: string, to: string) =>
    Effect.map(
      sql<StoredRow>`SELECT ${storedColumns} FROM stats_agent_daily
                      WHERE agent_id = ${agentId} AND day BETWEEN ${from}::date AND ${to}::date ORDER BY day`,
      (rows) => rows.map(stored)
    )

  /** Stores directory days; a day already stored keeps its first projection. */
  const insertDirectoryDays = (days: ReadonlyArray<StoredDay>) =>
    Effect.forEach(chunks(days), (chunk) =>
      sql`INSERT INTO stats_directory_daily ${
        sql.insert(chunk.map((d) => ({
          day: d.day,
          document: d.document,
          etag: d.etag,
          projected_at: d.freshness.projectedAt,
          source_watermark: d.freshness.sourceWatermark
        })))
      } ON CONFLICT (day) DO NOTHING`, { discard: true })

  /** Stores agents' days; a day already stored for an agent keeps its first projection. */
  const insertAgentDays = (days: ReadonlyArray<StoredDay & { readonly agentId: string }>) =>
    Effect.forEach(chunks(days), (chunk) =>
      sql`INSERT INTO stats_agent_daily ${
        sql.insert(chunk.map((d) => ({
          agent_id: d.agentId,
          day: d.day,
          document: d.document,
          etag: d.etag,
          projected_at: d.freshness.projectedAt,
          source_watermark: d.freshness.sourceWatermark
        })))
      } ON CONFLICT (agent_id, day) DO NOTHING`, { discard: true })

  return {
    directoryFigures,
    agentFigures,
    oneAgent,
    agentsWithEvidence,
    agentExists,
    storedDirectoryDays,
    storedAgentDays,
    insertDirectoryDays,
    insertAgentDays
  }
})

const chunks = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += InsertChunk) out.push(items.slice(i, i + InsertChunk))
  return out
}

/** The stats area's SQL. Requires `SqlClient`; every method fails with `SqlError`. */
export class StatsRepo extends Effect.Service<StatsRepo>()("agent-directory/StatsRepo", { effect: make }) {}
