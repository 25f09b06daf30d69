/**
 * What the benchmark's comparison servers (`reference.ts`, `floor.ts`, `bare.ts`) share:
 * the envelope `meta` they answer with, the Schemas of the two reads' bodies, and the two
 * Effect servers' SQL (the reference's, with pg's `$n` parameters, is the same text).
 */
import type { SqlClient } from "@effect/sql"
import { Schema } from "effect"
import { createHash, randomUUID } from "node:crypto"

/** A fresh envelope `meta`, as the project's (spec §3.1): a new request id and time per response. */
export const meta = () => ({
  requestId: randomUUID(),
  schemaVersion: "1.0.0",
  buildVersion: "1.0.0-dev",
  generatedAt: new Date().toISOString(),
  freshness: { projectedAt: null, sourceWatermark: null }
})

export const Meta = Schema.Struct({
  requestId: Schema.String,
  schemaVersion: Schema.String,
  buildVersion: Schema.String,
  generatedAt: Schema.String,
  freshness: Schema.Struct({ projectedAt: Schema.Null, sourceWatermark: Schema.Null })
})

/** A row of `GET /api/v1/protocols`. */
export const Protocol = Schema.Struct({
  key: Schema.String,
  name: Schema.String,
  status: Schema.String,
  features: Schema.Array(Schema.String)
})

/** A row of `GET /api/v1/me/sessions`. */
export const Session = Schema.Struct({
  sessionId: Schema.String,
  current: Schema.Boolean,
  createdAt: Schema.String,
  authenticatedAt: Schema.String,
  lastSeenAt: Schema.String,
  expiresAt: Schema.String,
  userAgent: Schema.NullOr(Schema.String)
})

export const ProtocolsBody = Schema.Struct({ data: Schema.Struct({ protocols: Schema.Array(Protocol) }), meta: Meta })
export const SessionsBody = Schema.Struct({ data: Schema.Array(Session), meta: Meta })

/** A live session of a cookie token, as the project's auth looks it up (layers/Auth.ts). */
export interface SessionRow {
  readonly session_id: string
  readonly account_id: string
  readonly last_seen_at: Date
}

/** The reads' statements on `sql`: the catalog, the session lookup and its once-a-minute touch, the session list. */
export const readsOf = (sql: SqlClient.SqlClient) => ({
  protocols: () => sql<typeof Protocol.Type>`SELECT key, name, status, features FROM protocols ORDER BY position, key`,
  session: (token: string, at: Date) =>
    sql<SessionRow>`
      SELECT s.id AS session_id, s.account_id, a.is_admin, s.csrf_hash, s.authenticated_at, s.last_seen_at
      FROM sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = ${createHash("sha256").update(token).digest()} AND s.revoked_at IS NULL AND s.expires_at > ${at}`,
  touch: (session: SessionRow, at: Date) => sql`UPDATE sessions SET last_seen_at = ${at} WHERE id = ${session.session_id}`,
  /** Whether the session's `last_seen_at` is a minute old (then it is touched). */
  stale: (session: SessionRow, at: Date) => at.getTime() - session.last_seen_at.getTime() >= 60_000,
  sessions: (session: SessionRow, at: Date) =>
    sql<typeof Session.Type>`
      SELECT id AS "sessionId", (id = ${session.session_id}) AS current, api_ts(created_at) AS "createdAt",
        api_ts(authenticated_at) AS "authenticatedAt", api_ts(last_seen_at) AS "lastSeenAt",
        api_ts(expires_at) AS "expiresAt", user_agent AS "userAgent"
      FROM sessions WHERE account_id = ${session.account_id} AND revoked_at IS NULL AND expires_at > ${at}
      ORDER BY created_at DESC, id DESC`
})
