/**
 * SQL of the MCP subregistry's reads (migration 0050): `registry_servers` with, per row, its agent's
 * verification state, published feedback, latest endpoint probe and upstream source.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ServerStatus } from "./Schemas.js"

/** One server version row with its agent's evidence. */
export interface ServerRow {
  readonly name: string
  readonly version: string
  readonly server: string
  readonly status: ServerStatus
  readonly statusMessage: string | null
  readonly statusChangedAt: Date
  readonly publishedAt: Date
  readonly updatedAt: Date
  readonly isLatest: boolean
  readonly agentId: string
  readonly verificationState: string
  readonly feedbackCount: number
  readonly averageRatingPpm: number | null
  readonly probedAt: Date | null
  readonly probeOk: boolean | null
  readonly latencyMs: number | null
  readonly sourceId: string | null
  readonly sourceKind: "MCP_REGISTRY" | "ERC8004" | "WELL_KNOWN" | null
  readonly entryState: "PRESENT" | "VANISHED" | null
}

/** The filters of a list. */
export interface ServerFilter {
  readonly search?: string
  readonly version?: string
  readonly updatedSince?: Date
  readonly includeDeleted: boolean
}

export class RegistryRepo extends Effect.Service<RegistryRepo>()("agent-directory/RegistryRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const select = sql`SELECT s.name, s.version, s.server::text AS server, s.status, s.status_message AS "statusMessage",
        s.status_changed_at AS "statusChangedAt", s.published_at AS "publishedAt", s.updated_at AS "updatedAt",
        s.is_latest AS "isLatest", a.id AS "agentId", a.verification_state AS "verificationState",
        f.feedback_count::int AS "feedbackCount", f.average_rating_ppm::int AS "averageRatingPpm",
        p.probed_at AS "probedAt", p.ok AS "probeOk", p.latency_ms AS "latencyMs",
        e.source_id AS "sourceId", u.kind AS "sourceKind", e.state AS "entryState"
      FROM registry_servers s
      JOIN agents a ON a.id = s.agent_id
      LEFT JOIN LATERAL (SELECT count(*) AS feedback_count, round(avg(rating_ppm)) AS average_rating_ppm
                         FROM feedback WHERE agent_id = a.id AND state = 'PUBLISHED') f ON true
      LEFT JOIN LATERAL (SELECT probed_at, ok, latency_ms FROM agent_endpoint_probes
                         WHERE agent_id = a.id ORDER BY probed_at DESC LIMIT 1) p ON true
      LEFT JOIN upstream_entries e ON e.agent_id = a.id
      LEFT JOIN upstream_sources u ON u.id = e.source_id`

    const deleted = (includeDeleted: boolean) => includeDeleted ? sql`` : sql`AND s.status <> 'deleted'`

    return {
      /** Versions matching `filter` after (name, version) `after`, ordered by name then version (bytewise), at most `take`. */
      list: (filter: ServerFilter, after: readonly [string, string] | undefined, take: number) =>
        sql<ServerRow>`${select}
          WHERE true
          ${filter.search === undefined ? sql`` : sql`AND strpos(lower(s.name), lower(${filter.search})) > 0`}
          ${filter.version === undefined ? sql`` : filter.version === "latest" ? sql`AND s.is_latest` : sql`AND s.version = ${filter.version}`}
          ${filter.updatedSince === undefined ? deleted(filter.includeDeleted) : sql`AND s.updated_at > ${filter.updatedSince}`}
          ${after === undefined ? sql`` : sql`AND (s.name COLLATE "C", s.version COLLATE "C") > (${after[0]}, ${after[1]})`}
          ORDER BY s.name COLLATE "C", s.version COLLATE "C" LIMIT ${take}`,
      /** Every version of `name`, newest published first. */
      versions: (name: string, includeDeleted: boolean) =>
        sql<ServerRow>`${select} WHERE s.name = ${name} ${deleted(includeDeleted)}
          ORDER BY s.published_at DESC, s.version COLLATE "C" DESC`,
      /** One version of `name` (`latest`: the latest). */
      version: (name: string, version: string, includeDeleted: boolean) =>
        sql<ServerRow>`${select} WHERE s.name = ${name}
          ${version === "latest" ? sql`AND s.is_latest` : sql`AND s.version = ${version}`} ${deleted(includeDeleted)}`
    }
  })
}) {}
