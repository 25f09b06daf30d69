/**
 * The benchmark's reference: what a user would write instead of this project for
 * the same two reads, a plain Fastify 5 + `pg` server running the project's own
 * SQL on the same database and answering the same envelopes.
 *
 * - `GET /api/v1/protocols`: the catalog query of `src/protocols/Repo.ts`.
 * - `GET /api/v1/me/sessions`: the session lookup and once-a-minute touch of
 *   `layers/Auth.ts`, then the list query of `src/accounts/Repo.ts`.
 *
 * Run by `test/bench/http.ts` as a child process: `DATABASE_URL`, `PORT`.
 */
import Fastify from "fastify"
import { createHash } from "node:crypto"
import Pg from "pg"
import { meta } from "./reads.js"

const pool = new Pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 20 })
const app = Fastify()

const unauthenticated = { type: "https://agent-directory.dev/problems/unauthenticated", title: "Unauthorized", status: 401 }

app.get("/api/v1/protocols", async (_request, reply) => {
  const { rows } = await pool.query("SELECT key, name, status, features FROM protocols ORDER BY position, key")
  reply.header("cache-control", "public, max-age=300, stale-while-revalidate=60")
  return { data: { protocols: rows }, meta: meta() }
})

app.get("/api/v1/me/sessions", async (request, reply) => {
  const token = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.cookie ?? "")?.[1]
  const at = new Date()
  const session = token === undefined ? undefined : (await pool.query(
    `SELECT s.id AS session_id, s.account_id, a.is_admin, s.csrf_hash, s.authenticated_at, s.last_seen_at
     FROM sessions s JOIN accounts a ON a.id = s.account_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
    [createHash("sha256").update(token).digest(), at]
  )).rows[0]
  reply.header("cache-control", "private, no-cache")
  if (session === undefined) return reply.code(401).type("application/problem+json").send(unauthenticated)
  if (at.getTime() - session.last_seen_at.getTime() >= 60_000) {
    await pool.query("UPDATE sessions SET last_seen_at = $1 WHERE id = $2", [at, session.session_id])
  }
  const { rows } = await pool.query(
    `SELECT id AS "sessionId", (id = $1) AS current, api_ts(created_at) AS "createdAt",
       api_ts(authenticated_at) AS "authenticatedAt", api_ts(last_seen_at) AS "lastSeenAt",
       api_ts(expires_at) AS "expiresAt", user_agent AS "userAgent"
     FROM sessions WHERE account_id = $2 AND revoked_at IS NULL AND expires_at > $3
     ORDER BY created_at DESC, id DESC`,
    [session.session_id, session.account_id, at]
  )
  return { data: rows, meta: meta() }
})

await app.listen({ port: Number(process.env["PORT"]), host: "127.0.0.1" })
