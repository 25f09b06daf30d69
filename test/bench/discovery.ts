/**
 * `npm run bench:discovery` (PostgreSQL only: `DATABASE_URL`): the directory search at scale, in a
 * scratch database created and dropped here (`BENCH_KEEP_DB=1` keeps it, named in the output).
 *
 * 1. Generates `BENCH_AGENTS` (1,000,000) listed agents with `INSERT … SELECT generate_series`: 20
 *    domains of vocabulary, 3 imported skills (names, descriptions, tags) and 2 MCP tools each, 1-2
 *    protocols, a registry-bound identity on base or solana for two thirds, an A2A card import for a
 *    quarter. Triggers are off while generating (`session_replication_role = replica`); the search
 *    documents are then built by `agent_search_refresh` in batches of `BENCH_BATCH` (20,000), timed.
 * 2. Runs each query kind `BENCH_QUERIES` (640) times from `BENCH_CLIENTS` (32) concurrent clients
 *    (a pool of as many connections), through `AgentsRepo` (src/agents/Repo.ts: the word resolution and
 *    the page, exactly what Agents_ListAgents and Agents_ListAgentFacets run), and prints p50/p99:
 *    - text: `q=weather forecast` (relevance), - typo: `q=wether forcast` (relevance),
 *    - facet: the facets of `q=translation`, and of `protocols=a2a` with no `q`,
 *    - filter: `q=research`, `protocols=mcp`, `networks=base`, relevance;
 *    for text and typo also with every match scored (`RelevanceCandidates` unbounded: the relevance order
 *    before its two phases), beside the reference: the substring search it replaced (`ILIKE '%q%'` on name, slug and tagline,
 *    rank order, same filters; for facets, the same substring filter counted per protocol), on the same
 *    data, as a ratio (reference p50 / search p50: above 1, the search is faster).
 *    `BENCH_DB` names a database generated before (kept with `BENCH_KEEP_DB=1`): no generation, nothing
 *    dropped; `BENCH_GENERATE_ONLY=1` stops after the generation; `BENCH_HOOKS=0` skips step 3;
 *    `BENCH_CASES` (comma-separated name prefixes: `text,typo`) runs only those kinds. Each kind's row is
 *    printed as JSON when measured (with /proc/loadavg), the table at the end.
 * 3. Runs every module of `test/bench/discovery/` that exports `run(sql)`, in name order, with `sql`
 *    the `SqlClient` of the generated database (a returned Effect or Promise is awaited).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import pg from "pg"
import { DefaultDbLimits } from "../../layers/AppConfig.js"
import { DbServer } from "../../layers/Db.js"
import { migrate } from "../../src/db/migrate.js"
import { type AgentFilters, AgentsRepo } from "../../src/agents/Repo.js"
import { queryWords, RelevanceCandidates, tsqueryText } from "../../src/agents/SearchQuery.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const agents = Number(process.env["BENCH_AGENTS"] ?? 1_000_000)
const batch = Number(process.env["BENCH_BATCH"] ?? 20_000)
const clients = Number(process.env["BENCH_CLIENTS"] ?? 32)
const queries = Number(process.env["BENCH_QUERIES"] ?? 640)
const reuse = process.env["BENCH_DB"] ?? ""
const keep = process.env["BENCH_KEEP_DB"] === "1" || reuse !== ""
const generateOnly = process.env["BENCH_GENERATE_ONLY"] === "1"
const runHooks = process.env["BENCH_HOOKS"] !== "0"

const admin = async (text: string) => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

const domains = [
  "weather", "translation", "research", "trading", "monitoring", "legal", "medical", "travel", "coding", "security",
  "music", "sports", "recipes", "fitness", "finance", "shipping", "housing", "education", "gaming", "news"
]
const sqlArray = (xs: ReadonlyArray<string>) => `ARRAY[${xs.map((x) => `'${x}'`).join(",")}]`

/** The generation, one statement per table; `$1`/`$2` the agent number range. */
const generation = [
  `INSERT INTO agents (id, canonical_slug, name, rank, tagline, description, star_count, verification_state, listed_at, created_at, updated_at)
   SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'agent-' || g,
     initcap((${sqlArray(["swift", "bright", "quiet", "bold", "clever", "steady", "lucid", "prime", "nimble", "keen"])})[1 + g % 10])
       || ' ' || initcap(d.w) || ' ' || initcap((${sqlArray(["oracle", "desk", "scout", "pilot", "agent", "studio", "bureau", "lab"])})[1 + (g / 10) % 8])
       || ' ' || g,
     rank_of(g), initcap(d.w) || ' ' || (${sqlArray(["answers", "insights", "alerts", "reports", "automation"])})[1 + (g / 7) % 5] || ' on demand',
     'An agent for ' || d.w || ' tasks: it ' || (${sqlArray(["summarises", "tracks", "compares", "explains", "schedules"])})[1 + (g / 3) % 5]
       || ' ' || d.w || ' data for teams and individuals, with sources.',
     (g % 1000)::numeric, (${sqlArray(["UNVERIFIED", "PARTIAL", "VERIFIED", "EXPIRED", "CONFLICTED"])})[1 + g % 5],
     now() - make_interval(secs => g), now(), now()
   FROM generate_series($1::int, $2::int) g, LATERAL (SELECT (${sqlArray(domains)})[1 + g % 20] AS w) d`,
  `INSERT INTO agent_skills (agent_id, position, import_id, skill_id, name, description, tags, examples, input_modes, output_modes)
   SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, p, '00000000-0000-4000-9000-000000000001',
     'skill-' || p, initcap(d.w) || ' ' || v.v, v.v || 's ' || d.w || ' questions in plain language.',
     jsonb_build_array(d.w, v.v), '[]', '["text/plain"]', '["text/plain"]'
   FROM generate_series($1::int, $2::int) g, generate_series(0, 2) p,
     LATERAL (SELECT (${sqlArray(domains)})[1 + g % 20] AS w) d,
     LATERAL (SELECT (${sqlArray(["forecast", "lookup", "summary", "audit", "planner", "digest", "review", "alert"])})[1 + (g + p * 3) % 8] AS v) v`,
  `INSERT INTO runtime_tools (id, agent_id, stable_name, version, description, input_schema, risk_class, executor_kind,
     execution_class, source_kind, source_reference, implementation_version, available, state, created_at)
   SELECT ('00000000-0000-4000-a' || p || '00-' || lpad(to_hex(g), 12, '0'))::uuid,
     ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid,
     'get_' || d.w || '_' || (ARRAY['report','status','history'])[1 + (g + p) % 3], 1,
     'Returns the ' || d.w || ' ' || (ARRAY['report','status','history'])[1 + (g + p) % 3] || ' for a place or a date.',
     '{"type":"object"}', 'LOW', 'MCP', 'READ', 'MCP_SERVER', '00000000-0000-4000-9000-000000000002', '1', true, 'ACTIVE', now()
   FROM generate_series($1::int, $2::int) g, generate_series(0, 1) p, LATERAL (SELECT (${sqlArray(domains)})[1 + g % 20] AS w) d`,
  `INSERT INTO agent_protocols (agent_id, protocol_key)
   SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, k
   FROM generate_series($1::int, $2::int) g,
     unnest(CASE g % 5 WHEN 0 THEN ARRAY['mcp'] WHEN 1 THEN ARRAY['a2a','x402'] WHEN 2 THEN ARRAY['mcp','erc-8004']
       WHEN 3 THEN ARRAY['openapi'] ELSE ARRAY['a2a'] END) k`,
  `INSERT INTO agent_identities (id, agent_id, family, kind, network, scope, native_id, locator, binding, created_at)
   SELECT ('00000000-0000-4000-b000-' || lpad(to_hex(g), 12, '0'))::uuid, ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid,
     'EVM', 'REGISTRY_TOKEN', CASE g % 3 WHEN 0 THEN 'base' ELSE 'solana' END, '0x8004', g::text,
     'bench:' || g, 'REGISTRY_BOUND', now()
   FROM generate_series($1::int, $2::int) g WHERE g % 3 <> 2`,
  `INSERT INTO agent_imports (id, agent_id, kind, url, state, requested_by, created_at, updated_at)
   SELECT ('00000000-0000-4000-c000-' || lpad(to_hex(g), 12, '0'))::uuid, ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid,
     'A2A_AGENT_CARD', 'https://agent-' || g || '.example/.well-known/agent-card.json', 'SUCCEEDED',
     '00000000-0000-4000-9000-000000000003', now(), now()
   FROM generate_series($1::int, $2::int) g WHERE g % 4 = 0`
]

/** Builds the data set in `url`: the catalog, the agents in slices, then their search documents. */
const generate = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`SET session_replication_role = replica`)
    await client.query(`INSERT INTO protocols (key, name, status, features, position) VALUES
      ('mcp','Model Context Protocol','SUPPORTED','{}',1), ('a2a','Agent2Agent','SUPPORTED','{}',2),
      ('x402','x402 Payments','SUPPORTED','{}',3), ('erc-8004','ERC-8004 Trustless Agents','PREVIEW','{}',4),
      ('openapi','OpenAPI','SUPPORTED','{}',5) ON CONFLICT DO NOTHING`)
    // a stable pseudo-random rank: a permutation of 1..agents
    await client.query(`CREATE OR REPLACE FUNCTION rank_of(g int) RETURNS numeric LANGUAGE sql IMMUTABLE AS
      $$ SELECT ((g::bigint * 7919) % ${agents} + 1)::numeric $$`)
    const t0 = performance.now()
    const slice = 100_000
    for (let from = 1; from <= agents; from += slice) {
      const to = Math.min(agents, from + slice - 1)
      for (const statement of generation) await client.query(statement, [from, to])
    }
    await client.query(`ANALYZE`)
    const t1 = performance.now()
    for (let from = 1; from <= agents; from += batch) {
      const to = Math.min(agents, from + batch - 1)
      await client.query(
        `SELECT agent_search_refresh(ARRAY(SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid
           FROM generate_series($1::int, $2::int) g))`,
        [from, to]
      )
    }
    const t2 = performance.now()
    await client.query(`SET session_replication_role = origin`)
    await client.query(`VACUUM ANALYZE`)
    return { rowsSeconds: (t1 - t0) / 1000, documentsSeconds: (t2 - t1) / 1000 }
  } finally {
    await client.end()
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

/** Runs `one` `queries` times from `clients` concurrent fibers; latencies in ms, sorted. */
const measure = <E, R>(one: Effect.Effect<unknown, E, R>) =>
  Effect.gen(function*() {
    const latencies: Array<number> = []
    let left = queries
    const worker = Effect.gen(function*() {
      while (left > 0) {
        left--
        const t = performance.now()
        yield* one
        latencies.push(performance.now() - t)
      }
    })
    // warm-up: one round of each client
    yield* Effect.all(Array.from({ length: clients }, () => one), { concurrency: clients })
    yield* Effect.all(Array.from({ length: clients }, () => worker), { concurrency: clients })
    return latencies.sort((a, b) => a - b)
  })

interface Case {
  readonly name: string
  readonly search: Effect.Effect<unknown, never, AgentsRepo | SqlClient.SqlClient>
  readonly reference: Effect.Effect<unknown, unknown, SqlClient.SqlClient>
  /** The same search with every match scored (no candidate bound: what the relevance order cost before). */
  readonly unbounded?: Effect.Effect<unknown, never, AgentsRepo | SqlClient.SqlClient>
}

const cases = Effect.gen(function*() {
  const repo = yield* AgentsRepo
  const sql = yield* SqlClient.SqlClient
  const filters = (q: string | undefined, more: Partial<AgentFilters> = {}) =>
    Effect.gen(function*() {
      const search = q === undefined ? undefined : yield* Effect.map(
        repo.resolveWords(queryWords(q)),
        (resolved) => ({ tsquery: tsqueryText(resolved), words: queryWords(q).join(" ") })
      )
      return { networks: [], protocols: [], verificationStates: [], search, ...more } satisfies AgentFilters
    })
  const listed = (q: string, more: Partial<AgentFilters> = {}) =>
    Effect.flatMap(filters(q, more), (f) => repo.list(f, "relevance", undefined, 25))
  const everyMatch = <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.provideService(e, RelevanceCandidates, 2 ** 31 - 1)
  const faceted = (q: string | undefined, more: Partial<AgentFilters> = {}) => Effect.flatMap(filters(q, more), repo.facets)
  /** The substring search Agents_ListAgents ran before (ILIKE on name, slug, tagline; rank order). */
  const substring = (q: string, extra = sql``) =>
    sql`SELECT a.id, a.name, a.canonical_slug, a.rank FROM agents a
        WHERE a.listed_at IS NOT NULL ${extra}
          AND (a.name ILIKE ${`%${q}%`} OR a.canonical_slug ILIKE ${`%${q}%`} OR a.tagline ILIKE ${`%${q}%`})
        ORDER BY COALESCE(a.rank, 1e78), a.id LIMIT 25`
  const substringFacets = (q: string | undefined, extra = sql``) =>
    sql`SELECT p.protocol_key, count(*) FROM agents a JOIN agent_protocols p ON p.agent_id = a.id
        WHERE a.listed_at IS NOT NULL ${extra}
          ${q === undefined ? sql`` : sql`AND (a.name ILIKE ${`%${q}%`} OR a.canonical_slug ILIKE ${`%${q}%`} OR a.tagline ILIKE ${`%${q}%`})`}
        GROUP BY p.protocol_key`
  const mcpOnBase = sql`AND EXISTS (SELECT 1 FROM agent_protocols p WHERE p.agent_id = a.id AND p.protocol_key = 'mcp')
        AND EXISTS (SELECT 1 FROM agent_identities i WHERE i.agent_id = a.id AND i.binding = 'REGISTRY_BOUND' AND i.network = 'base')`
  const a2a = sql`AND EXISTS (SELECT 1 FROM agent_protocols p WHERE p.agent_id = a.id AND p.protocol_key = 'a2a')`
  return [
    {
      name: "text: weather forecast",
      search: listed("weather forecast"),
      reference: substring("weather forecast"),
      unbounded: everyMatch(listed("weather forecast"))
    },
    {
      name: "typo: wether forcast",
      search: listed("wether forcast"),
      reference: substring("wether forcast"),
      unbounded: everyMatch(listed("wether forcast"))
    },
    { name: "facet: q=translation", search: faceted("translation"), reference: substringFacets("translation") },
    { name: "facet: protocols=a2a", search: faceted(undefined, { protocols: ["a2a"] }), reference: substringFacets(undefined, a2a) },
    {
      name: "filter: research, mcp, base",
      search: listed("research", { protocols: ["mcp"], networks: ["base"] }),
      reference: substring("research", mcpOnBase)
    }
  ] satisfies ReadonlyArray<Case>
})

/** The modules of test/bench/discovery/ exporting `run(sql)`, in name order. */
const hookModules = async () => {
  const dir = join(import.meta.dirname, "discovery")
  if (!existsSync(dir)) return []
  const files = readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith(".d.ts")).sort()
  const modules: Array<{ file: string; run: (sql: SqlClient.SqlClient) => unknown }> = []
  for (const file of files) {
    const mod = await import(pathToFileURL(join(dir, file)).href)
    if (typeof mod.run === "function") modules.push({ file, run: mod.run })
  }
  return modules
}

const main = async () => {
  if (serverUrl === "") {
    console.error("bench:discovery needs PostgreSQL: set DATABASE_URL (a server where it may create a scratch database).")
    process.exit(1)
  }
  const scratch = reuse !== "" ? reuse : `bench_discovery_${randomBytes(4).toString("hex")}`
  if (reuse === "") await admin(`CREATE DATABASE ${scratch}`)
  const url = new URL(serverUrl)
  url.pathname = `/${scratch}`
  try {
    const db = DbServer(Redacted.make(url.toString()), migrate, {
      ...DefaultDbLimits,
      poolMax: clients,
      statementTimeoutMs: 600_000
    })
    await Effect.runPromise(Effect.scoped(Layer.build(db)).pipe(Effect.asVoid, Logger.withMinimumLogLevel(LogLevel.Error)) as Effect.Effect<void>)
    if (reuse === "") {
      console.log(`generating ${agents.toLocaleString("en")} agents in ${scratch} …`)
      const built = await generate(url.toString())
      console.log(`rows in ${built.rowsSeconds.toFixed(1)} s; search documents in ${built.documentsSeconds.toFixed(1)} s ` +
        `(${Math.round(agents / built.documentsSeconds).toLocaleString("en")} agents/s)`)
    } else console.log(`reusing the generated database ${scratch}`)
    if (generateOnly) return
    const hooks = runHooks ? await hookModules() : []
    const program = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [{ lexemes }] = yield* sql<{ lexemes: string }>`SELECT count(*)::text AS lexemes FROM agent_search_lexicon`
      const rows: Array<Record<string, string | number>> = []
      const only = (process.env["BENCH_CASES"] ?? "").split(",").filter((x) => x !== "")
      for (const c of yield* cases) {
        if (only.length > 0 && !only.some((prefix) => c.name.startsWith(prefix))) continue
        const s = yield* measure(c.search)
        const r = yield* measure(Effect.orDie(c.reference))
        const u = c.unbounded === undefined ? undefined : yield* measure(c.unbounded)
        rows.push({
          query: c.name,
          "search p50 ms": +percentile(s, 0.5).toFixed(2),
          "search p99 ms": +percentile(s, 0.99).toFixed(2),
          "ILIKE p50 ms": +percentile(r, 0.5).toFixed(2),
          "ILIKE p99 ms": +percentile(r, 0.99).toFixed(2),
          "ratio p50": +(percentile(r, 0.5) / percentile(s, 0.5)).toFixed(2),
          "ratio p99": +(percentile(r, 0.99) / percentile(s, 0.99)).toFixed(2),
          "all scored p50 ms": u === undefined ? "" : +percentile(u, 0.5).toFixed(2),
          "all scored p99 ms": u === undefined ? "" : +percentile(u, 0.99).toFixed(2)
        })
        console.log(JSON.stringify({ ...rows[rows.length - 1], load: readFileSync("/proc/loadavg", "utf8").trim() }))
      }
      console.log(`\nbench:discovery on PostgreSQL: ${agents.toLocaleString("en")} agents, ${lexemes} lexemes, ` +
        `${clients} concurrent clients, ${queries} queries per kind (ratio = ILIKE / search: above 1, search is faster)`)
      console.table(rows)
      for (const hook of hooks) {
        console.log(`\ntest/bench/discovery/${hook.file}`)
        const out = hook.run(sql)
        if (Effect.isEffect(out)) yield* (out as Effect.Effect<unknown, unknown, SqlClient.SqlClient>)
        else yield* Effect.promise(() => Promise.resolve(out))
      }
    })
    await Effect.runPromise(program.pipe(
      Effect.provide(AgentsRepo.Default.pipe(Layer.provideMerge(DbServer(Redacted.make(url.toString()), Effect.void, {
        ...DefaultDbLimits,
        poolMax: clients,
        statementTimeoutMs: 600_000
      })))),
      Effect.scoped,
      Logger.withMinimumLogLevel(LogLevel.Error)
    ) as Effect.Effect<void>)
  } finally {
    if (keep) console.log(`kept the database ${scratch}`)
    else await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`)
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
