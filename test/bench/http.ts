/**
 * `npm run bench:http`: throughput and latency of the real server next to a plain
 * Fastify + `pg` reference (`reference.ts`) doing the same reads with the same SQL,
 * on one freshly seeded PostgreSQL database. Prints figures; asserts nothing (the
 * tests check correctness). Traffic goes to 127.0.0.1 only.
 *
 * - `DATABASE_URL` (required): a PostgreSQL server; the run creates, seeds (the
 *   demo data set plus `BenchOffers` publishable offers) and drops its own database.
 * - The project runs as `npm start` does (its `node …` command line from
 *   package.json, built by the script first) with its default configuration; `BENCH_PROJECT_COMMAND` and
 *   `BENCH_PROJECT_CWD` start another build instead (before/after comparisons).
 * - Reads: `ROUNDS` interleaved rounds of `SECONDS` each per server, `CONNECTIONS`
 *   concurrent connections (defaults 3, 4, 32); req/s over all rounds, p50/p99 the
 *   median of the rounds', and the server's CPU per request (user + system time of its
 *   process over the rounds, from /proc, divided by its requests: what each server spends,
 *   whatever the load generator manages). The reads are loaded by `wrk` (one thread) when it
 *   is installed (`apt-get install wrk`), else by autocannon (`BENCH_LOAD=autocannon` forces
 *   it): on 2 cores autocannon runs out of CPU near 8,000 req/s, below what the edge-cached
 *   read serves, and its cost is taken from the servers'; wrk needs a fraction of it. Then,
 *   project only, with autocannon (it builds each request): publish with fresh
 *   Idempotency-Keys (each on an offer still publishable), then replays of those requests
 *   (same keys, stored responses).
 * - Two more servers run in the same rounds, floors of the stack this project must use,
 *   doing the same two reads: `floor.ts`, the smallest idiomatic `HttpApiBuilder` +
 *   `@effect/sql-pg` app, and `bare.ts`, one Effect per request on `@effect/sql-pg` run
 *   from a `node:http` listener (no HTTP framework). floor / reference and bare /
 *   reference are what the stack itself costs against Fastify; project / floor what this
 *   project adds on top.
 * - Memory: the project server's V8 heap (used, reserved) from its own `GET /metrics` (the bench
 *   sets `METRICS_PORT`), after start and after the load, and its RSS from /proc.
 * - Without `DATABASE_URL` the project alone is measured on the embedded database.
 */
import autocannon from "autocannon"
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import { openSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import Pg from "pg"
import { Effect, Layer, Redacted } from "effect"
import { AuthLive } from "../../layers/Auth.js"
import { DbServer } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { seedDemoData } from "../../demo/seed.js"
import { TestConfigLayer } from "../support/config.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoOffers } from "../../demo/services/seed.js"

const rounds = Number(process.env["ROUNDS"] ?? 3)
const seconds = Number(process.env["SECONDS"] ?? 4)
const connections = Number(process.env["CONNECTIONS"] ?? 32)
/** Publishable copies of the spare demo offer: one per fresh-key publish. */
const BenchOffers = 40_000

const execFileAsync = promisify(execFile)
/** Reads are loaded by wrk when it is installed (BENCH_LOAD=autocannon forces autocannon): see the module doc. */
const useWrk = process.env["BENCH_LOAD"] !== "autocannon" && spawnSync("wrk", ["--version"]).error === undefined

const serverUrl = process.env["DATABASE_URL"]
const benchDb = `adapi_bench_${randomBytes(4).toString("hex")}`
const benchUrl = serverUrl === undefined ? undefined : Object.assign(new URL(serverUrl), { pathname: `/${benchDb}` }).toString()

const admin = async <A>(url: string, f: (client: Pg.Client) => Promise<A>) => {
  const client = new Pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** Creates the bench database: migrations, demo data, and `BenchOffers` DRAFT copies of the spare offer. */
const prepareDatabase = async (url: string) => {
  await admin(serverUrl!, (c) => c.query(`CREATE DATABASE ${benchDb}`))
  await Effect.runPromise(
    seedDemoData.pipe(
      Effect.provide(AuthLive),
      Effect.provide(Layer.mergeAll(DbServer(Redacted.make(url), migrate), TestConfigLayer, IdsLive)),
      Effect.scoped
    ) as Effect.Effect<boolean, unknown, never>
  )
  await admin(url, async (c) => {
    await c.query(
      `INSERT INTO service_offers (id, service_id, state, version, title, slug, description, pricing_model,
         fulfillment_policy_version, published_at, created_at, updated_at)
       SELECT gen_random_uuid(), service_id, 'DRAFT', 1, title, 'bench-' || g, description, pricing_model,
         fulfillment_policy_version, NULL, created_at, updated_at
       FROM service_offers, generate_series(1, $2::int) g WHERE id = $1`,
      [DemoOffers.spare.id, BenchOffers]
    )
    await c.query(
      `INSERT INTO service_offer_terms (id, offer_id, revision, terms_markdown, created_at)
       SELECT gen_random_uuid(), o.id, t.revision, t.terms_markdown, t.created_at
       FROM service_offers o, service_offer_terms t WHERE o.slug LIKE 'bench-%' AND t.offer_id = $1`,
      [DemoOffers.spare.id]
    )
    await c.query(
      `INSERT INTO service_offer_prices (id, offer_id, version, network_id, asset_id, units, effective_from,
         effective_until, x402_resource_template)
       SELECT gen_random_uuid(), o.id, p.version, p.network_id, p.asset_id, p.units, p.effective_from,
         p.effective_until, p.x402_resource_template
       FROM service_offers o, service_offer_prices p WHERE o.slug LIKE 'bench-%' AND p.offer_id = $1`,
      [DemoOffers.spare.id]
    )
  })
  return admin(url, async (c) =>
    (await c.query<{ id: string }>(`SELECT id FROM service_offers WHERE slug LIKE 'bench-%' ORDER BY id`)).rows.map((r) => r.id)
  )
}

const logFile = join(tmpdir(), `adapi-bench-${process.pid}.log`)

const start = (command: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string>): ChildProcess => {
  const out = openSync(logFile, "a")
  return spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", out, out] })
}

const waitReady = async (base: string) => {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/v1/protocols`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${base} did not start; see ${logFile}`)
}

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024

/**
 * The project server's memory from its own `GET /metrics` (prom-client's default metrics, read
 * from V8's heap statistics in the server process): V8's used heap, which includes garbage not
 * yet collected (so an upper bound of the live heap), the heap V8 has reserved, and the RSS.
 */
const memory = async (metricsBase: string, pid: number) => {
  const text = await (await fetch(`${metricsBase}/metrics`)).text()
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN) / 2 ** 20
  return {
    heapUsed: metric("nodejs_heap_size_used_bytes"),
    heapTotal: metric("nodejs_heap_size_total_bytes"),
    rss: rssMiB(pid)
  }
}
const memoryLine = (when: string, m: Awaited<ReturnType<typeof memory>>) =>
  `project server ${when}: V8 heap used ${m.heapUsed.toFixed(0)} MiB (of ${m.heapTotal.toFixed(0)} MiB reserved), ` +
  `RSS ${m.rss.toFixed(0)} MiB`

interface Round {
  readonly requests: number
  readonly seconds: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  /** CPU seconds the server used during the round (undefined when unknown). */
  readonly cpu?: number | undefined
}

/** Seconds of CPU (user + system, all threads) that process `pid` has used so far; undefined off Linux. */
const cpuSeconds = (pid: number): number | undefined => {
  try {
    // fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in clock ticks (100 a second)
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/** wrk's latency figure ("950.12us", "3.10ms", "1.20s") in milliseconds. */
const wrkMs = (figure: string) => {
  const [, value, unit] = /^([\d.]+)(us|ms|s)$/.exec(figure) ?? []
  return Number(value) * (unit === "us" ? 0.001 : unit === "s" ? 1000 : 1)
}

/** One round of `wrk` (one thread, `connections` connections, `--latency`) on a GET. */
const wrkRound = async (url: string, headers: Record<string, string>, duration = seconds): Promise<Round> => {
  const args = ["-t1", `-c${connections}`, `-d${duration}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), url]
  const { stdout } = await execFileAsync("wrk", args)
  const field = (pattern: RegExp) => pattern.exec(stdout)?.[1]
  const [, requests, took, unit] = /(\d+) requests in ([\d.]+)(ms|s)/.exec(stdout) ?? []
  const errors = [...stdout.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0)
  return {
    requests: Number(requests),
    seconds: Number(took) / (unit === "ms" ? 1000 : 1),
    // the "Latency Distribution" lines ("     50%    2.95ms"), not the "+/- Stdev" column's "67.50%"
    p50: wrkMs(field(/^\s+50%\s+(\S+)$/m) ?? "0ms"),
    p99: wrkMs(field(/^\s+99%\s+(\S+)$/m) ?? "0ms"),
    errors: errors + Number(field(/Non-2xx or 3xx responses: (\d+)/) ?? 0)
  }
}

const run = (options: autocannon.Options): Promise<Round> =>
  new Promise((resolve, reject) =>
    autocannon({ connections, duration: seconds, ...options }, (error, result) => {
      if (error) return reject(error)
      resolve({
        requests: result.requests.total,
        seconds: result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx
      })
    }))

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface Figures {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  /** Server CPU per request in µs (NaN when unknown). */
  readonly cpuUs: number
}

const summarize = (rs: ReadonlyArray<Round>): Figures => {
  const requests = rs.reduce((n, r) => n + r.requests, 0)
  return {
    rps: requests / rs.reduce((n, r) => n + r.seconds, 0),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    cpuUs: rs.every((r) => r.cpu !== undefined) ? rs.reduce((n, r) => n + r.cpu!, 0) / requests * 1e6 : NaN
  }
}

const ms = (x: number) => `${Number(x.toFixed(2))} ms`
const row = (name: string, f: Figures) =>
  `| ${name} | ${f.rps.toFixed(0)} | ${ms(f.p50)} | ${ms(f.p99)} | ${Number.isNaN(f.cpuUs) ? "" : f.cpuUs.toFixed(0)} | ${f.errors} |`

const signIn = async (base: string) => {
  const response = await fetch(`${base}/api/v1/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "bench" },
    body: JSON.stringify({ email: DemoAccounts.owner.email, password: DemoAccounts.owner.password })
  })
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0]!
  const csrf = ((await response.json()) as { data: { csrfToken: string } }).data.csrfToken
  return { cookie, "x-csrf-token": csrf }
}

const main = async () => {
  const children: Array<ChildProcess> = []
  /** Server name → its process id (its CPU is read from /proc). */
  const pids = new Map<string, number>()
  const projectPort = 4100 + Math.floor(Math.random() * 400)
  const referencePort = projectPort + 500
  const floorPort = projectPort + 1000
  const barePort = projectPort + 1500
  const metricsPort = projectPort + 2000
  const project = `http://127.0.0.1:${projectPort}`
  const reference = `http://127.0.0.1:${referencePort}`
  const floor = `http://127.0.0.1:${floorPort}`
  const bare = `http://127.0.0.1:${barePort}`
  // by default the server runs as `npm start` runs it (its command line, without npm in between)
  const startScript = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start
  const [command, ...args] = (process.env["BENCH_PROJECT_COMMAND"] ?? startScript).split(" ")
  try {
    const offers = benchUrl === undefined ? [] : await prepareDatabase(benchUrl)
    const projectProcess = start(command!, args, process.env["BENCH_PROJECT_CWD"] ?? process.cwd(), {
      PORT: String(projectPort),
      // its Prometheus metrics on a port of their own, for the heap figures
      METRICS_PORT: String(metricsPort),
      ...(benchUrl === undefined ? { DATA_DIR: "memory://" } : { DATABASE_URL: benchUrl })
    })
    children.push(projectProcess)
    pids.set("project", projectProcess.pid!)
    if (benchUrl !== undefined) {
      for (const [script, port] of [["reference", referencePort], ["floor", floorPort], ["bare", barePort]] as const) {
        const child = start("node", ["--import", "tsx", `test/bench/${script}.ts`], process.cwd(), {
          PORT: String(port),
          DATABASE_URL: benchUrl
        })
        children.push(child)
        pids.set(script, child.pid!)
      }
      await waitReady(reference)
      await waitReady(floor)
      await waitReady(bare)
    }
    // the servers of each round, in this order; all but the project only on PostgreSQL
    const servers = benchUrl === undefined
      ? [["project", project]] as const
      : [["project", project], ["reference", reference], ["floor", floor], ["bare", bare]] as const
    await waitReady(project)
    const session = await signIn(project)
    const metricsBase = `http://127.0.0.1:${metricsPort}`
    const afterStart = await memory(metricsBase, projectProcess.pid!)

    const reads = [
      { name: "GET /api/v1/protocols", path: "/api/v1/protocols", headers: {} },
      { name: "GET /api/v1/me/sessions", path: "/api/v1/me/sessions", headers: { cookie: session.cookie } }
    ]
    /** One round of a read on one server, with the server's CPU over the round. */
    const load = async (server: string, url: string, headers: Record<string, string>, duration = seconds): Promise<Round> => {
      const pid = pids.get(server)!
      const before = cpuSeconds(pid)
      const round = useWrk ? await wrkRound(url, headers, duration) : await run({ url, headers, duration })
      const after = cpuSeconds(pid)
      return { ...round, cpu: before === undefined || after === undefined ? undefined : after - before }
    }
    const results = new Map<string, Array<Round>>()
    const record = (key: string, r: Round) => results.set(key, [...(results.get(key) ?? []), r])
    // warm-up (JIT, pools), not counted
    for (const read of reads) {
      for (const [name, base] of servers) await load(name, base + read.path, read.headers, 1)
    }
    for (let i = 0; i < rounds; i++) {
      for (const read of reads) {
        for (const [name, base] of servers) {
          record(`${name} ${read.name}`, await load(name, base + read.path, read.headers))
        }
      }
    }

    const writeHeaders = { ...session, "content-type": "application/json" }
    const body = JSON.stringify({ version: 1 })
    const offerIds = offers.length > 0 ? offers : [DemoOffers.spare.id]
    const sent: Array<{ readonly path: string; readonly key: string }> = []
    const fresh = await run({
      url: project,
      requests: [{
        setupRequest: (request) => {
          const write = { path: `/api/v1/offers/${offerIds[sent.length % offerIds.length]}/publish`, key: randomUUID() }
          sent.push(write)
          return { ...request, method: "POST", path: write.path, headers: { ...writeHeaders, "idempotency-key": write.key }, body }
        }
      }]
    })
    // replays of the round's first (completed) publishes, round robin: concurrent requests with ONE key
    // would mostly meet the key's lock (409 idempotency-request-in-flight) instead of its stored response
    const replays = sent.slice(0, Math.min(2000, Math.floor(sent.length / 2)))
    let replayed = 0
    const replay = await run({
      url: project,
      requests: [{
        setupRequest: (request) => {
          const write = replays[replayed++ % replays.length]!
          return { ...request, method: "POST", path: write.path, headers: { ...writeHeaders, "idempotency-key": write.key }, body }
        }
      }]
    })
    const afterLoad = await memory(metricsBase, projectProcess.pid!)

    console.log(`\nproject: \`${[command, ...args].join(" ")}\` (\`node\` on the PATH: ${
      spawnSync("node", ["--version"]).stdout?.toString().trim()})`)
    console.log(`bench: node ${process.version}, ${benchUrl ? "PostgreSQL" : "embedded PostgreSQL (PGlite, in memory)"}, ` +
      `${connections} connections, ${rounds} interleaved rounds × ${seconds} s per read and server; ` +
      `reads loaded by ${useWrk ? "wrk (one thread)" : "autocannon"}, writes by autocannon\n`)
    console.log("| Operation | req/s | p50 | p99 | server CPU µs/req | errors/non-2xx |")
    console.log("|---|---|---|---|---|---|")
    for (const read of reads) {
      for (const [name] of servers) console.log(row(`${read.name}, ${name}`, summarize(results.get(`${name} ${read.name}`)!)))
    }
    console.log(row("POST publish, fresh Idempotency-Key, project", summarize([fresh])))
    console.log(row("POST publish, replay (stored response), project", summarize([replay])))
    if (benchUrl !== undefined) {
      const ratios = [["project", "reference"], ["floor", "reference"], ["bare", "reference"], ["project", "floor"]] as const
      console.log("\n| Read | req/s ratio | p99 ratio | CPU/req ratio |")
      console.log("|---|---|---|---|")
      for (const read of reads) {
        for (const [a, b] of ratios) {
          const x = summarize(results.get(`${a} ${read.name}`)!)
          const y = summarize(results.get(`${b} ${read.name}`)!)
          console.log(
            `| ${read.name}, ${a} / ${b} | ${(x.rps / y.rps).toFixed(2)} | ${(x.p99 / y.p99).toFixed(2)} | ${(x.cpuUs / y.cpuUs).toFixed(2)} |`
          )
        }
      }
    }
    console.log(`\n${memoryLine("after start", afterStart)}`)
    console.log(`${memoryLine("after the load", afterLoad)}`)
    console.log(`server log: ${logFile}`)
  } finally {
    for (const child of children) child.kill("SIGTERM")
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (serverUrl !== undefined) {
      await admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${benchDb} WITH (FORCE)`)).catch(() => {})
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
