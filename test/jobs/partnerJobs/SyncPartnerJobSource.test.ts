/**
 * Jobs_SyncPartnerJobSource (POST /api/v1/admin/jobs/sources/{sourceId}/sync, spec §2.18, §4.2) through the
 * HTTP stack, and the sync itself on the durable engine (its workflow and every-minute cron) against a stub
 * partner on 127.0.0.1 that answers, fails and times out.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { randomUUID } from "node:crypto"
import { DemoJobSources, type DemoJobSourceName } from "../../../demo/jobs/partnerJobs/seed.js"
import { PartnerJobSync } from "../../../src/jobs/partnerJobs/Sync.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"

const pathOf = (id: string) => `/api/v1/admin/jobs/sources/${id}/sync`
const sync = (session: Session | undefined, name: DemoJobSourceName, body: Record<string, unknown>, idempotencyKey?: string) =>
  call("POST", pathOf(DemoJobSources[name].id), { ...(session ? { session } : {}), body, ...(idempotencyKey ? { idempotencyKey } : {}) })

const feed = {
  schemaVersion: 1,
  jobs: [
    { externalId: "gb-1", title: "Summarise 200 support tickets", url: "https://gigboard.example/jobs/1", postedAt: "2026-05-30T10:00:00Z" },
    { externalId: "gb-2", title: "Label images", url: "https://gigboard.example/jobs/2", description: "Bounding boxes", postedAt: "2026-05-31T10:00:00Z", closesAt: null, extra: "ignored" }
  ]
}

/** Requests the stub partner has had, by path. */
const served: Record<string, number> = {}

/** The stub partner: `/ok` (the feed), `/fail` (500), `/invalid` (not a v1 feed), `/slow` (answers after 15 s). */
const StubPartner = Effect.acquireRelease(
  Effect.async<Server>((resume) => {
    const server = createServer((req, res) => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(body))
      }
      served[req.url ?? ""] = (served[req.url ?? ""] ?? 0) + 1
      if (req.url === "/ok") json(200, feed)
      else if (req.url === "/fail") json(500, { error: "boom" })
      else if (req.url === "/invalid") json(200, { schemaVersion: 2, jobs: "none" })
      else if (req.url === "/slow") setTimeout(() => res.destroyed || json(200, feed), 15_000).unref()
      else json(404, {})
    })
    server.listen(0, "127.0.0.1", () => {
      resume(Effect.succeed(server))
    })
  }),
  (server) => Effect.sync(() => server.closeAllConnections()).pipe(Effect.zipRight(Effect.async<void>((resume) => {
    server.close(() => resume(Effect.void))
  })))
).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))

// the stub partner listens on 127.0.0.1, which the outbound client reaches only when named
const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

/**
 * Waits (at most 20 s) until `name`'s sync has recorded its outcome (`next_sync_at`
 * moved past the test clock's now) and returns the source.
 */
const awaitSynced = (name: DemoJobSourceName) =>
  Effect.gen(function*() {
    return yield* waitFor(
      `source ${name} synced`,
      until(
        readSource(name),
        (source) => source.nextSyncAt !== null && source.nextSyncAt.getTime() > server.clock.unsafeCurrentTimeMillis(),
        (source) => `next sync at ${source.nextSyncAt?.toISOString()}`
      ),
      20_000,
      25
    )
  })

const readSource = (name: DemoJobSourceName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ state: string; failureCount: number; version: number; lastFailure: string | null; nextSyncAt: Date | null; lastSuccess: Date | null }>`
      SELECT state, failure_count AS "failureCount", version::int AS version, last_failure AS "lastFailure",
             next_sync_at AS "nextSyncAt", last_successful_sync_at AS "lastSuccess"
      FROM partner_job_sources WHERE id = ${DemoJobSources[name].id}`
    return row!
  })

const setEndpoint = (name: DemoJobSourceName, url: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE partner_job_sources SET endpoint_url = ${url}, request_timeout_ms = 1000 WHERE id = ${DemoJobSources[name].id}`)


layer(server.layer, { excludeTestServices: true })("Jobs_SyncPartnerJobSource", (it) => {
  it.scoped("dry run → apply → replay → stale apply; the started sync stores the partner's jobs, once", () =>
    Effect.gen(function*() {
      const partner = yield* StubPartner
      const admin = yield* signIn("admin")
      const demo = DemoJobSources.active
      const preview = yield* sync(admin, "active", { expectedVersion: demo.version, reason: "Partner fixed their feed" })
      expect(preview.status, preview.text).toBe(202)
      expectMeta(preview)
      const s = preview.body.data
      expect(Object.keys(s).sort()).toEqual([
        "adapterVersion", "code", "configurationVersion", "createdAt", "displayName", "endpointUrl", "failureCount", "id",
        "lastFailure", "lastSuccessfulSyncAt", "lastSyncJobCount", "lastSyncSkipped", "lastSyncSkippedCount", "nextSyncAt",
        "pollIntervalSeconds", "requestTimeoutMs", "responseSchemaVersion", "state", "updatedAt", "version", "websiteUrl"
      ])
      expect(s).toMatchObject({
        id: demo.id, code: "gigboard", state: "ACTIVE", version: 4, failureCount: 0, responseSchemaVersion: 1,
        pollIntervalSeconds: 900, requestTimeoutMs: 5000, nextSyncAt: "2030-01-01T00:00:00.000Z", configurationVersion: "1"
      })
      // a dry run starts no sync
      expect(yield* PartnerJobSync.poll(yield* PartnerJobSync.executionId({ sourceId: demo.id, version: 4, dueAt: TestEpoch.toISOString() })))
        .toBeUndefined()

      expectProblem(yield* sync(admin, "active", { expectedVersion: 4, reason: "go", dryRun: false }), 400, "invalid-request")
      expectProblem(yield* sync(admin, "active", { expectedVersion: 4, reason: "sync now", dryRun: false }), 400, "confirmation-required")
      expectProblem(yield* sync(admin, "active", { expectedVersion: 4, reason: "sync now", dryRun: false, confirmation: "GigBoard" }), 400, "confirmation-mismatch")

      yield* setEndpoint("active", `${partner}/ok`)
      const key = randomUUID()
      const body = { expectedVersion: 4, reason: "sync now", dryRun: false, confirmation: "gigboard" }
      const applied = yield* sync(admin, "active", body, key)
      expect(applied.status, applied.text).toBe(202)
      expect(applied.body.data).toMatchObject({ id: demo.id, state: "ACTIVE", version: 5, nextSyncAt: TestEpoch.toISOString(), updatedAt: TestEpoch.toISOString() })
      const after = yield* awaitSynced("active")
      expect(after).toMatchObject({ state: "ACTIVE", failureCount: 0, version: 5, lastFailure: null })
      expect(after.lastSuccess!.toISOString()).toBe("2026-06-01T00:00:00.000Z")
      expect(after.nextSyncAt!.toISOString()).toBe("2026-06-01T00:15:00.000Z")
      // the replayed command starts no second sync: the partner was asked once
      const replay = yield* sync(admin, "active", body, key)
      expect(replay.status).toBe(202)
      expect(replay.body.data).toEqual(applied.body.data)
      expectProblem(yield* sync(admin, "active", body), 409, "version-conflict")
      yield* Effect.sleep("300 millis")
      expect(served["/ok"]).toBe(1)
      const sql = yield* SqlClient.SqlClient
      const jobs = yield* sql<{ externalId: string; title: string; description: string | null }>`
        SELECT external_id AS "externalId", title, description FROM partner_jobs
        WHERE source_id = ${demo.id} AND withdrawn_at IS NULL ORDER BY external_id`
      // the feed is the partner's whole list: the demo's earlier jobs of the source are withdrawn
      expect(jobs).toEqual([
        { externalId: "gb-1", title: "Summarise 200 support tickets", description: null },
        { externalId: "gb-2", title: "Label images", description: "Bounding boxes" }
      ])
    }))

  it.scoped("failures count up and degrade the source at the third; timeouts and invalid feeds are failures; success restores ACTIVE", () =>
    Effect.gen(function*() {
      const partner = yield* StubPartner
      const admin = yield* signIn("admin")
      const run = (endpoint: string) =>
        Effect.gen(function*() {
          yield* setEndpoint("active", `${partner}${endpoint}`)
          const version = (yield* readSource("active")).version
          const reply = yield* sync(admin, "active", { expectedVersion: version, reason: "try again", dryRun: false, confirmation: "gigboard" })
          expect(reply.status, reply.text).toBe(202)
          return yield* awaitSynced("active")
        })
      expect(yield* run("/fail")).toMatchObject({ state: "ACTIVE", failureCount: 1, lastFailure: "http-500" })
      expect(yield* run("/invalid")).toMatchObject({ state: "ACTIVE", failureCount: 2, lastFailure: "invalid-feed" })
      const started = Date.now()
      expect(yield* run("/slow")).toMatchObject({ state: "DEGRADED", failureCount: 3, lastFailure: "timeout" })
      expect(Date.now() - started).toBeLessThan(14_000) // gave up at requestTimeoutMs (1000), not when the partner answered
      // a DEGRADED source can still be synced by hand
      expect(yield* run("/ok")).toMatchObject({ state: "ACTIVE", failureCount: 0, lastFailure: null })
      // a partner URL pointing at the cloud metadata address (or any non-public one not allowed) is never fetched
      const refused = (url: string) =>
        Effect.gen(function*() {
          yield* setEndpoint("active", url)
          const version = (yield* readSource("active")).version
          const reply = yield* sync(admin, "active", { expectedVersion: version, reason: "try again", dryRun: false, confirmation: "gigboard" })
          expect(reply.status, reply.text).toBe(202)
          return yield* awaitSynced("active")
        })
      expect(yield* refused("http://169.254.169.254/latest/meta-data/")).toMatchObject({ failureCount: 1, lastFailure: "target-refused" })
      expect(yield* refused("http://[::ffff:10.0.0.1]/feed")).toMatchObject({ failureCount: 2, lastFailure: "target-refused" })
    }))

  it.scoped("the every-minute schedule syncs each source when its nextSyncAt comes (pollIntervalSeconds)", () =>
    Effect.gen(function*() {
      const partner = yield* StubPartner
      const sql = yield* SqlClient.SqlClient
      yield* setEndpoint("degraded", `${partner}/ok`)
      const due = new Date(server.clock.unsafeCurrentTimeMillis() + 120_000)
      yield* sql`UPDATE partner_job_sources SET next_sync_at = ${due} WHERE id = ${DemoJobSources.degraded.id}`
      server.clock.advance(60_000) // the cron's minute comes: the source is not due yet
      yield* Effect.sleep("500 millis")
      expect(yield* readSource("degraded")).toMatchObject({ state: "DEGRADED", nextSyncAt: due })
      server.clock.advance(120_000) // past nextSyncAt: the next minute's cron starts its sync
      const after = yield* awaitSynced("degraded")
      expect(after).toMatchObject({ state: "ACTIVE", failureCount: 0 })
      expect(after.nextSyncAt!.getTime()).toBe(after.lastSuccess!.getTime() + DemoJobSources.degraded.pollIntervalSeconds * 1000)
    }))

  it.effect("409 for PAUSED and DISABLED sources and a stale version; 404 unknown; 400 body; 401; 403", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      expectProblem(yield* sync(admin, "paused", { expectedVersion: 3, reason: "sync now" }), 409, "invalid-state")
      expectProblem(
        yield* sync(admin, "disabled", { expectedVersion: 7, reason: "sync now", dryRun: false, confirmation: "oldmarket" }),
        409,
        "invalid-state"
      )
      expectProblem(yield* sync(admin, "paused", { expectedVersion: 2, reason: "sync now" }), 409, "version-conflict")
      expectProblem(yield* call("POST", pathOf(randomUUID()), { session: admin, body: { expectedVersion: 1, reason: "sync now" } }), 404, "partner-job-source-not-found")
      for (const body of [{ reason: "sync now" }, { expectedVersion: 3, reason: "sync now", extra: 1 }, { expectedVersion: 3, reason: "x".repeat(1001) }, { expectedVersion: 3, reason: "ok", confirmation: "x".repeat(201) }]) {
        expectProblem(yield* sync(admin, "paused", body), 400, "invalid-request")
      }
      expectProblem(yield* sync(undefined, "paused", { expectedVersion: 3, reason: "sync now" }), 401)
      expectProblem(yield* sync(yield* signIn("member"), "paused", { expectedVersion: 3, reason: "sync now" }), 403, "admin-required")
    }))
})
