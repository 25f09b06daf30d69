/**
 * `npm run bench`: throughput, latency and memory of the real HTTP stack on an
 * in-memory embedded database (or, with DATABASE_URL, an empty PostgreSQL database). Prints figures; asserts nothing (tests check
 * correctness). Traffic goes to 127.0.0.1 only, bounded in count.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { createServer } from "node:http"
import { randomUUID } from "node:crypto"
import { AppConfig } from "../../layers/AppConfig.js"
import { AuthLive } from "../../layers/Auth.js"
import { DbEmbedded, DbServer } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { DemoAccounts, DemoOffers } from "../../src/db/demo.js"
import { migrate } from "../../src/db/migrate.js"
import { seedDemoData } from "../../src/db/seed.js"
import { HttpLive } from "../../src/server.js"
import { testConfig } from "../support/config.js"

const port = 3900 + Math.floor(Math.random() * 90)
const base = `http://127.0.0.1:${port}`

// DATABASE_URL (an empty database) benchmarks PostgreSQL; unset, an in-memory embedded database
const url = process.env["DATABASE_URL"]
const Db = url ? DbServer(Redacted.make(url), migrate) : DbEmbedded({ dataDir: "memory://" }, migrate)
const Infra = Layer.mergeAll(Db, IdsLive, Layer.succeed(AppConfig, testConfig({ port })))
const Seeded = Layer.effectDiscard(seedDemoData.pipe(Effect.provide(AuthLive)))
const Server = HttpLive.pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" })),
  Layer.provide(Seeded),
  Layer.provideMerge(Infra),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const percentile = (sorted: Array<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

const measure = async (name: string, count: number, concurrency: number, send: (i: number) => Promise<Response>) => {
  const latencies: Array<number> = []
  let next = 0
  let failures = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++
      const t = performance.now()
      const response = await send(i)
      await response.arrayBuffer()
      if (response.status >= 500) failures++
      latencies.push(performance.now() - t)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  console.log(
    `${name.padEnd(34)} ${String(count).padStart(5)} req  ${(count / seconds).toFixed(0).padStart(6)} req/s  ` +
      `p50 ${percentile(latencies, 0.5).toFixed(2)} ms  p99 ${percentile(latencies, 0.99).toFixed(2)} ms  5xx ${failures}`
  )
}

const program = Effect.promise(async () => {
  const signIn = await fetch(`${base}/api/v1/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: DemoAccounts.owner.email, password: DemoAccounts.owner.password })
  })
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!
  const csrf = ((await signIn.json()) as { data: { csrfToken: string } }).data.csrfToken
  const session = { cookie, "x-csrf-token": csrf }
  const replayKey = randomUUID()
  const publish = (key: string) =>
    fetch(`${base}/api/v1/offers/${DemoOffers.spare.id}/publish`, {
      method: "POST",
      headers: { ...session, "idempotency-key": key, "content-type": "application/json" },
      body: JSON.stringify({ version: 1 })
    })
  await publish(replayKey)
  console.log(`node ${process.version}, ${url ? "PostgreSQL server" : "embedded PostgreSQL (PGlite, in memory)"}, concurrency 8`)
  await measure("GET /api/v1/protocols (anonymous)", 2000, 8, () => fetch(`${base}/api/v1/protocols`))
  await measure("GET /api/v1/orders (session)", 1000, 8, () => fetch(`${base}/api/v1/orders`, { headers: session }))
  await measure("GET /api/v1/agents/favorites", 1000, 8, () => fetch(`${base}/api/v1/agents/favorites?limit=2`, { headers: session }))
  await measure("POST publish, idempotent replay", 1000, 8, () => publish(replayKey))
  await measure("POST publish, stale version (409)", 1000, 8, () => publish(randomUUID()))
  const memory = process.memoryUsage()
  console.log(`memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`)
})

Effect.runPromise(program.pipe(Effect.provide(Server), Effect.scoped)).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
