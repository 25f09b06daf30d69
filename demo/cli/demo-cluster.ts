/**
 * `npm run demo:cluster`: three server processes on one PostgreSQL (DATABASE_URL) and one
 * Redis (REDIS_URL, default redis://127.0.0.1:6379), each a runner of the durable engine
 * (`ENGINE_RUNNER=socket`), so a person can watch background work spread over them and
 * kill one (its shards move to the others). Runner n serves HTTP on port 3000+n, talks to
 * the other runners on 34430+n and serves its Prometheus metrics on 9460+n. The demo data is loaded first if the database is empty.
 * Each line of output is prefixed with its runner; Ctrl-C stops all three.
 *
 * Runs the built JavaScript (`npm run build` first; the npm script does it).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { createInterface } from "node:readline"

const databaseUrl = process.env["DATABASE_URL"]
if (databaseUrl === undefined || databaseUrl === "") {
  process.stderr.write("demo:cluster needs DATABASE_URL (a PostgreSQL server): the runners share its storage.\n")
  process.exit(1)
}
const redisUrl = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379"
const runners = [1, 2, 3]

const seeded = spawnSync(process.execPath, ["dist/demo/cli/seed.js"], { stdio: "inherit", env: process.env })
if (seeded.status !== 0) process.exit(seeded.status ?? 1)

const children: Array<ChildProcess> = runners.map((n) => {
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/bin/main.js"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      PORT: String(3000 + n),
      ENGINE_RUNNER: "socket",
      ENGINE_RUNNER_HOST: "127.0.0.1",
      ENGINE_RUNNER_PORT: String(34430 + n),
      METRICS_PORT: String(9460 + n),
      LOG_FORMAT: process.env["LOG_FORMAT"] ?? "pretty"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on("line", (line) => process.stdout.write(`[runner ${n} pid ${child.pid}] ${line}\n`))
  }
  child.on("exit", (code, signal) => process.stdout.write(`[runner ${n}] exited (${signal ?? code})\n`))
  return child
})

process.stdout.write(
  `Runners on http://127.0.0.1:3001, :3002 and :3003 (engine ports 34431-34433, metrics on :9461-9463/metrics). ` +
    `Kill one with: kill -9 <pid>. Ctrl-C stops all.\n`
)
const stop = () => {
  for (const child of children) child.kill("SIGTERM")
  setTimeout(() => process.exit(0), 5_000).unref()
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
