/**
 * `npm run bench:engine`: throughput and latency of the durable engine (layers/Engine.ts)
 * beside the project's earlier job queue (test/bench/reference/, kept only for this), on
 * PostgreSQL (`DATABASE_URL`, a server where scratch databases can be created).
 *
 * The work: `Noop2`, a workflow of two no-op activities (test/support/engineWorkloads.ts),
 * and on the old queue a `noop2` job whose handler takes the same two no-op steps. Each
 * measurement has its own scratch database and its own runner processes (socket runners
 * of `EngineLive`, test/support/engineRunner.ts; the old queue's runner,
 * test/bench/reference/runner.ts), first `BENCH_WARMUP` (100) unmeasured items, then
 * `BENCH_WORKFLOWS` (2,000) items started 32 at a time by this process, as a service
 * would (the engine: `Noop2.execute(…, { discard: true })` through a client-only engine;
 * the old queue: `Jobs.enqueue`). Each measurement stops at `BENCH_CAP_MS` (120 s).
 *
 * - **throughput**: items finished / (last finish − first start), per second;
 * - **latency**: start → finish of each item, p50 and p99. The engine's times are its
 *   own (the timestamps of the run request's and of its reply's snowflake ids), the old
 *   queue's are its `created_at` and `finished_at`.
 *
 * Measured: the engine with 1 and with 3 runner processes, the old queue with 1 and 3
 * processes; prints each and the ratios (engine / old queue with one process), and where
 * the time goes: the CPU time per item of the runner processes and of the database
 * sessions of the measurement's scratch database (from /proc; PostgreSQL on this machine).
 *
 * Knobs: `BENCH_POLL_MS` (both; the engine's `ENGINE_POLL_INTERVAL_MS`, the old queue's
 * `JOBS_POLL_INTERVAL_MS`; default 100), `BENCH_SHARDING` (JSON, the runners' further
 * `ShardingConfig`, numbers in ms for durations), `BENCH_REF_CONCURRENCY` (the old
 * queue's `JOBS_CONCURRENCY`, default 100, its maximum), `BENCH_ONLY` (comma-separated of
 * `engine1,engine3,queue1,queue3`).
 */
import { Effect, Layer, Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"
import { readFileSync } from "node:fs"
import { IdsLive } from "../../layers/Ids.js"
import {
  awaitSettled,
  engineClient,
  freePort,
  outputs,
  type Proc,
  query,
  scratchDatabase,
  spawnNode,
  spawnRunner,
  startAll,
  waitFor
} from "../support/engineCluster.js"
import { Noop2 } from "../support/engineWorkloads.js"
import { Jobs, JobsLive } from "./reference/Jobs.js"
import { ReferenceJobTables } from "./reference/tables.js"
import { Noop2Job } from "./reference/work.js"

const serverUrl = process.env["DATABASE_URL"] ?? ""
const total = Number(process.env["BENCH_WORKFLOWS"] ?? 2000)
const warmup = Number(process.env["BENCH_WARMUP"] ?? 100)
const capMs = Number(process.env["BENCH_CAP_MS"] ?? 120_000)
const pollMs = Number(process.env["BENCH_POLL_MS"] ?? 100)
const sharding = JSON.parse(process.env["BENCH_SHARDING"] ?? "{}") as Record<string, unknown>
const refConcurrency = Number(process.env["BENCH_REF_CONCURRENCY"] ?? 100)
const only = new Set((process.env["BENCH_ONLY"] ?? "engine1,engine3,queue1,queue3").split(","))
const StartConcurrency = 32

/** The snowflake epoch of @effect/cluster (`id >> 22` counts ms from it). */
const SnowflakeEpochMs = Date.UTC(2025, 0, 1)

interface Figures {
  readonly label: string
  readonly finished: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly startsPerSecond: number
  /** CPU time (user + system) per item of the runner processes, and of the database's sessions of the scratch database (ms). */
  readonly runnerCpuMs: number
  readonly dbCpuMs: number
}

/** User + system CPU time of process `pid` so far (ms; 0 when it is gone), from /proc. */
const cpuMs = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // clock ticks (USER_HZ 100)
  } catch {
    return 0
  }
}

/** The server processes of the sessions on database `name` (PostgreSQL on this machine). */
const sessionPids = (url: string, name: string) =>
  query<{ pid: number }>(url, "SELECT pid FROM pg_stat_activity WHERE datname = $1", [name]).pipe(
    Effect.map((rows) => rows.map((r) => r.pid))
  )

/** CPU of `pids` and of the database's sessions while `effect` runs (ms). */
const withCpu = <A, E, R>(url: string, dbName: string, pids: () => ReadonlyArray<number>, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const sessionsBefore = yield* sessionPids(url, dbName)
    const before = new Map([...pids(), ...sessionsBefore].map((p) => [p, cpuMs(p)]))
    const value = yield* effect
    const sessionsAfter = yield* sessionPids(url, dbName)
    const used = (list: ReadonlyArray<number>) => list.reduce((sum, p) => sum + cpuMs(p) - (before.get(p) ?? 0), 0)
    return { value, runnerCpu: used(pids()), dbCpu: used([...new Set([...sessionsBefore, ...sessionsAfter])]) }
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const figures = (
  label: string,
  spans: ReadonlyArray<{ s: number; f: number }>,
  startsMs: number,
  cpu: { readonly runnerCpu: number; readonly dbCpu: number }
): Figures => {
  const latencies = spans.map((x) => x.f - x.s).sort((a, b) => a - b)
  const first = Math.min(...spans.map((x) => x.s))
  const last = Math.max(...spans.map((x) => x.f))
  return {
    label,
    finished: spans.length,
    perSecond: spans.length / ((last - first) / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    startsPerSecond: total / (startsMs / 1000),
    runnerCpuMs: cpu.runnerCpu / spans.length,
    dbCpuMs: cpu.dbCpu / spans.length
  }
}

const log = (line: string) => Effect.sync(() => console.log(line))

/** The engine's finished `Noop2` runs whose key starts with `prefix`: start and finish (ms). */
const engineSpans = (url: string, prefix: string) =>
  query<{ s: string; f: string }>(
    url,
    `SELECT ((m.id >> 22) + $1)::text AS s, ((r.id >> 22) + $1)::text AS f
     FROM cluster_messages m JOIN cluster_replies r ON r.request_id = m.id AND r.kind = 0
     WHERE m.entity_type = 'Workflow/Noop2' AND m.tag = 'run' AND m.payload::json ->> 'key' LIKE $2`,
    [SnowflakeEpochMs, `${prefix}%`]
  ).pipe(Effect.map((rows) => rows.map((r) => ({ s: Number(r.s), f: Number(r.f) }))))

const measureEngine = (runnerCount: number) =>
  Effect.gen(function*() {
    const db = yield* scratchDatabase(serverUrl, "bench_engine")
    const client = yield* Layer.build(engineClient(db.url, false))
    const procs: Array<Proc> = []
    for (let i = 0; i < runnerCount; i++) {
      const port = yield* freePort
      procs.push(
        yield* spawnRunner(`runner${i + 1}`, { url: db.url, port, workload: ["noop2"], pollMs, fastTakeover: false, sharding })
      )
    }
    yield* awaitSettled(db.url, runnerCount, 300, 60_000, () => outputs(procs))
    const run = (prefix: string, n: number) =>
      Effect.gen(function*() {
        const keys = Array.from({ length: n }, (_, i) => `${prefix}${i}`)
        const started = Date.now()
        yield* startAll(keys, (key) => Noop2.execute({ key }, { discard: true }), StartConcurrency).pipe(Effect.provide(client))
        const startsMs = Date.now() - started
        yield* waitFor(
          `${n} Noop2 workflows`,
          Effect.map(engineSpans(db.url, prefix), (spans) => spans.length >= n ? spans : undefined),
          Math.max(1, capMs - startsMs),
          100,
          () => outputs(procs)
        ).pipe(Effect.catchAllDefect(() => Effect.void))
        return { spans: yield* engineSpans(db.url, prefix), startsMs }
      })
    yield* run("warm", warmup)
    const { runnerCpu, dbCpu, value: { spans, startsMs } } = yield* withCpu(serverUrl, db.name, () => procs.map((p) => p.pid), run("b", total))
    return figures(`engine, ${runnerCount} runner${runnerCount > 1 ? "s" : ""}`, spans, startsMs, { runnerCpu, dbCpu })
  }).pipe(Effect.scoped)

const measureQueue = (processes: number) =>
  Effect.gen(function*() {
    const db = yield* scratchDatabase(serverUrl, "bench_queue")
    yield* query(db.url, ReferenceJobTables)
    const jobs = yield* Layer.build(
      JobsLive.pipe(Layer.provide(IdsLive), Layer.provide(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 8 })))
    )
    const procs: Array<Proc> = []
    for (let i = 0; i < processes; i++) {
      procs.push(
        yield* spawnNode(`queue${i + 1}`, "test/bench/reference/runner.ts", {
          REF_DATABASE_URL: db.url,
          REF_POLL_MS: String(pollMs),
          REF_CONCURRENCY: String(refConcurrency)
        })
      )
    }
    const spansOf = (prefix: string) =>
      query<{ s: Date; f: Date }>(
        db.url,
        `SELECT created_at AS s, finished_at AS f FROM jobs WHERE state = 'succeeded' AND payload ->> 'key' LIKE $1`,
        [`${prefix}%`]
      ).pipe(Effect.map((rows) => rows.map((r) => ({ s: r.s.getTime(), f: r.f.getTime() }))))
    const run = (prefix: string, n: number) =>
      Effect.gen(function*() {
        const keys = Array.from({ length: n }, (_, i) => `${prefix}${i}`)
        const started = Date.now()
        yield* startAll(keys, (key) => Effect.orDie(Effect.flatMap(Jobs, (j) => j.enqueue(Noop2Job, { key }))), StartConcurrency)
          .pipe(Effect.provide(jobs))
        const startsMs = Date.now() - started
        yield* waitFor(
          `${n} noop2 jobs`,
          Effect.map(spansOf(prefix), (spans) => spans.length >= n ? spans : undefined),
          Math.max(1, capMs - startsMs),
          100,
          () => outputs(procs)
        ).pipe(Effect.catchAllDefect(() => Effect.void))
        return { spans: yield* spansOf(prefix), startsMs }
      })
    yield* run("warm", warmup)
    const { runnerCpu, dbCpu, value: { spans, startsMs } } = yield* withCpu(serverUrl, db.name, () => procs.map((p) => p.pid), run("b", total))
    return figures(`old queue, ${processes} process${processes > 1 ? "es" : ""}`, spans, startsMs, { runnerCpu, dbCpu })
  }).pipe(Effect.scoped)

const fmt = (n: number, digits = 0) => Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "-"

const main = Effect.gen(function*() {
  if (serverUrl === "") return yield* Effect.dieMessage("bench:engine needs DATABASE_URL (a PostgreSQL server)")
  yield* log(
    `bench:engine — ${total} items per measurement (after ${warmup} unmeasured), started ${StartConcurrency} at a time; ` +
      `poll ${pollMs} ms; sharding ${JSON.stringify(sharding)}; old queue concurrency ${refConcurrency}; cap ${capMs} ms`
  )
  const results: Array<Figures> = []
  const measure = (key: string, effect: Effect.Effect<Figures, unknown>) =>
    only.has(key)
      ? Effect.flatMap(effect, (f) =>
        Effect.sync(() => {
          results.push(f)
          console.log(
            `${f.label.padEnd(22)} ${fmt(f.finished).padStart(6)} finished  ${fmt(f.perSecond, 1).padStart(8)}/s  ` +
              `p50 ${fmt(f.p50Ms).padStart(6)} ms  p99 ${fmt(f.p99Ms).padStart(6)} ms  (starts ${fmt(f.startsPerSecond, 0)}/s; ` +
              `CPU per item: runners ${fmt(f.runnerCpuMs, 2)} ms, database ${fmt(f.dbCpuMs, 2)} ms)`
          )
        }))
      : Effect.void
  yield* measure("engine1", measureEngine(1))
  yield* measure("engine3", measureEngine(3))
  yield* measure("queue1", measureQueue(1))
  yield* measure("queue3", measureQueue(3))
  const find = (prefix: string) => results.find((r) => r.label.startsWith(prefix))
  const old = find("old queue, 1 ")
  if (old !== undefined) {
    for (const r of results.filter((x) => x !== old)) {
      console.log(
        `ratio ${r.label} / ${old.label}: throughput ${fmt(r.perSecond / old.perSecond, 2)}×, ` +
          `p50 ${fmt(r.p50Ms / old.p50Ms, 2)}×, p99 ${fmt(r.p99Ms / old.p99Ms, 2)}×`
      )
    }
  }
  console.log(JSON.stringify({ at: new Date().toISOString(), total, pollMs, sharding, refConcurrency, results }))
})

Effect.runPromise(main).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
