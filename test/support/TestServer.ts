/**
 * The real HTTP stack for tests: the HTTP app `npm start` serves (`makeHttpLive` of
 * src/server.ts on the api with the demo examples, demo/DocumentedApi.ts) on
 * `NodeHttpServer.layerTest`, on a private copy of the seeded database (embedded
 * PGlite loaded from the run's dump, or a clone of the PostgreSQL template), with
 * the test configuration, deterministic IDs and a manual clock.
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { randomBytes } from "node:crypto"
import Pg from "pg"
import { inject } from "vitest"
import type { AppConfig } from "../../layers/AppConfig.js"
import { ClockManual, makeManualClock, type ManualClock } from "../../layers/Clock.js"
import { DbEmbedded, DbServer } from "../../layers/Db.js"
import { IdsSequence } from "../../layers/Ids.js"
import { type AccessEvent, AccessLog } from "../../layers/Logging.js"
import { migrate } from "../../src/db/migrate.js"
import type { EdgeCache } from "../../src/http/EdgeCache.js"
import * as EdgeServer from "../../src/http/EdgeServer.js"
import { EdgeCacheLive, makeApiLive, makeHttpLive } from "../../src/server.js"
import { documentedApi } from "../../demo/DocumentedApi.js"
import { backgroundLive } from "../../src/workflows.js"
import { type AgentRuntime, AgentRuntimeDeterministic } from "../../layers/AgentRuntime.js"
import type { Outbound } from "../../layers/Outbound.js"
import { testConfig, testConfigLayer, type TestConfigShape } from "./config.js"
import { SmtpInbox, SmtpInboxLive } from "./smtp.js"
import { databaseUrl } from "./database.js"

/** The HTTP app of `npm start` (bin/main.ts): its description and docs carry the demo examples. */
const DocumentedHttpLive = makeHttpLive(makeApiLive(documentedApi))

/** When the test clock starts: after the demo data, before its sessions would expire. */
export const TestEpoch = new Date("2026-06-01T00:00:00.000Z")

/** PostgreSQL run: the URL of a new clone of the seeded (or, `empty`, the migrated-only) template database. */
export const cloneTemplate = (empty = false) => Effect.gen(function*() {
  const template = inject(empty ? "emptyDatabase" : "templateDatabase")
  const url = databaseUrl
  const name = `${template}_c_${randomBytes(6).toString("hex")}`
  yield* Effect.promise(async () => {
    const admin = new Pg.Client({ connectionString: url })
    await admin.connect()
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`)
    } finally {
      await admin.end()
    }
  })
  const cloneUrl = new URL(url)
  cloneUrl.pathname = `/${name}`
  return cloneUrl.toString()
})

/** A private copy of the seeded database (or, `empty`, of a migrated database with no data) for one test file. */
export const testDb = (empty = false) => Layer.unwrapEffect(Effect.gen(function*() {
  const dump = inject(empty ? "emptyDump" : "templateDump")
  if (dump !== "") return DbEmbedded({ dataDir: "memory://", loadDataDir: new Blob([readFileSync(dump)]) }, migrate)
  return DbServer(Redacted.make(yield* cloneTemplate(empty)), migrate)
}))

/** A private copy of the seeded database for one test file. */
export const TestDb = testDb()

/**
 * `npm start`'s server on a free port, with the edge cache in front
 * (src/http/EdgeServer.ts), and a client for it, as `NodeHttpServer.layerTest` is
 * for platform-node's server.
 */
const EdgeServerTest = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(EdgeServer.layer({ port: 0 }))
)

/**
 * Everything a test server needs, with its clock exposed for time travel. The
 * server is platform-node's, or with `edge: true` the one `npm start` runs (the
 * edge cache answering from the Node listener). The layer also provides the
 * server's `EdgeCache`.
 */
export const makeTestServer = (
  overrides: Partial<TestConfigShape> = {},
  options: {
    readonly edge?: boolean
    /** Receives every access-log event (the server's synchronous `AccessLog` writer). */
    readonly accessLog?: (event: AccessEvent) => void
    /**
     * What answers agent runs (default: the deterministic runtime); it may read the
     * configuration and use the outbound client (`AgentRuntimeLive` over `modelProfiles`).
     */
    readonly runtime?: Layer.Layer<AgentRuntime, never, AppConfig | Outbound>
    /** The database (default: a private copy of the seeded one, {@link TestDb}; `testDb(true)`: an empty one). */
    readonly db?: typeof TestDb
  } = {}
) => makeServer(overrides, options)

/**
 * {@link makeTestServer} whose mail goes to a real SMTP server in the test process
 * (test/support/smtp.ts): the layer also provides its {@link SmtpInbox}, where tests read
 * the mail the service sent (and the links in it).
 */
export const makeMailTestServer = (
  overrides: Partial<TestConfigShape> = {},
  options: Parameters<typeof makeTestServer>[1] = {}
) => {
  const clock = makeManualClock(TestEpoch)
  const layer = Layer.unwrapEffect(Effect.map(SmtpInbox, (inbox) =>
    makeServer({
      ...overrides,
      mail: { ...testConfig().mail, ...overrides.mail, smtpUrl: Option.some(Redacted.make(inbox.url)) }
    }, options, clock).layer
  )).pipe(Layer.provideMerge(SmtpInboxLive))
  return { layer, clock }
}

const makeServer = (
  overrides: Partial<TestConfigShape>,
  options: Parameters<typeof makeTestServer>[1] & {},
  clock: ManualClock = makeManualClock(TestEpoch)
): {
  readonly layer: Layer.Layer<
    | import("@effect/platform").HttpClient.HttpClient
    | import("@effect/platform").HttpServer.HttpServer
    | import("@effect/sql").SqlClient.SqlClient
    | import("@effect/workflow").WorkflowEngine.WorkflowEngine
    | EdgeCache,
    unknown
  >
  readonly clock: ManualClock
} => {
  const layer = DocumentedHttpLive.pipe(
    Layer.provideMerge(options.edge === true ? EdgeServerTest : NodeHttpServer.layerTest),
    Layer.provideMerge(EdgeCacheLive),
    Layer.provideMerge(backgroundLive(options.runtime ?? AgentRuntimeDeterministic)),
    Layer.provideMerge(options.db ?? TestDb),
    Layer.provide(IdsSequence("0000000b")),
    Layer.provide(testConfigLayer(overrides)),
    Layer.provide(ClockManual(clock)),
    Layer.provide(options.accessLog === undefined ? Layer.empty : Layer.succeed(AccessLog, { write: options.accessLog })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  return { layer, clock }
}
