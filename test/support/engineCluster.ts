/**
 * A cluster of real engine runner processes (`engineRunner.ts`) on a scratch PostgreSQL
 * database, for the fault tests and `bench:engine`: the database, the processes (always
 * killed and reaped when the scope closes, whatever happened), a client-only engine in
 * this process that starts workflows (it writes their requests to the engine's storage
 * and notifies the runner owning each shard, as the service does), and plain SQL.
 */
import { ClusterWorkflowEngine } from "@effect/cluster"
import { NodeClusterSocket } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import type { WorkflowEngine } from "@effect/workflow"
import { Cause, Duration, Effect, Exit, Layer, Redacted, type Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import Pg from "pg"
import { waitFor } from "./waitFor.js"
import { EngineTestTables, FastTakeover } from "./engineWorkloads.js"

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = join(here, "..", "..")

/** Runs `text` (one or more statements, or one with `params`) on `url`; returns the rows. */
export const query = <Row = Record<string, unknown>>(url: string, text: string, params: ReadonlyArray<unknown> = []) =>
  Effect.promise(async () => {
    const client = new Pg.Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query(text, params as Array<unknown>)).rows as Array<Row>
    } finally {
      await client.end()
    }
  })

/**
 * A new, empty database on the server of `serverUrl` (named `<prefix>_<random>`), with
 * the engine test tables, dropped (sessions and all) when the scope closes.
 */
export const scratchDatabase = (serverUrl: string, prefix: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const name = `${prefix}_${randomBytes(5).toString("hex")}`
      yield* query(serverUrl, `CREATE DATABASE ${name}`)
      const url = new URL(serverUrl)
      url.pathname = `/${name}`
      yield* query(url.toString(), EngineTestTables)
      return { name, url: url.toString() }
    }),
    ({ name }) => query(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.ignore)
  )

/** A TCP port free on 127.0.0.1 right now. */
export const freePort = Effect.async<number>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A child process of this one. */
export interface Proc {
  readonly pid: number
  readonly label: string
  readonly child: ChildProcess
  /** Everything it wrote (stdout and stderr), for failure messages. */
  readonly output: () => string
  readonly exited: () => boolean
  /** Sends SIGKILL and waits (at most 5 s) until it has exited. */
  readonly kill: Effect.Effect<void>
}

const tail = (text: string, lines = 40) => text.split("\n").slice(-lines).join("\n")

/**
 * Starts `node --import tsx <script>` with `env`, waits (at most `readyTimeoutMs`) for a
 * line containing `ready`, and kills it when the scope closes. Fails with its output when it
 * exits or is not ready in time. Its stdin is a pipe: the scripts exit when it closes, so
 * they do not outlive this process even when it is killed itself.
 */
export const spawnNode = (
  label: string,
  script: string,
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  /** The output line that says it is ready (default: a line containing `ready`). */
  ready: RegExp = /\bready\b/
): Effect.Effect<Proc, Error, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        cwd: repoRoot,
        env: { ...process.env, ...env, ENGINE_TEST_EXIT_WITH_PARENT: "1" },
        stdio: ["pipe", "pipe", "pipe"]
      })
      let output = ""
      let exitCode: number | null | undefined
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
      child.stdin!.on("error", () => {})
      const exit = new Promise<void>((resolve) =>
        child.on("exit", (code, signal) => {
          exitCode = code ?? (signal === null ? null : -1)
          output += `\n[${label} exited: ${signal ?? code}]\n`
          resolve()
        })
      )
      const exited = () => exitCode !== undefined
      const kill = Effect.promise(async () => {
        if (!exited()) child.kill("SIGKILL")
        await Promise.race([exit, new Promise((r) => setTimeout(r, 5_000))])
      })
      const proc: Proc = { pid: child.pid!, label, child, output: () => output, exited, kill }
      return proc
    }),
    (proc) => proc.kill
  ).pipe(
    Effect.tap((proc) =>
      Effect.gen(function*() {
        const deadline = Date.now() + readyTimeoutMs
        while (!ready.test(proc.output())) {
          if (proc.exited()) return yield* Effect.fail(new Error(`${label} exited before ready:\n${tail(proc.output())}`))
          if (Date.now() > deadline) {
            return yield* Effect.fail(new Error(`${label} not ready after ${readyTimeoutMs} ms:\n${tail(proc.output())}`))
          }
          yield* Effect.sleep(Duration.millis(50))
        }
      })
    )
  )

/** Settings of one engine runner process (see engineRunner.ts). */
export interface RunnerSettings {
  readonly url: string
  readonly port: number
  readonly workload: ReadonlyArray<"three-steps" | "noop2" | "cron">
  readonly pollMs?: number
  readonly step2Ms?: number
  readonly cronSeconds?: number
  /** `FastTakeover` sharding settings (default), or the library's defaults. */
  readonly fastTakeover?: boolean
  /** Longest wait for a pooled database connection (default: the service's, 5 s). */
  readonly connectTimeoutMs?: number
  /** The runner's pool size (default: the service's `DB_POOL_MAX`, 20). */
  readonly poolMax?: number
  /** Further sharding settings (`ENGINE_TEST_SHARDING` of engineRunner.ts; numbers are ms for durations). */
  readonly sharding?: Record<string, unknown>
}

/** An engine runner process (killed when the scope closes). */
export const spawnRunner = (label: string, settings: RunnerSettings) =>
  spawnNode(label, "test/support/engineRunner.ts", {
    ENGINE_TEST_DATABASE_URL: settings.url,
    ENGINE_TEST_RUNNER_PORT: String(settings.port),
    ENGINE_TEST_WORKLOAD: settings.workload.join(","),
    ENGINE_TEST_POLL_MS: String(settings.pollMs ?? 100),
    ENGINE_TEST_STEP2_MS: String(settings.step2Ms ?? 2000),
    ENGINE_TEST_CRON_SECONDS: String(settings.cronSeconds ?? 2),
    ENGINE_TEST_FAST_TAKEOVER: settings.fastTakeover === false ? "0" : "1",
    ...(settings.connectTimeoutMs === undefined ? {} : { ENGINE_TEST_CONNECT_TIMEOUT_MS: String(settings.connectTimeoutMs) }),
    ...(settings.poolMax === undefined ? {} : { ENGINE_TEST_POOL_MAX: String(settings.poolMax) }),
    ...(settings.sharding === undefined ? {} : { ENGINE_TEST_SHARDING: JSON.stringify(settings.sharding) })
  })

/**
 * A client-only engine on `url` (no shards, no runner address): what starts workflows
 * and polls them. Building it also creates the engine's tables, so build it before the
 * runners (runners starting together would race to create them).
 */
export const engineClient = (
  url: string,
  fastTakeover = true
): Layer.Layer<WorkflowEngine.WorkflowEngine | PgClient.PgClient, unknown> =>
  ClusterWorkflowEngine.layer.pipe(
    Layer.provideMerge(
      NodeClusterSocket.layer({ clientOnly: true, storage: "sql", shardingConfig: fastTakeover ? FastTakeover : {} })
    ),
    Layer.provideMerge(PgClient.layer({ url: Redacted.make(url), maxConnections: 8 }))
  ) as Layer.Layer<WorkflowEngine.WorkflowEngine | PgClient.PgClient, unknown>

/** The shared polling helper (test/support/waitFor.ts), re-exported for the engine and fault tests. */
export { waitFor }

/** The last lines of every process's output, for a failure message. */
export const outputs = (procs: ReadonlyArray<Proc>) =>
  procs.map((p) => `\n--- ${p.label} (pid ${p.pid})${p.exited() ? ", exited" : ""}:\n${tail(p.output(), 25)}`).join("")

/**
 * The engine's shard locks on `url`: PostgreSQL advisory locks, one per shard, held by
 * each runner's lock session. Returns how many shards each holding session has.
 */
export const shardLocks = (url: string) =>
  Effect.map(
    query<{ n: string }>(
      url,
      `SELECT count(*) AS n FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       GROUP BY pid ORDER BY 1`
    ),
    (rows) => rows.map((r) => Number(r.n))
  )

/**
 * Waits until the `runners` runners hold every shard between them (each at least one):
 * the cluster has settled, no shard is moving.
 */
export const awaitSettled = (url: string, runners: number, shards = 300, timeoutMs = 30_000, describe?: () => string) =>
  waitFor(
    `${runners} runners holding all ${shards} shards`,
    Effect.map(shardLocks(url), (held) =>
      held.length === runners && held.reduce((a, b) => a + b, 0) === shards ? held : undefined),
    timeoutMs,
    200,
    describe
  )

/**
 * Starts one workflow per key with `start` (an `execute(…, { discard: true })`),
 * `concurrency` at a time, calling `onStarted` after each. A start that dies is tried
 * again (at most 5 times, 0.2 s apart), as a caller would: the same key is the same
 * execution, so a second start of a stored request only notifies again. Returns the
 * first line of each defect seen.
 */
export const startAll = <R>(
  keys: ReadonlyArray<string>,
  start: (key: string) => Effect.Effect<unknown, never, R>,
  concurrency: number,
  onStarted: (key: string) => void = () => {}
) =>
  Effect.gen(function*() {
    const defects: Array<string> = []
    yield* Effect.forEach(keys, (key) =>
      Effect.gen(function*() {
        for (let attempt = 1;; attempt++) {
          const exit = yield* Effect.exit(start(key))
          if (Exit.isSuccess(exit)) return onStarted(key)
          defects.push(Cause.pretty(exit.cause).split("\n")[0]!)
          if (attempt === 5) return yield* Effect.die(new Error(`starting ${key} failed 5 times: ${defects.at(-1)}`))
          yield* Effect.sleep(Duration.millis(200))
        }
      }), { concurrency, discard: true })
    return defects
  })
