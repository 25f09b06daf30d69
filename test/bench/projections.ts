/**
 * `npm run bench:projections`, PostgreSQL (`DATABASE_URL`: a server where a
 * scratch database can be created): the full recompute of the trust, rank and performance
 * projections over `BENCH_AGENTS` (100,000) agents and `BENCH_EVIDENCE` (1,000,000) evidence rows
 * (40 % PUBLISHED feedback, 30 % finished runs, 30 % endpoint probes, in the evidence window),
 * generated with set-based SQL (generate_series) in a scratch database (migrated and seeded with
 * the demo data, dropped at the end); then the delay from one new feedback's commit (with its
 * `markAgentEvidence`) to its effect on the agent's trust read through the service call of
 * Trust_GetAgentTrust, with the projector's loop (LISTEN + `drainMarks`, what the cluster
 * singleton runs) in this process. Prints the figures (docs/performance.md).
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Fiber, Layer, Redacted, Stream } from "effect"
import { execFileSync } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import pg from "pg"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { markAgentEvidence, ReputationEvidenceChannel } from "../../src/trust/reputation/Evidence.js"
import { drainMarks, recomputeAll } from "../../src/trust/reputation/Projector.js"
import { Reputation } from "../../src/trust/reputation/Reputation.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const agents = Number(process.env["BENCH_AGENTS"] ?? 100_000)
const evidence = Number(process.env["BENCH_EVIDENCE"] ?? 1_000_000)

const admin = async (sqlText: string) => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(sqlText)
  } finally {
    await client.end()
  }
}

const main = async () => {
  if (serverUrl === "") throw new Error("bench:projections needs DATABASE_URL (PostgreSQL)")
  const name = `bench_projections_${randomBytes(4).toString("hex")}`
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  try {
    const env = { ...process.env, DATABASE_URL: url.toString() }
    execFileSync("npx", ["tsx", "src/cli/migrate.ts"], { env, stdio: "ignore" })
    execFileSync("npx", ["tsx", "demo/cli/seed.ts"], { env, stdio: "ignore" })
    const layer = PgClient.layer({ url: Redacted.make(url.toString()), maxConnections: 4 })
    await Effect.runPromise(run.pipe(Effect.provide(Layer.merge(layer, Reputation.Default.pipe(Layer.provide(layer)))), Effect.scoped))
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

const run = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pgClient = yield* PgClient.PgClient
  const owner = DemoAccounts.owner.id
  const feedbackRows = Math.round(evidence * 0.4)
  const runRows = Math.round(evidence * 0.3)
  const probeRows = evidence - feedbackRows - runRows
  const t0 = Date.now()
  // generated rows need no trigger (the search documents and evidence marks are not measured here): one
  // transaction with triggers and foreign-key checks off
  yield* sql.withTransaction(Effect.gen(function*() {
  yield* sql.unsafe(`SET LOCAL session_replication_role = replica`)
  yield* sql.unsafe(`INSERT INTO agents (id, canonical_slug, name, description, star_count, verification_state, listed_at, created_at, updated_at)
    SELECT md5('agent' || g)::uuid, 'bench-agent-' || g, 'Bench agent ' || g, '', (g::bigint * 7919) % 5000, 'UNVERIFIED', now(), now(), now()
    FROM generate_series(1, ${agents}) g`)
  yield* sql.unsafe(`INSERT INTO feedback (id, agent_id, author_account_id, rating_ppm, category, title, body, state, authenticity_state, created_at, updated_at)
    SELECT md5('fb' || g)::uuid, md5('agent' || (1 + g % ${agents}))::uuid, '${owner}', ((g::bigint * 104729) % 1000001)::int,
      (ARRAY['QUALITY','RELIABILITY','SAFETY','VALUE','COMMUNICATION','OTHER'])[1 + g % 6], 't', 'b', 'PUBLISHED',
      (ARRAY['VERIFIED_INTERACTION','VERIFIED','UNVERIFIED','SUSPECTED'])[1 + g % 4], now() - (g % 40) * interval '1 day', now() - (g % 40) * interval '1 day'
    FROM generate_series(1, ${feedbackRows}) g`)
  yield* sql.unsafe(`INSERT INTO runs (id, agent_id, trigger_type, state, retention_expires_at, created_at, started_at, completed_at, updated_at)
    SELECT md5('run' || g)::uuid, md5('agent' || (1 + g % ${agents}))::uuid, 'API',
      (ARRAY['SUCCEEDED','SUCCEEDED','SUCCEEDED','FAILED','TIMED_OUT','CANCELLED'])[1 + g % 6], now() + interval '90 days',
      now() - (g % 29) * interval '1 day', now() - (g % 29) * interval '1 day', now() - (g % 29) * interval '1 day' + (g % 9000) * interval '1 millisecond', now()
    FROM generate_series(1, ${runRows}) g`)
  yield* sql.unsafe(`INSERT INTO agent_endpoint_probes (id, agent_id, endpoint_kind, url, probed_at, ok, latency_ms, failure_code)
    SELECT md5('probe' || g)::uuid, md5('agent' || (1 + g % ${agents}))::uuid, 'MCP_SERVER', 'https://mcp.example/mcp',
      now() - (g % 29) * interval '1 day', g % 10 <> 0, CASE WHEN g % 10 <> 0 THEN g % 800 END, CASE WHEN g % 10 = 0 THEN 'TIMEOUT' END
    FROM generate_series(1, ${probeRows}) g`)
  }))
  yield* sql.unsafe(`ANALYZE`)
  console.log(`generated ${agents} agents and ${feedbackRows + runRows + probeRows} evidence rows ` +
    `(${feedbackRows} feedback, ${runRows} runs, ${probeRows} probes) in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

  const full: Array<number> = []
  for (let i = 0; i < 2; i++) {
    const start = Date.now()
    const n = yield* recomputeAll
    full.push(Date.now() - start)
    console.log(`full recompute ${i + 1}: ${n} agents in ${((Date.now() - start) / 1000).toFixed(1)} s`)
  }

  // the projector's loop in this process: LISTEN reputation_evidence, drain on each notification
  const wake = yield* Effect.makeLatch(false)
  yield* pgClient.listen(ReputationEvidenceChannel).pipe(Stream.runForEach(() => wake.open), Effect.forkScoped)
  const loop = yield* Effect.forever(Effect.gen(function*() {
    yield* wake.close
    const n = yield* drainMarks
    if (n === 0) yield* Effect.raceFirst(wake.await, Effect.sleep("5 seconds"))
  })).pipe(Effect.fork)
  yield* Effect.sleep("500 millis")
  const reputation = yield* Reputation
  const delays: Array<number> = []
  for (let i = 1; i <= 5; i++) {
    // a demo agent (the generated ids are md5-shaped, not the API's UUIDs): among 100,008 ranked agents
    const agent = DemoAgents[i]!.id
    const before = (yield* reputation.trust(agent)).data.components?.ratings.count ?? 0
    const start = Date.now()
    yield* sql.withTransaction(Effect.gen(function*() {
      const at = new Date()
      yield* sql`INSERT INTO feedback ${sql.insert({
        id: randomUUID(), agent_id: agent, author_account_id: owner, rating_ppm: 1_000_000, category: "QUALITY", title: "t",
        body: "b", state: "PUBLISHED", authenticity_state: "VERIFIED_INTERACTION", created_at: at, updated_at: at
      })}`
      yield* markAgentEvidence(agent, at)
    }))
    while ((yield* reputation.trust(agent)).data.components?.ratings.count === before) yield* Effect.sleep("10 millis")
    delays.push(Date.now() - start)
  }
  yield* Fiber.interrupt(loop)
  console.log(`feedback commit → visible on trust (incl. re-rank of ${agents} agents): ` +
    delays.map((d) => `${d} ms`).join(", ") + ` (max ${Math.max(...delays)} ms)`)
  console.log(JSON.stringify({ agents, evidence: feedbackRows + runRows + probeRows, fullRecomputeMs: full, feedbackDelayMs: delays }))
})

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
