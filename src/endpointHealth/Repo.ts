/**
 * SQL of endpoint health: which stored endpoints of listed ACTIVE agents
 * are probed (their A2A interfaces, `agent_interfaces`; their MCP servers,
 * `mcp_connections` not DISABLED; their ERC-8004 registration endpoints with an http(s)
 * URL, `agent_registration_endpoints`), the probe history (`agent_endpoint_probes`,
 * migration 0026) and its purge. Failures are `SqlError`s: a probe round survives one
 * agent's failed write, and the cron retries a database that is down (`retryTransient`).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Option } from "effect"
import { Ids } from "../../layers/Ids.js"
import { markAgentEvidence } from "../trust/index.js"
import type { McpTransport } from "../mcp/index.js"

/** The kinds of endpoint probed (the `endpoint_kind` of `agent_endpoint_probes`). */
export type EndpointKind = "A2A_INTERFACE" | "MCP_SERVER" | "REGISTRATION_ENDPOINT"

/** One stored endpoint to probe. `transport`: an MCP server's (`mcp_connections.transport`), else null. */
export interface EndpointTarget {
  readonly agentId: string
  readonly kind: EndpointKind
  readonly url: string
  readonly transport: McpTransport | null
}

/**
 * Why a probe was not ok (`agent_endpoint_probes.failure_code`), a stable set:
 * - `TIMEOUT`: no answer within the probe's timeout (`ENDPOINT_PROBE_TIMEOUT_MS`);
 * - `CONNECTION_FAILED`: the host could not be resolved or reached, or the connection broke;
 * - `HTTP_STATUS`: it answered a 5xx (an MCP server: any status but 2xx and 401);
 * - `PROTOCOL_ERROR`: an MCP server answered, but not as MCP (`initialize` or `ping` failed);
 * - `TARGET_REFUSED`: the outbound rules refuse the URL (scheme, credentials, a non-public
 *   address not in `OUTBOUND_ALLOWED_HOSTS`, too many redirects, not a URL): nothing was sent;
 * - `RESPONSE_TOO_LARGE`: an MCP server's answer was larger than `OUTBOUND_MAX_BYTES`.
 */
export type ProbeFailureCode =
  | "TIMEOUT"
  | "CONNECTION_FAILED"
  | "HTTP_STATUS"
  | "PROTOCOL_ERROR"
  | "TARGET_REFUSED"
  | "RESPONSE_TOO_LARGE"

/**
 * One probe of one endpoint. `latencyMs`: whole milliseconds from the request to the answer
 * (an MCP server: to the `ping`'s answer, or to its 401), null when nothing answered
 * (`TIMEOUT`, `CONNECTION_FAILED`, `TARGET_REFUSED`). `failureCode`: null when `ok`.
 */
export interface EndpointProbe extends EndpointTarget {
  readonly probedAt: Date
  readonly ok: boolean
  readonly latencyMs: number | null
  readonly failureCode: ProbeFailureCode | null
}

/** The most endpoints one round reads (the agents in id order; the rest wait for the next round). */
export const MaxEndpointsPerRound = 10_000

/** How long probe rows are kept: 90 days (the `PurgeEndpointProbes` cron deletes older ones). */
export const ProbeRetentionDays = 90

export class EndpointProbesRepo extends Effect.Service<EndpointProbesRepo>()("agent-directory/EndpointProbesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids

    /**
     * The endpoints to probe, of every listed ACTIVE agent or (some `agentId`) of that one
     * (none when it is not listed and ACTIVE): by agent id, then MCP servers, A2A interfaces and
     * registration endpoints, each in stored order. The same URL listed twice for an agent
     * is one target (the first: an MCP server is probed as one).
     */
    const targets = (agentId: Option.Option<string>): Effect.Effect<ReadonlyArray<EndpointTarget>, SqlError.SqlError> =>
      sql<{ agentId: string; kind: EndpointKind; url: string; transport: McpTransport | null }>`
        SELECT e.agent_id AS "agentId", e.kind, e.url, e.transport FROM (
          SELECT agent_id, 'MCP_SERVER' AS kind, server_url AS url, transport, 0 AS rank, created_at, id::text AS position
            FROM mcp_connections WHERE state <> 'DISABLED'
          UNION ALL
          SELECT agent_id, 'A2A_INTERFACE', url, NULL, 1, NULL, lpad(position::text, 10, '0') FROM agent_interfaces
          UNION ALL
          SELECT agent_id, 'REGISTRATION_ENDPOINT', endpoint, NULL, 2, NULL, lpad(position::text, 10, '0')
            FROM agent_registration_endpoints WHERE endpoint ~* '^https?://'
        ) e JOIN agents a ON a.id = e.agent_id
        WHERE a.state = 'ACTIVE' AND a.listed_at IS NOT NULL
          ${Option.match(agentId, { onNone: () => sql``, onSome: (id) => sql`AND a.id = ${id}` })}
        ORDER BY e.agent_id, e.rank, e.created_at, e.position
        LIMIT ${MaxEndpointsPerRound}`.pipe(
        Effect.map((rows) => {
          const seen = new Set<string>()
          return rows.filter((row) => {
            const key = `${row.agentId} ${row.url}`
            if (seen.has(key)) return false
            seen.add(key)
            return true
          })
        })
      )

    /**
     * Records one agent's probes and marks its evidence changed (`markAgentEvidence` at
     * `at`), in one transaction. Nothing is written for no probes.
     */
    const record = (agentId: string, probes: ReadonlyArray<EndpointProbe>, at: Date): Effect.Effect<void, SqlError.SqlError> =>
      probes.length === 0 ? Effect.void : Effect.gen(function*() {
        const rows = []
        for (const probe of probes) {
          rows.push({
            id: yield* ids.next,
            agent_id: agentId,
            endpoint_kind: probe.kind,
            url: probe.url,
            probed_at: probe.probedAt,
            ok: probe.ok,
            latency_ms: probe.latencyMs,
            failure_code: probe.failureCode
          })
        }
        yield* sql`INSERT INTO agent_endpoint_probes ${sql.insert(rows)}`
        yield* markAgentEvidence(agentId, at).pipe(Effect.provideService(SqlClient.SqlClient, sql))
      }).pipe(sql.withTransaction)

    /** Deletes the probes made before `before`; returns how many. */
    const purgeBefore = (before: Date): Effect.Effect<number, SqlError.SqlError> =>
      sql`DELETE FROM agent_endpoint_probes WHERE probed_at < ${before} RETURNING 1`.pipe(Effect.map((rows) => rows.length))

    return { targets, record, purgeBefore }
  })
}) {}
