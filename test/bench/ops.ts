/**
 * `npm run bench:ops`: Effect runtime operations per request of the real server (the
 * composition of `bin/main.ts`: `serverLive` with the documented api, no demo seed), counted by a `Supervisor` with the
 * `OpSupervision` runtime flag: every operation any fiber runs calls its `onEffect`. The
 * count is deterministic where timings are not, so it shows what a change to the request
 * path saves even on a noisy machine; it is not a speed figure (operations differ in cost).
 *
 * Then the same for the two floors of `bench:http` (`floor.ts`: the smallest `HttpApiBuilder`
 * app; `bare.ts`: no HTTP framework) doing the same reads.
 *
 * Needs `DATABASE_URL`: a migrated and seeded database (`npm run db:migrate && npm run
 * db:seed`); signs in as the demo owner (one new session per run). `PORT` (default 3990) and
 * the next two ports. Requests are sequential, after 50 unmeasured ones per path; prints
 * operations per request.
 */
import { HttpMiddleware } from "@effect/platform"
import { loadAppConfig } from "../../layers/AppConfig.js"
import { Cause, Effect, Layer, Logger, LogLevel, RuntimeFlags, Supervisor } from "effect"
import { serverLive } from "../../src/startup.js"
import { documentedApi } from "../../demo/DocumentedApi.js"
import { startBare } from "./bare.js"
import { FloorLive } from "./floor.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"

/** Counts the operations of every fiber it supervises. */
class OperationCounter extends Supervisor.AbstractSupervisor<void> {
  count = 0
  get value() {
    return Effect.void
  }
  override onEffect() {
    this.count++
  }
}

process.env["PORT"] ??= "3990"
process.env["HOST"] = "127.0.0.1"
const counter = new OperationCounter()
const Measured = 200

const main = Effect.gen(function*() {
  const config = yield* loadAppConfig
  // as bin/main.ts composes it (engine, logging as configured), without the demo seed
  const launched = yield* Layer.launch(serverLive({ describe: documentedApi })).pipe(Effect.forkScoped)
  const base = `http://127.0.0.1:${config.port}`
  for (let i = 0; i < 100; i++) {
    const up = yield* Effect.promise(() => fetch(base + "/").then(() => true, () => false))
    if (up) break
    // a server that failed to start says why instead of a refused connection later
    const exit = yield* launched.poll
    if (exit._tag === "Some") return yield* Effect.failCause(exit.value._tag === "Failure" ? exit.value.cause : Cause.empty)
    yield* Effect.sleep(100)
  }
  const signIn = yield* Effect.promise(() =>
    fetch(`${base}/api/v1/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: DemoAccounts.owner.email, password: DemoAccounts.owner.password })
    })
  )
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!
  const measure = (server: string, base: string, reads: ReadonlyArray<readonly [string, string, Record<string, string>]>) =>
    Effect.forEach(reads, ([name, path, headers]) =>
      Effect.gen(function*() {
        const get = (path: string) =>
          Effect.promise(() => fetch(base + path, { headers }).then(async (r) => (await r.arrayBuffer(), r.status)))
        for (let i = 0; i < 50; i++) yield* get(path)
        const before = counter.count
        let status = 0
        for (let i = 0; i < Measured; i++) status = yield* get(path)
        console.log(`${server}, ${name}: ${((counter.count - before) / Measured).toFixed(1)} operations per request (status ${status})`)
      }), { discard: true })
  const sessions = ["GET /api/v1/me/sessions", "/api/v1/me/sessions", { cookie }] as const
  const protocols = ["GET /api/v1/protocols", "/api/v1/protocols", {}] as const
  yield* measure("project", base, [
    sessions,
    ["GET /api/v1/protocols (edge cache)", "/api/v1/protocols", {}],
    ["GET /api/v1/agents", "/api/v1/agents", {}],
    ["GET /nowhere (404)", "/nowhere", {}]
  ])
  // the two floors of bench:http (test/bench/floor.ts, bare.ts) on the next ports, same database and session
  yield* Layer.launch(FloorLive(config.port + 1)).pipe(Effect.forkScoped)
  startBare(config.port + 2, Layer.mergeAll(RuntimeFlags.enableOpSupervision, Supervisor.addSupervisor(counter)))
  yield* Effect.sleep("1 second")
  yield* measure("floor", `http://127.0.0.1:${config.port + 1}`, [sessions, protocols, ["GET /nowhere (404)", "/nowhere", {}]])
  yield* measure("bare", `http://127.0.0.1:${config.port + 2}`, [sessions, protocols])
}).pipe(Effect.scoped)

Effect.runPromise(
  main.pipe(
    Effect.provide(Layer.mergeAll(
      RuntimeFlags.enableOpSupervision,
      Supervisor.addSupervisor(counter),
      Logger.minimumLogLevel(LogLevel.Warning)
    )),
    // as runServer (src/startup.ts) runs the server
    Effect.locally(HttpMiddleware.currentTracerDisabledWhen, () => true),
    Effect.withTracerEnabled(false)
  ) as Effect.Effect<void, unknown, never>
).then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
