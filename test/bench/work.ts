/**
 * `npm run bench:work`: work for agents on PostgreSQL (`DATABASE_URL`: a scratch database is created and
 * dropped, test/bench/scratch.ts), with the demo data seeded.
 *
 * 1. Job search: `BENCH_JOBS` jobs (default 100,000: 95% partner jobs of 20 sources, 5% OPEN bounties) with
 *    generated titles, descriptions, skills, protocols and USDC rewards; p50/p99 of Jobs_ListJobs through the
 *    board's service (the REST handler's and `search_jobs`' code path): a text query, filters with the reward
 *    order, and a facet-like count (matches per skill for a text query); each beside a reference in the same
 *    run, the same text as a plain `ILIKE` scan of title and description (the ratio is reference / measured).
 * 2. Webhooks: `BENCH_EVENTS` events (default 2,000) emitted with `emitEvent` (layers/Events.ts), each in its own
 *    transaction, to one subscription whose URL is a receiver on 127.0.0.1, delivered by the sender loop of
 *    src/workspaces/webhooks/Delivery.ts (`WEBHOOK_POLL_INTERVAL_MS` 100): deliveries per second from a backlog,
 *    and the delay from an event's commit to its arrival at the receiver (p50/p99) at a steady rate.
 */
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import { AuthLive } from "../../layers/Auth.js"
import { AppConfig, DefaultDbLimits } from "../../layers/AppConfig.js"
import { CursorLive } from "../../layers/Cursor.js"
import { DbServer } from "../../layers/Db.js"
import { emitEvent } from "../../layers/Events.js"
import { IdsLive } from "../../layers/Ids.js"
import { MailLive } from "../../layers/Mail.js"
import { OutboundConfigLive } from "../../layers/AppConfig.js"
import { seedDemoData } from "../../demo/seed.js"
import { DemoAssets } from "../../demo/common.js"
import { DemoEscrow } from "../../demo/jobs/bounties/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { migrate } from "../../src/db/migrate.js"
import { JobBoard } from "../../src/jobs/index.js"
import { ListJobsQuery } from "../../src/jobs/board/Schemas.js"
import { WebhookDeliveryLive } from "../../src/workspaces/webhooks/Delivery.js"
import { webhookSecretCipher } from "../../src/workspaces/webhooks/Secrets.js"
import { Schema } from "effect"
import { testConfig, testConfigLayer } from "../support/config.js"
import { quantile, withScratchDatabase } from "./scratch.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const jobs = Number(process.env["BENCH_JOBS"] ?? 100_000)
const events = Number(process.env["BENCH_EVENTS"] ?? 2_000)
const rounds = Number(process.env["BENCH_ROUNDS"] ?? 200)

const ms = (n: number) => n.toFixed(2)

/** Generates the board: 20 partner sources, their jobs and OPEN bounties, set-based. */
const generate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const bounties = Math.round(jobs * 0.05)
  yield* sql.unsafe(`
CREATE TEMP TABLE words AS SELECT * FROM unnest(ARRAY['research','audit','translate','summarise','label','benchmark',
  'monitor','index','contract','agent','payment','escrow','protocol','dataset','report','review','design','support',
  'ticket','image','model','embedding','search','weather','forecast','trading','oracle','relay','wallet','invoice'])
  WITH ORDINALITY AS w(word, n);
INSERT INTO partner_job_sources (id, code, display_name, website_url, endpoint_url, adapter_version,
  response_schema_version, poll_interval_seconds, request_timeout_ms, state, failure_count, version,
  configuration_version, created_at, updated_at)
SELECT gen_random_uuid(), 'bench-' || s, 'Bench ' || s, 'https://bench' || s || '.example', 'https://bench' || s || '.example/feed',
  'feed-v2', 2, 900, 10000, CASE WHEN s % 10 = 0 THEN 'PAUSED' ELSE 'ACTIVE' END, 0, 1, 1, now(), now()
FROM generate_series(1, 20) s;
INSERT INTO partner_jobs (source_id, external_id, title, url, description, posted_at, closes_at, first_seen_at,
  last_seen_at, skills, protocols, reward_units, reward_asset, reward_network)
SELECT src.id, 'job-' || g,
  initcap(w1.word) || ' ' || w2.word || ' ' || w3.word || ' #' || g,
  'https://bench.example/jobs/' || g,
  'Please ' || w2.word || ' the ' || w4.word || ' ' || w1.word || ' and write a short ' || w5.word || ' about it.',
  now() - (g || ' minutes')::interval,
  CASE WHEN g % 3 = 0 THEN NULL ELSE now() + ((g % 90) || ' days')::interval END,
  now(), now(),
  ARRAY[w1.word, w3.word], CASE WHEN g % 2 = 0 THEN ARRAY['mcp'] ELSE ARRAY['a2a'] END,
  CASE WHEN g % 4 = 0 THEN NULL ELSE (g % 1000 + 1) * 1000000 END,
  CASE WHEN g % 4 = 0 THEN NULL ELSE 'USDC' END,
  CASE WHEN g % 4 = 0 THEN NULL ELSE 'eip155:8453' END
FROM generate_series(1, ${jobs - bounties}) g
JOIN LATERAL (SELECT id FROM partner_job_sources WHERE code = 'bench-' || (g % 20 + 1)) src ON true
JOIN words w1 ON w1.n = g % 30 + 1 JOIN words w2 ON w2.n = (g / 30) % 30 + 1 JOIN words w3 ON w3.n = (g / 7) % 30 + 1
JOIN words w4 ON w4.n = (g / 11) % 30 + 1 JOIN words w5 ON w5.n = (g / 13) % 30 + 1;
INSERT INTO bounties (id, workspace_id, title, description, state, asset_id, escrow_units, escrow_network,
  escrow_contract_address, escrow_wallet_id, required_skills, required_protocols, deadline_at, version, created_at, updated_at)
SELECT gen_random_uuid(), '${DemoWorkspaces.acme.id}', initcap(w1.word) || ' ' || w2.word || ' bounty #' || g,
  'Bounty: ' || w3.word || ' the ' || w1.word || ' ' || w2.word || '.', 'OPEN', '${DemoAssets.usdc.id}',
  (g % 500 + 1) * 1000000, '${DemoEscrow.network}', '${DemoEscrow.contractAddress}', '${DemoEscrow.walletId}',
  ARRAY[w1.word], ARRAY['mcp'], now() + ((g % 60 + 1) || ' days')::interval, 1,
  now() - (g || ' minutes')::interval, now()
FROM generate_series(1, ${bounties}) g
JOIN words w1 ON w1.n = (g * 7) % 30 + 1 JOIN words w2 ON w2.n = (g * 13) % 30 + 1 JOIN words w3 ON w3.n = (g * 17) % 30 + 1;
ANALYZE partner_jobs; ANALYZE bounties; ANALYZE partner_job_sources;`)
})

/** Wall-clock milliseconds of each of `rounds` runs of `effect`, after 5 warm-up runs. */
const time = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 5; i++) yield* effect
    const samples: Array<number> = []
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now()
      yield* effect
      samples.push(performance.now() - t0)
    }
    return samples
  })

const search = Effect.gen(function*() {
  const board = yield* JobBoard
  const sql = yield* SqlClient.SqlClient
  const decode = Schema.decodeUnknownSync(ListJobsQuery)
  const listing = (query: Record<string, string | Array<string>>) => board.list(decode(query), "anonymous").pipe(Effect.orDie)
  /** The same text as a substring scan of both kinds, newest first (what a search without the index would do). */
  const ilike = (words: ReadonlyArray<string>, extra = "") =>
    sql.unsafe(`(SELECT j.id, j.posted_at FROM partner_jobs j JOIN partner_job_sources s ON s.id = j.source_id
        WHERE s.state IN ('ACTIVE', 'DEGRADED') AND j.withdrawn_at IS NULL AND (j.closes_at IS NULL OR j.closes_at > now())
          ${words.map((w) => `AND (j.title || ' ' || COALESCE(j.description, '')) ILIKE '%${w}%'`).join(" ")} ${extra.replaceAll("X.", "j.")}
        ORDER BY j.posted_at DESC LIMIT 25)
      UNION ALL
      (SELECT b.id, b.created_at FROM bounties b WHERE b.state = 'OPEN'
          ${words.map((w) => `AND (b.title || ' ' || b.description) ILIKE '%${w}%'`).join(" ")}
        ORDER BY b.created_at DESC LIMIT 25) ORDER BY 2 DESC LIMIT 25`)
  const facet = (q: string) =>
    sql`SELECT skill, count(*) FROM (
        SELECT unnest(j.skills) AS skill FROM partner_jobs j JOIN partner_job_sources s ON s.id = j.source_id
        WHERE s.state IN ('ACTIVE', 'DEGRADED') AND j.withdrawn_at IS NULL
          AND job_search_document(j.title, j.description) @@ plainto_tsquery('agent_search', ${q})
        UNION ALL
        SELECT unnest(b.required_skills) FROM bounties b WHERE b.state = 'OPEN'
          AND job_search_document(b.title, b.description) @@ plainto_tsquery('agent_search', ${q})) m
      GROUP BY skill ORDER BY count(*) DESC LIMIT 20`
  const facetIlike = (q: string) =>
    sql.unsafe(`SELECT skill, count(*) FROM (
        SELECT unnest(j.skills) AS skill FROM partner_jobs j JOIN partner_job_sources s ON s.id = j.source_id
        WHERE s.state IN ('ACTIVE', 'DEGRADED') AND j.withdrawn_at IS NULL
          AND (j.title || ' ' || COALESCE(j.description, '')) ILIKE '%${q}%'
        UNION ALL
        SELECT unnest(b.required_skills) FROM bounties b WHERE b.state = 'OPEN' AND (b.title || ' ' || b.description) ILIKE '%${q}%') m
      GROUP BY skill ORDER BY count(*) DESC LIMIT 20`)
  const cases: ReadonlyArray<{
    readonly figure: string
    readonly measured: Effect.Effect<unknown, unknown>
    readonly reference: Effect.Effect<unknown, unknown>
  }> = [
    { figure: "text q=\"escrow audit\"", measured: listing({ q: "escrow audit", sort: "newest" }), reference: ilike(["escrow", "audit"]) },
    { figure: "text q=\"weather forecast\" (relevance)", measured: listing({ q: "weather forecast" }), reference: ilike(["weather", "forecast"]) },
    {
      figure: "filter skills+asset+minReward, sort reward",
      measured: listing({ skills: ["oracle"], asset: "USDC", minReward: "500000000", sort: "reward" }),
      reference: ilike(["oracle"], "AND X.reward_units >= 500000000")
    },
    { figure: "newest page, no filter", measured: listing({}), reference: ilike([]) },
    { figure: "facet-like: matches per skill, q=\"payment\"", measured: facet("payment"), reference: facetIlike("payment") }
  ]
  const rows: Array<Record<string, string>> = []
  for (const c of cases) {
    const m = yield* time(c.measured)
    const r = yield* time(c.reference)
    rows.push({
      figure: c.figure,
      "p50 ms": ms(quantile(m, 0.5)),
      "p99 ms": ms(quantile(m, 0.99)),
      "ILIKE p50 ms": ms(quantile(r, 0.5)),
      "ILIKE p99 ms": ms(quantile(r, 0.99)),
      "ratio p50": (quantile(r, 0.5) / quantile(m, 0.5)).toFixed(1)
    })
  }
  return rows
})

/** A receiver on 127.0.0.1 recording when each `webhook-id` arrives (answering 204). */
const receiver = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly arrived: Map<string, number>; readonly close: () => void }>((resume) => {
    const arrived = new Map<string, number>()
    const server = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        const id = req.headers["webhook-id"]
        if (typeof id === "string" && !arrived.has(id)) arrived.set(id, performance.now())
        res.writeHead(204).end()
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        arrived,
        close: () => {
          server.closeAllConnections()
          server.close()
        }
      })))
  }),
  (r) => Effect.sync(r.close)
)

const webhooks = (senderLayer: Layer.Layer<never, never, never>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const hook = yield* receiver
    const subscriptionId = randomUUID()
    const sealed = webhookSecretCipher(config.keys.webhookSecrets).seal(subscriptionId, Redacted.make(`whsec_${Buffer.from(randomUUID()).toString("base64")}`))
    yield* sql`INSERT INTO webhook_subscriptions (id, workspace_id, url, event_kinds, secret_sealed, state, version, created_at, updated_at)
      VALUES (${subscriptionId}, ${DemoWorkspaces.acme.id}, ${hook.url}, '{bounty.*}', ${sealed}, 'ACTIVE', 1, now(), now())`
    const emit = (i: number) =>
      sql.withTransaction(emitEvent({ workspaceId: DemoWorkspaces.acme.id, kind: "bounty.funded", subjectId: randomUUID(), data: { n: i } }))

    // a backlog: every event committed, then the sender loop started
    for (let i = 0; i < events; i++) yield* emit(i)
    const t0 = performance.now()
    const backlog = yield* Effect.scoped(Effect.gen(function*() {
      yield* Layer.build(senderLayer)
      while (hook.arrived.size < events) yield* Effect.sleep("20 millis")
      return performance.now() - t0
    }))
    hook.arrived.clear()

    // steady: 20 events a second for the same number of seconds as needed, the sender running
    const steady = Math.min(events, 400)
    const committed = new Map<string, number>()
    yield* Effect.scoped(Effect.gen(function*() {
      yield* Layer.build(senderLayer)
      for (let i = 0; i < steady; i++) {
        const id = yield* emit(i)
        committed.set(id, performance.now())
        yield* Effect.sleep(Duration.millis(50))
      }
      while (hook.arrived.size < steady) yield* Effect.sleep("20 millis")
    }))
    const delays = [...committed].map(([id, at]) => hook.arrived.get(id)! - at)
    return [
      { figure: `deliveries /s (backlog of ${events})`, value: Math.round((events * 1000) / backlog).toString() },
      { figure: `commit → delivery p50 ms (${steady} events at 20/s)`, value: ms(quantile(delays, 0.5)) },
      { figure: "commit → delivery p99 ms", value: ms(quantile(delays, 0.99)) }
    ]
  })

const main = () =>
  withScratchDatabase("work", serverUrl, async (url) => {
    const config = testConfigLayer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })
    // generating 100,000 jobs and the ILIKE reference scans outlast the service's 5 s statement budget on a loaded machine
    const limits = { ...DefaultDbLimits, statementTimeoutMs: 600_000 }
    const base = Layer.mergeAll(DbServer(Redacted.make(url), migrate, limits), IdsLive).pipe(Layer.provideMerge(config))
    const layer = Layer.mergeAll(JobBoard.Default, AuthLive, OutboundConfigLive, MailLive).pipe(
      Layer.provideMerge(CursorLive),
      Layer.provideMerge(base)
    )
    const program = Effect.gen(function*() {
      yield* seedDemoData
      const g0 = performance.now()
      yield* generate
      const generated = (performance.now() - g0) / 1000
      const searchRows = yield* search
      const context = yield* Effect.context<never>()
      const sender = WebhookDeliveryLive.pipe(Layer.provide(Layer.succeedContext(context))) as Layer.Layer<never>
      const webhookRows = yield* webhooks(sender)
      return { generated, searchRows, webhookRows }
    })
    const result = await Effect.runPromise(
      program.pipe(Effect.provide(layer), Effect.scoped, Logger.withMinimumLogLevel(LogLevel.Error), Effect.orDie) as Effect.Effect<{
        generated: number
        searchRows: Array<Record<string, string>>
        webhookRows: Array<Record<string, string>>
      }>
    )
    console.log(`\nbench:work on PostgreSQL: ${jobs.toLocaleString("en")} jobs generated in ${result.generated.toFixed(1)} s; ` +
      `${rounds} runs per query, one client; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`)
    console.table(result.searchRows)
    console.table(result.webhookRows)
  })

void main()
