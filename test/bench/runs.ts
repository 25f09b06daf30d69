/**
 * `npm run bench:runs`: agent runs through the whole service, on
 * PostgreSQL (`DATABASE_URL`, a server where scratch databases can be created), with the
 * deterministic provider (the demo agent "Atlas Research").
 *
 * Each measurement has its own copy of the seeded demo database and its own server
 * processes (`bin/main.ts`, socket runners of the durable engine; test/support/serverProcesses.ts).
 * `BENCH_CONVERSATIONS` (16) clients each own a conversation and loop: send a message
 * (`Runtime_SendMessage`, HTTP, to the servers in turn), wait until its run is finished, send
 * the next. First `BENCH_WARMUP` (32) unmeasured runs, then `BENCH_RUNS` (400); each
 * measurement stops at `BENCH_CAP_MS` (180 s).
 *
 * - **runs per second**: runs SUCCEEDED / (last SUCCEEDED − first send);
 * - **run latency**: from sending `Runtime_SendMessage` (this process's clock) to the run's
 *   `completed_at` (SUCCEEDED, the server's clock: the same machine), p50 and p99. This
 *   process learns that a run finished by reading its state (every 10 ms, all runs in flight
 *   in one statement); the latency is the stored time, not when this process noticed.
 * - **reference, in the same run**: the bare `Runtime_SendMessage` round trip (request → 202:
 *   the command's transaction, which stores the messages, the run and the engine's request),
 *   p50 and p99; the ratios say how much of a run's latency is the background work.
 *
 * Measured with 1 and with 3 server processes (`BENCH_ONLY`: comma-separated of `p1,p3`).
 * `BENCH_DB_PREFIX` (`bench_runs`) names the scratch databases (all dropped at the end).
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Fiber, Layer, Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "@effect/sql"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { cpus, loadavg } from "node:os"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { awaitSettled, query } from "../support/engineCluster.js"
import { type ServerProcess, spawnServer } from "../support/serverProcesses.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const total = Number(process.env["BENCH_RUNS"] ?? 400)
const warmup = Number(process.env["BENCH_WARMUP"] ?? 32)
const conversations = Number(process.env["BENCH_CONVERSATIONS"] ?? 16)
const capMs = Number(process.env["BENCH_CAP_MS"] ?? 180_000)
const only = new Set((process.env["BENCH_ONLY"] ?? "p1,p3").split(","))
/** Prefix of the scratch databases' names. */
const dbPrefix = process.env["BENCH_DB_PREFIX"] ?? "bench_runs"

interface Figures {
  readonly label: string
  readonly finished: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly sendP50Ms: number
  readonly sendP99Ms: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const sorted = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "-"
const log = (line: string) => Effect.sync(() => console.log(line))

/** A database name on the bench's server. */
const dbUrl = (name: string) => {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** `CREATE DATABASE name [TEMPLATE template]`, dropped (sessions and all) when the scope closes. */
const database = (name: string, template?: string) =>
  Effect.acquireRelease(
    Effect.as(query(serverUrl, `CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`), dbUrl(name)),
    () => query(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.ignore)
  )

/** `npm run db:seed` on `url`: migrated, demo data loaded. */
const seed = (url: string) =>
  Effect.async<void, Error>((resume) => {
    const child = spawn(process.execPath, ["--import", "tsx", "demo/cli/seed.ts"], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn" },
      stdio: ["ignore", "inherit", "inherit"]
    })
    child.on("exit", (code) => resume(code === 0 ? Effect.void : Effect.fail(new Error(`db:seed exited with ${code}`))))
  })

/** A signed-in session on one server: its cookie and CSRF token. */
interface Session {
  readonly cookie: string
  readonly csrf: string
}

/** POSTs JSON `body` to `server` (as a browser session, with a fresh Idempotency-Key when signed in). */
const post = (server: ServerProcess, path: string, body: unknown, session?: Session) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const headers: Record<string, string> = session === undefined ? {} : {
      cookie: session.cookie,
      "x-csrf-token": session.csrf,
      "idempotency-key": crypto.randomUUID()
    }
    const response = yield* client.execute(
      HttpClientRequest.post(`${server.baseUrl}${path}`).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyUnsafeJson(body))
    )
    return { status: response.status, headers: response.headers, body: (yield* response.json) as any }
  }).pipe(Effect.scoped, Effect.orDie)

/** Signs the demo member in on `server`. */
const signIn = (server: ServerProcess) =>
  Effect.gen(function*() {
    const { email, password } = DemoAccounts.member
    const reply = yield* post(server, "/api/v1/auth/sign-in", { email, password })
    if (reply.status !== 200) return yield* Effect.dieMessage(`sign-in answered ${reply.status}`)
    return { cookie: (reply.headers["set-cookie"] ?? "").split(";")[0]!, csrf: reply.body.data.csrfToken } satisfies Session
  })

/** One run as this process saw it: when its message was sent, when the 202 came, when it was stored SUCCEEDED. */
interface Sample {
  readonly sentAt: number
  readonly acceptedAt: number
  readonly completedAt: number
}

const measure = (template: string, processes: number) =>
  Effect.gen(function*() {
    const url = yield* database(`${dbPrefix}_${randomBytes(4).toString("hex")}`, template)
    const servers: Array<ServerProcess> = []
    // one after the other: the first creates the engine's tables
    for (let i = 0; i < processes; i++) servers.push(yield* spawnServer(`server${i + 1}`, url))
    yield* awaitSettled(url, processes, 300, 60_000).pipe(
      Effect.catchAllDefect(() => log("(the runners did not settle on the shards within 60 s; measuring anyway)"))
    )
    const db = yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 4 }))
    const sql = SqlClient.SqlClient.pipe(Effect.provide(db))
    const sessions: Array<Session> = []
    for (const server of servers) sessions.push(yield* signIn(server))
    // the conversations, one per client, of the demo member with the deterministic demo agent
    const ids = Array.from({ length: conversations }, (_, i) => `0000000c-0000-7000-8000-${(0xbe00 + i).toString(16).padStart(12, "0")}`)
    const at = new Date()
    yield* Effect.flatMap(sql, (s) =>
      s`INSERT INTO conversations ${
        s.insert(ids.map((id) => ({
          id, agent_id: DemoRuntimeAgents.configured, account_id: DemoAccounts.member.id, kind: "CHAT", title: "bench",
          created_at: at, updated_at: at
        })))
      }`).pipe(Effect.orDie)

    // runs in flight: id → resolve with its completion time (ms)
    const waiting = new Map<string, (completedAt: number) => void>()
    const watcher = Effect.gen(function*() {
      const s = yield* sql
      for (;;) {
        if (waiting.size > 0) {
          const done = yield* s<{ id: string; completedAt: Date }>`
            SELECT id, completed_at AS "completedAt" FROM runs WHERE id IN ${s.in([...waiting.keys()])} AND state = 'SUCCEEDED'`
          for (const row of done) {
            waiting.get(row.id)?.(row.completedAt.getTime())
            waiting.delete(row.id)
          }
        }
        yield* Effect.sleep("10 millis")
      }
    }).pipe(Effect.orDie)
    const watching = yield* Effect.forkScoped(watcher)

    let next = 0
    const runOne = (conversation: string) =>
      Effect.gen(function*() {
        const n = next++
        const server = n % servers.length
        const sentAt = Date.now()
        const reply = yield* post(servers[server]!, `/api/v1/conversations/${conversation}/messages`, {
          content: `bench message ${n}`
        }, sessions[server]!)
        const acceptedAt = Date.now()
        if (reply.status !== 202) return yield* Effect.dieMessage(`SendMessage answered ${reply.status}: ${JSON.stringify(reply.body)}`)
        const completedAt = yield* Effect.async<number>((resume) => {
          waiting.set(reply.body.data.run.id, (t) => resume(Effect.succeed(t)))
        })
        return { sentAt, acceptedAt, completedAt } satisfies Sample
      })
    const phase = (count: number) =>
      Effect.gen(function*() {
        const samples: Array<Sample> = []
        let left = count
        yield* Effect.forEach(ids, (conversation) =>
          Effect.gen(function*() {
            while (left > 0) {
              left--
              samples.push(yield* runOne(conversation))
            }
          }), { concurrency: "unbounded", discard: true }).pipe(
            Effect.timeout(`${capMs} millis`),
            Effect.catchTag("TimeoutException", () => log(`(cap of ${capMs} ms reached: ${samples.length} of ${count} runs finished)`))
          )
        return samples
      })

    yield* phase(warmup)
    const samples = yield* phase(total)
    yield* Fiber.interrupt(watching)
    const first = Math.min(...samples.map((s) => s.sentAt))
    const last = Math.max(...samples.map((s) => s.completedAt))
    const latencies = sorted(samples.map((s) => s.completedAt - s.sentAt))
    const sends = sorted(samples.map((s) => s.acceptedAt - s.sentAt))
    return {
      label: `${processes} server process${processes > 1 ? "es" : ""}`,
      finished: samples.length,
      perSecond: samples.length / ((last - first) / 1000),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      sendP50Ms: percentile(sends, 50),
      sendP99Ms: percentile(sends, 99)
    } satisfies Figures
  }).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer))

const main = Effect.gen(function*() {
  if (serverUrl === "") return yield* Effect.dieMessage("bench:runs needs DATABASE_URL (a PostgreSQL server)")
  yield* log(
    `bench:runs — ${total} runs per measurement (after ${warmup} unmeasured), ${conversations} conversations in flight, ` +
      `deterministic provider; cap ${capMs} ms; ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`
  )
  const template = `${dbPrefix}_tpl_${randomBytes(4).toString("hex")}`
  yield* database(template)
  yield* seed(dbUrl(template))
  const results: Array<Figures> = []
  for (const [key, processes] of [["p1", 1], ["p3", 3]] as const) {
    if (!only.has(key)) continue
    const f = yield* measure(template, processes)
    results.push(f)
    yield* log(
      `${f.label.padEnd(20)} ${fmt(f.finished).padStart(5)} runs  ${fmt(f.perSecond, 1).padStart(7)} runs/s  ` +
        `run p50 ${fmt(f.p50Ms).padStart(5)} ms  p99 ${fmt(f.p99Ms).padStart(5)} ms  |  ` +
        `reference SendMessage → 202: p50 ${fmt(f.sendP50Ms).padStart(4)} ms  p99 ${fmt(f.sendP99Ms).padStart(4)} ms  |  ` +
        `run / reference: p50 ${fmt(f.p50Ms / f.sendP50Ms, 1)}×, p99 ${fmt(f.p99Ms / f.sendP99Ms, 1)}×`
    )
  }
  const one = results.find((r) => r.label.startsWith("1 "))
  const three = results.find((r) => r.label.startsWith("3 "))
  if (one !== undefined && three !== undefined) {
    yield* log(
      `ratio 3 processes / 1 process: runs/s ${fmt(three.perSecond / one.perSecond, 2)}×, ` +
        `p50 ${fmt(three.p50Ms / one.p50Ms, 2)}×, p99 ${fmt(three.p99Ms / one.p99Ms, 2)}×`
    )
  }
  yield* log(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`)
  yield* log(JSON.stringify({ at: new Date().toISOString(), total, warmup, conversations, results }))
}).pipe(Effect.scoped)

Effect.runPromise(main).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
