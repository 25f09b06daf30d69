/**
 * The ad campaign lifecycle on the durable engine (src/growth/ads/Lifecycle.ts) through the
 * HTTP stack: the test server's engine runs the `AdCampaignLifecycle` ClusterCron on
 * the manual clock, so moving the clock past `startAt`/`endAt` makes the next tick due;
 * the tests wait for it in real time (bounded). Ad events are accepted only while the
 * campaign is ACTIVE. A second file-level server checks the demo on npm start's date.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAdCampaigns, type DemoAdCampaignName, demoServingToken } from "../../../demo/growth/ads/seed.js"
import { AdsManifest } from "../../../demo/growth/ads/manifest.js"
import { moveDueCampaigns } from "../../../src/growth/ads/Lifecycle.js"
import { AdsRepo } from "../../../src/growth/ads/Repo.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { sendManifestRequest } from "../../support/manifest.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import type { ManualClock } from "../../../layers/Clock.js"
import { until, waitFor } from "../../support/waitFor.js"

/** Real time, whatever clock the test fiber has (`it.effect` runs a TestClock). */
const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

interface Row {
  readonly state: string
  readonly version: number
  readonly updatedAt: string
}

const campaignRow = (name: DemoAdCampaignName) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<Row>`SELECT state, version::int AS version, api_ts(updated_at) AS "updatedAt"
             FROM ad_campaigns WHERE id = ${DemoAdCampaigns[name].id}`.pipe(Effect.map(([row]) => row!))).pipe(Effect.orDie)

/** Waits (real time, at most `timeoutMs`) until campaign `name` is in `state`; dies when it is not in time. */
const awaitState = (name: DemoAdCampaignName, state: string, timeoutMs = 20_000) =>
  Effect.gen(function*() {
    return yield* waitFor(
      `campaign ${name} ${state}`,
      until(campaignRow(name), (row) => row.state === state, (row) => `still ${row.state}`),
      timeoutMs,
      25
    )
  })

/** Moves `clock` to `at` (forward only). */
const moveTo = (clock: ManualClock, at: Date) => {
  const delta = at.getTime() - clock.unsafeCurrentTimeMillis()
  expect(delta).toBeGreaterThan(0)
  clock.advance(delta)
}

const event = (name: DemoAdCampaignName, kind: "IMPRESSION" | "CLICK" = "IMPRESSION") =>
  call("POST", "/api/v1/ads/events", { body: { token: demoServingToken({ campaign: DemoAdCampaigns[name].id }), kind } })

const approve = (admin: Session, name: DemoAdCampaignName) =>
  call("POST", `/api/v1/admin/ads/campaigns/${DemoAdCampaigns[name].id}/review`, {
    session: admin,
    body: {
      decision: "APPROVE",
      expectedVersion: DemoAdCampaigns[name].version,
      decisionCode: "POLICY_OK",
      publicDecision: "The campaign meets the ad policy.",
      privateDecision: "Checked the destination by hand.",
      dryRun: false,
      confirmation: `APPROVE ${DemoAdCampaigns[name].id}`
    }
  })

/** The campaign as the admin list answers it. */
const listed = (name: DemoAdCampaignName) =>
  Effect.gen(function*() {
    const reply = yield* call("GET", "/api/v1/admin/ads/campaigns", { session: yield* signIn("admin") })
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data.find((c: { id: string }) => c.id === DemoAdCampaigns[name].id) as Row & {
      metrics: { impressions: string; clicks: string }
    }
  })

const minute = 60_000
const day = 86_400_000
const at = (clock: ManualClock) => new Date(clock.unsafeCurrentTimeMillis()).toISOString()

const server = makeTestServer()

layer(server.layer)("ad campaign lifecycle (ClusterCron on the manual clock)", (it) => {
  it.effect("APPROVED (approved after its startAt) → ACTIVE at the next tick; events refused before, accepted after", () =>
    Effect.gen(function*() {
      const approved = yield* approve(yield* signIn("admin"), "underReview")
      expect(approved.status, approved.text).toBe(202)
      expect(approved.body.data.campaign).toMatchObject({ state: "APPROVED", version: 4 })
      expectProblem(yield* event("underReview"), 409, "ad-campaign-not-active")
      // the first tick is at 00:01 of the test epoch
      expect(at(server.clock)).toBe(TestEpoch.toISOString())
      server.clock.advance(minute + 5_000)
      const active = yield* awaitState("underReview", "ACTIVE")
      expect(active).toEqual({ state: "ACTIVE", version: 5, updatedAt: at(server.clock) })
      expect(yield* listed("underReview")).toMatchObject({ state: "ACTIVE", version: 5, updatedAt: at(server.clock) })
      const accepted = yield* event("underReview")
      expect(accepted.status, accepted.text).toBe(202)
      expect((yield* listed("underReview")).metrics.impressions).toBe("1")
    }))

  it.effect("SCHEDULED → ACTIVE at startAt → COMPLETED at endAt, each with version + 1 and updatedAt = the clock", () =>
    Effect.gen(function*() {
      const demo = DemoAdCampaigns.submitted
      const approved = yield* approve(yield* signIn("admin"), "submitted")
      expect(approved.status, approved.text).toBe(202)
      const { startAt, endAt } = approved.body.data.campaign as { startAt: string; endAt: string }
      expect(approved.body.data.campaign).toMatchObject({ state: "SCHEDULED", version: demo.version + 1 })

      // before startAt: still SCHEDULED after ticks, events refused
      moveTo(server.clock, new Date(Date.parse(startAt) - 2 * minute))
      yield* pause(500)
      expect(yield* campaignRow("submitted")).toMatchObject({ state: "SCHEDULED", version: demo.version + 1 })
      expectProblem(yield* event("submitted"), 409, "ad-campaign-not-active")

      // past startAt: ACTIVE at the next tick
      moveTo(server.clock, new Date(Date.parse(startAt) + 30_000))
      const active = yield* awaitState("submitted", "ACTIVE")
      expect(active).toEqual({ state: "ACTIVE", version: demo.version + 2, updatedAt: at(server.clock) })
      expect(yield* listed("submitted")).toMatchObject({ state: "ACTIVE", version: demo.version + 2, updatedAt: at(server.clock) })
      expect((yield* event("submitted")).status).toBe(202)
      expect((yield* event("submitted", "CLICK")).status).toBe(202)

      // past endAt: refused at once (before the tick), then COMPLETED at the next tick
      moveTo(server.clock, new Date(Date.parse(endAt) + 30_000))
      expectProblem(yield* event("submitted"), 409, "ad-campaign-not-active")
      const completed = yield* awaitState("submitted", "COMPLETED")
      expect(completed).toEqual({ state: "COMPLETED", version: demo.version + 3, updatedAt: at(server.clock) })
      const final = yield* listed("submitted")
      expect(final).toMatchObject({ state: "COMPLETED", version: demo.version + 3, updatedAt: at(server.clock) })
      expect(final.metrics).toMatchObject({ impressions: "1", clicks: "1" })
      const refused = yield* event("submitted")
      expectProblem(refused, 409, "ad-campaign-not-active")
      expect(refused.body.detail).toBe("The campaign is COMPLETED; only an ACTIVE campaign records ad events.")
      // the campaign of the first test ended on day 159: COMPLETED by an earlier tick
      expect(yield* campaignRow("underReview")).toMatchObject({ state: "COMPLETED", version: 6 })
    }))

  it.effect("time leaves the other states alone; the demo ACTIVE campaign runs until 2036", () =>
    Effect.gen(function*() {
      for (const name of ["draft", "paused", "rejected", "outsider", "active"] as const) {
        expect(yield* campaignRow(name), name).toMatchObject({
          state: DemoAdCampaigns[name].state,
          version: DemoAdCampaigns[name].version
        })
      }
    }))

  it.effect("a tick is idempotent: run again at the same time it moves nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const id = DemoAdCampaigns.draft.id
      const clockAt = new Date(server.clock.unsafeCurrentTimeMillis())
      yield* sql`UPDATE ad_campaigns SET state = 'SCHEDULED', start_at = ${new Date(clockAt.getTime() - day)},
                 end_at = ${new Date(clockAt.getTime() + day)} WHERE id = ${id}`
      const tick = moveDueCampaigns.pipe(Effect.provide(AdsRepo.Default), Effect.withClock(server.clock))
      const first = yield* tick
      expect(first).toEqual({ activated: [id], completed: [] })
      expect(yield* tick).toEqual({ activated: [], completed: [] })
      expect(yield* campaignRow("draft")).toEqual({ state: "ACTIVE", version: DemoAdCampaigns.draft.version + 1, updatedAt: at(server.clock) })
    }))
})

describe("npm start on a later date", () => {
  const later = makeTestServer()
  const today = new Date("2026-11-25T12:00:00.000Z")

  layer(later.layer)("the demo after the first tick on 2026-11-25", (it) => {
    it.effect("the ads requests of the demo manifest still succeed; the ACTIVE demo campaign is still ACTIVE", () =>
      Effect.gen(function*() {
        // a campaign whose window has passed shows that the tick ran: it completes without having started
        const approved = yield* approve(yield* signIn("admin"), "underReview")
        expect(approved.body.data.campaign).toMatchObject({ state: "APPROVED" })
        moveTo(later.clock, today)
        expect((yield* awaitState("underReview", "COMPLETED")).version).toBe(5)
        expect(yield* campaignRow("active")).toMatchObject({ state: "ACTIVE", version: DemoAdCampaigns.active.version })
        for (const [operationId, op] of Object.entries(AdsManifest)) {
          const reply = yield* sendManifestRequest(operationId, op)
          expect(reply.status, `${operationId}: ${reply.text}`).toBeGreaterThanOrEqual(200)
          expect(reply.status, `${operationId}: ${reply.text}`).toBeLessThan(300)
        }
      }))
  })
})
