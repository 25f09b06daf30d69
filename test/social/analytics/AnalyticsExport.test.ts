/**
 * Social_CreateAnalyticsExport (spec §2.17, §4.3) and our extensions
 * Social_GetAnalyticsExport and Social_DownloadAnalyticsExport: REQUESTED → the
 * durable engine's workflow → AVAILABLE → EXPIRED, the downloaded file, and every listed error status.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { downloadTokenOf } from "../../../src/social/analytics/DownloadToken.js"
import { DemoAvailableExportFile, DemoExports } from "../../../demo/social/analytics/data.js"
import { testConfig } from "../../support/config.js"
import { call, expectMeta, expectProblem, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { awaitExport, contextToken, ingest } from "./support.js"
import { DemoAgents } from "../../../demo/agents/seed.js"

const atlas = DemoAgents[0].id
const exportsPath = (agent: string) => `/api/v1/agents/${agent}/analytics/exports`
const download = (token?: string) =>
  call("GET", "/api/v1/analytics/exports/download", token === undefined ? {} : { headers: { "x-download-token": token } })
const tokenOf = (exportId: string) => downloadTokenOf(Redacted.value(testConfig().keys.analyticsDownload), exportId)

const server = makeTestServer()

layer(server.layer)("Social_CreateAnalyticsExport", (it) => {
  it.effect("REQUESTED, then the workflow builds the CSV: AVAILABLE with rowCount and a token; the file downloads", () =>
    Effect.gen(function*() {
      const eventId = randomUUID()
      const ingested = yield* ingest({
        contextToken: contextToken(),
        events: [{ eventId, name: "traffic.page_view", occurredAt: "2026-05-31T23:00:00.000Z", properties: { path: "/x,y" } }]
      })
      expect(ingested.body.data.accepted).toHaveLength(1)
      const owner = yield* signIn("owner")
      const created = yield* call("POST", exportsPath(atlas), {
        session: owner,
        body: { exportType: "TRAFFIC", from: "2026-05-01", to: "2026-05-31" }
      })
      expect(created.status, created.text).toBe(202)
      expectMeta(created)
      const x = created.body.data
      expect(Object.keys(x).sort()).toEqual([
        "completedAt", "createdAt", "downloadToken", "entityPublicId", "errorCode", "expiresAt", "exportType", "format", "id", "range",
        "rowCount", "state"
      ])
      expect(x).toMatchObject({
        entityPublicId: atlas,
        exportType: "TRAFFIC",
        range: { from: "2026-05-01", to: "2026-05-31" },
        format: "CSV",
        state: "REQUESTED",
        rowCount: null,
        downloadToken: null,
        errorCode: null,
        createdAt: TestEpoch.toISOString(),
        completedAt: null
      })
      expect(yield* awaitExport(x.id)).toEqual({ state: "AVAILABLE", hasFile: true })
      const read = yield* call("GET", `${exportsPath(atlas)}/${x.id}`, { session: owner })
      expect(read.status, read.text).toBe(200)
      const built = read.body.data
      expect(built).toMatchObject({ id: x.id, state: "AVAILABLE", rowCount: "1", errorCode: null, completedAt: "2026-06-01T00:00:00.000Z" })
      expect(built.expiresAt).toBe("2026-06-08T00:00:00.000Z")
      expect(built.downloadToken).toBe(tokenOf(x.id))
      const file = yield* download(built.downloadToken)
      expect(file.status, file.text).toBe(200)
      expect(file.headers["content-type"]).toMatch(/^text\/csv/)
      expect(file.headers["content-disposition"]).toBe(`attachment; filename="analytics-export-${x.id}.csv"`)
      expect(file.text).toBe(
        "eventId,name,category,occurredAt,properties\n" +
          `${eventId},traffic.page_view,traffic,2026-05-31T23:00:00.000Z,"{""path"":""/x,y""}"\n`
      )
      // after expiry: the workflow's durable sleep ends, the export is EXPIRED and its file removed (410)
      server.clock.advance(7 * 86_400_000 - 1)
      expect(yield* awaitExport(x.id, () => true)).toEqual({ state: "AVAILABLE", hasFile: true })
      server.clock.advance(1)
      expect(yield* awaitExport(x.id, (row) => row.state === "EXPIRED")).toEqual({ state: "EXPIRED", hasFile: false })
      const later = yield* signIn("owner") // the first session has expired meanwhile
      expect((yield* call("GET", `${exportsPath(atlas)}/${x.id}`, { session: later })).body.data).toMatchObject({
        state: "EXPIRED",
        downloadToken: null
      })
      expectProblem(yield* download(built.downloadToken), 410, "export-expired")
    }))

  it.effect("builds JSONL of the agent's activity for the other export types", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = yield* call("POST", exportsPath(atlas), {
        session: owner,
        body: { exportType: "PERFORMANCE", from: "2026-01-01", to: "2026-02-28", format: "JSONL" }
      })
      expect(created.status, created.text).toBe(202)
      yield* awaitExport(created.body.data.id)
      const built = (yield* call("GET", `${exportsPath(atlas)}/${created.body.data.id}`, { session: owner })).body.data
      expect(built).toMatchObject({ state: "AVAILABLE", format: "JSONL", rowCount: "5" })
      const file = yield* download(built.downloadToken)
      expect(file.headers["content-type"]).toMatch(/^application\/x-ndjson/)
      const lines = file.text.trimEnd().split("\n").map((l) => JSON.parse(l))
      expect(lines.map((l) => l.activityKey)).toEqual([
        "agent.registered", "service.published", "payment.received", "uptime.checked", "payment.received"
      ])
      expect(lines[4]).toMatchObject({ network: "solana", sourceKind: "CHAIN_OBSERVATION", occurredAt: "2026-02-20T00:00:00.000Z" })
    }))

  it.effect("refuses bad ranges (400), no session (401), a VIEWER (403), other workspaces' and unknown agents (404), key reuse (409)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const create = (body: unknown, options: Parameters<typeof call>[2] = {}) =>
        call("POST", exportsPath(atlas), { session: owner, body, ...options })
      expectProblem(yield* create({ exportType: "TRAFFIC", from: "2026-05-02", to: "2026-05-01" }), 400, "invalid-date-range")
      expectProblem(yield* create({ exportType: "TRAFFIC", from: "2025-01-01", to: "2026-01-02" }), 400, "invalid-date-range")
      expect((yield* create({ exportType: "TRAFFIC", from: "2025-01-01", to: "2026-01-01" })).status).toBe(202) // 366 days
      expectProblem(yield* create({ exportType: "TRAFFIC", from: "2026-02-30", to: "2026-03-01" }), 400, "invalid-date-range")
      expectProblem(yield* create({ exportType: "SALES", from: "2026-01-01", to: "2026-01-02" }), 400, "invalid-request")
      expectProblem(yield* create({ exportType: "TRAFFIC", from: "2026-01-01", to: "2026-01-02" }, { idempotencyKey: null }), 400, "idempotency-key-required")
      const body = { exportType: "TRAFFIC", from: "2026-01-01", to: "2026-01-02" }
      expectProblem(yield* call("POST", exportsPath(atlas), { body }), 401)
      const viewer = yield* signIn("admin")
      expectProblem(yield* call("POST", exportsPath(atlas), { session: viewer, body }), 403, "role-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* call("POST", exportsPath(atlas), { session: outsider, body }), 404, "agent-not-found")
      expectProblem(yield* call("POST", exportsPath(randomUUID()), { session: owner, body }), 404, "agent-not-found")
      const key = randomUUID()
      expect((yield* create(body, { idempotencyKey: key })).status).toBe(202)
      expectProblem(yield* create({ ...body, format: "JSONL" }, { idempotencyKey: key }), 409, "idempotency-key-reuse")
    }))

  it.effect("reading: 404 for another agent's or an unknown export, 403 for a VIEWER; the demo exports in their states", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const failed = yield* call("GET", `${exportsPath(atlas)}/${DemoExports.failed.id}`, { session: owner })
      expect(failed.body.data).toMatchObject({ state: "FAILED", errorCode: "TOO_MANY_ROWS", downloadToken: null })
      expectProblem(yield* call("GET", `${exportsPath(atlas)}/${randomUUID()}`, { session: owner }), 404, "export-not-found")
      expectProblem(yield* call("GET", `${exportsPath(DemoAgents[1].id)}/${DemoExports.failed.id}`, { session: owner }), 404, "export-not-found")
      expectProblem(yield* call("GET", `${exportsPath(atlas)}/not-a-uuid`, { session: owner }), 400, "invalid-request")
      expectProblem(yield* call("GET", `${exportsPath(atlas)}/${DemoExports.failed.id}`, { session: yield* signIn("admin") }), 403, "role-required")
      expectProblem(yield* call("GET", `${exportsPath(atlas)}/${DemoExports.failed.id}`), 401)
    }))

  it.effect("download: the demo file; 400 without the header, 404 for a forged token, 409 before the file is built", () =>
    Effect.gen(function*() {
      const demo = yield* download(tokenOf(DemoExports.available.id))
      expect(demo.status).toBe(200)
      expect(demo.text).toBe(DemoAvailableExportFile)
      expectProblem(yield* download(), 400, "invalid-request")
      expectProblem(yield* download(`${DemoExports.available.id}.forged`), 404, "export-not-found")
      expectProblem(yield* download("nodot"), 404, "export-not-found")
      expectProblem(yield* download(tokenOf(DemoExports.requested.id)), 409, "export-not-ready")
    }))
})

const small = makeTestServer({ budgets: { ...testConfig().budgets, session: { limit: 4, windowSeconds: 60 } } })

layer(small.layer)("Social_CreateAnalyticsExport: budget", (it) => {
  it.effect("a spent session budget gets 429", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const body = { exportType: "TRAFFIC", from: "2026-01-01", to: "2026-01-02" }
      const replies = []
      for (let i = 0; i < 5; i++) replies.push(yield* call("POST", exportsPath(atlas), { session: owner, body }))
      expect(replies.some((r) => r.status === 202)).toBe(true)
      expectProblem(replies[replies.length - 1]!, 429, "rate-limited")
    }))
})
