/**
 * `npm run bench:migrate`: the legacy-ID batch (spec §9) on PostgreSQL (DATABASE_URL; a scratch
 * database `<name>_migbench` next to it is dropped and re-created). Loads 100,000 agents with
 * one registry-bound token each (every 1,000th also bound to a second agent: CONFLICTED), writes
 * 100,000- and 1,000,000-line inputs (about 83% UNIQUE, the rest NOT_FOUND, AMBIGUOUS-capable
 * registry-less tokens and 1% malformed lines), and runs the compiled CLI as `npm run
 * migrate:legacy` does (`node --max-old-space-size=192 --max-semi-space-size=32
 * dist/src/cli/migrate-legacy.js`, built by
 * `npm run build` first; `BENCH_NODE_FLAGS` replaces the flags, e.g. "" for V8's defaults) once per size and run,
 * each in its own process, so that the peak RSS it reports (`process.resourceUsage().maxRSS`:
 * the whole process, start-up included) is its own. lines/s is the batch's wall time, without
 * the process start-up. `BENCH_RUNS` (default 3) runs per size; prints every run, then the best
 * and worst per size; asserts nothing. Needs PostgreSQL: the embedded database is one
 * in-process session and is not benchmarked.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { spawnSync } from "node:child_process"
import { createWriteStream } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { once } from "node:events"
import Pg from "pg"
import { DbServer } from "../../layers/Db.js"
import { migrate } from "../../src/db/migrate.js"

const cli = join(import.meta.dirname, "..", "..", "dist", "src", "cli", "migrate-legacy.js")
// the flags of the `migrate:legacy` npm script
const nodeFlags = (process.env["BENCH_NODE_FLAGS"] ?? "--max-old-space-size=192 --max-semi-space-size=32").split(" ").filter((f) => f !== "")
const REGISTRY = "0x8004a6090Cd10A7288092483047B097295Fb8847"
const AGENTS = 100_000

interface Run {
  readonly lines: number
  readonly seconds: number
  readonly linesPerSecond: number
  readonly peakRssMb: number
}

/** One run of the compiled CLI in its own process; its last stderr line is the JSON summary. */
const run = (url: string, input: string): Run => {
  const { status, stderr } = spawnSync(
    process.execPath,
    [...nodeFlags, cli, "--input", input, "--output", join(tmpdir(), "migbench-report.jsonl")],
    { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn" } }
  )
  if (status !== 0) throw new Error(`migrate:legacy exited with ${status}: ${stderr}`)
  const last = JSON.parse(stderr.trimEnd().split("\n").pop()!) as Omit<Run, "lines"> & { summary: { lines: number } }
  return { lines: last.summary.lines, seconds: last.seconds, linesPerSecond: last.linesPerSecond, peakRssMb: last.peakRssMb }
}

const uuid = (prefix: string) => `('${prefix}-0000-7000-8000-' || lpad(to_hex(g), 12, '0'))::uuid`

const prepare = (url: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO networks (id, key, family, display_name) VALUES ('01900004-0000-7000-8000-000000000001', 'base', 'EVM', 'Base')`
    yield* sql.unsafe(`
      INSERT INTO agents (id, canonical_slug, name, rank, tagline, description, star_count, verification_state, listed_at)
      SELECT ${uuid("0b000000")}, 'agent-' || g, 'Agent ' || g, g, NULL, 'bench agent', 0, 'VERIFIED', '2026-01-01'
        FROM generate_series(1, ${AGENTS}) g;
      INSERT INTO agent_identities (id, agent_id, family, kind, network, scope, native_id, locator, binding, created_at)
      SELECT ${uuid("0b000001")}, ${uuid("0b000000")}, 'EVM', 'REGISTRY_TOKEN', 'base', '${REGISTRY}', g::text,
             'evm:base:${REGISTRY}:' || g, 'REGISTRY_BOUND', '2026-01-01'
        FROM generate_series(1, ${AGENTS}) g;
      INSERT INTO agent_identities (id, agent_id, family, kind, network, scope, native_id, locator, binding, created_at)
      SELECT ${uuid("0b000002")}, ('0b000000-0000-7000-8000-' || lpad(to_hex(g % ${AGENTS} + 1), 12, '0'))::uuid,
             'EVM', 'REGISTRY_TOKEN', 'base', '${REGISTRY}', g::text, 'evm:base:${REGISTRY}:' || g, 'REGISTRY_BOUND', '2026-01-01'
        FROM generate_series(1000, ${AGENTS}, 1000) g;
      ANALYZE agents; ANALYZE agent_identities;`)
  }).pipe(Effect.provide(DbServer(Redacted.make(url), migrate)), Effect.scoped, Effect.orDie)

/** Writes `lines` input lines (deterministic mix) to a file. */
const writeInput = async (path: string, lines: number) => {
  const out = createWriteStream(path)
  let buffer = ""
  for (let i = 1; i <= lines; i++) {
    const token = ((i * 7919) % 120_000) + 1
    const line = i % 100 === 0
      ? `{"source":"bench","legacyAgentId":${i},"networkFamily":"EVM",`
      : JSON.stringify({
        source: "bench",
        legacyAgentId: i,
        networkFamily: "EVM",
        network: "base",
        protocol: "erc-8004",
        locatorKind: "REGISTRY_TOKEN",
        registry: i % 50 === 0 ? null : i % 2 === 0 ? REGISTRY.toLowerCase() : REGISTRY,
        nativeId: String(token)
      })
    buffer += line + "\n"
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain")
      buffer = ""
    }
  }
  out.end(buffer)
  await once(out, "finish")
}

const main = async () => {
  const base = process.env["DATABASE_URL"]
  if (base === undefined || base === "") throw new Error("bench:migrate needs DATABASE_URL (PostgreSQL)")
  const target = new URL(base)
  const name = `${target.pathname.slice(1)}_migbench`
  const admin = new Pg.Client({ connectionString: base })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name}`)
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  target.pathname = `/${name}`
  const url = target.toString()
  await Effect.runPromise(prepare(url))
  process.stderr.write(`bench:migrate: ${AGENTS} agents loaded\n`)
  const runs = Number(process.env["BENCH_RUNS"] ?? "3")
  const fmt = (n: number) => n.toLocaleString("en")
  for (const lines of [100_000, 1_000_000]) {
    const input = join(tmpdir(), `migbench-${lines}.jsonl`)
    await writeInput(input, lines)
    const results: Array<Run> = []
    for (let i = 1; i <= runs; i++) {
      const r = run(url, input)
      results.push(r)
      process.stdout.write(
        `${fmt(lines)} lines, run ${i}: ${fmt(r.linesPerSecond)} lines/s (${r.seconds.toFixed(2)} s), peak RSS ${r.peakRssMb} MB\n`
      )
    }
    const rates = results.map((r) => r.linesPerSecond)
    const rss = results.map((r) => r.peakRssMb)
    process.stdout.write(
      `${fmt(lines)} lines: best ${fmt(Math.max(...rates))} / worst ${fmt(Math.min(...rates))} lines/s, ` +
        `peak RSS ${Math.min(...rss)}-${Math.max(...rss)} MB\n`
    )
  }
}

await main()
