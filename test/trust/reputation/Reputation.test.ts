/**
 * Trust_GetAgentTrust, Trust_GetAgentRank, Trust_GetAgentPerformance and
 * the projector (src/trust/reputation/): values from the methodology (docs/methodology.md),
 * determinism, the incremental projector picking up a mark (PostgreSQL LISTEN, PGlite poll),
 * rank reordering the list, performance from runs and probes, verificationState from proofs.
 *
 * Feedback, votes and endpoint probes are written here with SQL plus `markAgentEvidence`:
 * their producers (Trust_CreateFeedback, the probe cron) have their own tests (test/trust/,
 * test/endpointHealth/).
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { markAgentEvidence } from "../../../src/trust/reputation/Evidence.js"
import { projectAgents } from "../../../src/trust/reputation/Projection.js"
import { performancePpm } from "../../../src/trust/reputation/PerformanceMethod.js"
import { rankScorePpm } from "../../../src/trust/reputation/RankMethod.js"
import { adjustedTrustPpm, findingsPenaltyPpm } from "../../../src/trust/reputation/SafetyEvidence.js"
import { trustPpm } from "../../../src/trust/reputation/TrustMethod.js"
import { wilsonPpm } from "../../../src/trust/reputation/Wilson.js"
import { call, expectProblem } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"

const atlas = DemoAgents[0].id
const delta = DemoAgents[3].id
const path = (agent: string, what: "trust" | "rank" | "performance") => `/api/v1/agents/${agent}/${what}`
const get = (agent: string, what: "trust" | "rank" | "performance") =>
  Effect.map(call("GET", path(agent, what)), (r) => {
    expect(r.status, r.text).toBe(200)
    return r
  })

/** A new listed agent with no evidence, not projected (inserted with SQL, no mark). */
const newAgent = (slug: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    yield* sql`INSERT INTO agents (id, canonical_slug, name, description, star_count, verification_state, listed_at, created_at, updated_at)
               VALUES (${id}, ${slug}, ${slug}, '', 0, 'UNVERIFIED', ${TestEpoch}, ${TestEpoch}, ${TestEpoch})`
    return id
  }).pipe(Effect.orDie)

const feedback = (agent: string, f: { rating: number; category: string; authenticity: string; at: Date; author?: string }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO feedback ${sql.insert({
      id: randomUUID(), agent_id: agent, author_account_id: f.author ?? DemoAccounts.owner.id, rating_ppm: f.rating,
      category: f.category, title: "t", body: "b", state: "PUBLISHED", authenticity_state: f.authenticity,
      created_at: f.at, updated_at: f.at
    })}`
    yield* markAgentEvidence(agent, f.at)
  }).pipe(Effect.orDie)

const run = (agent: string, state: string, startedAt: Date | null, completedAt: Date, playground = false) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const conversation = playground ? randomUUID() : null
    if (conversation !== null) {
      yield* sql`INSERT INTO conversations (id, agent_id, account_id, kind, title, created_at, updated_at)
                 VALUES (${conversation}, ${agent}, ${DemoAccounts.owner.id}, 'PLAYGROUND', 'p', ${completedAt}, ${completedAt})`
    }
    yield* sql`INSERT INTO runs ${sql.insert({
      id: randomUUID(), agent_id: agent, conversation_id: conversation, trigger_type: "USER", state, is_playground: playground,
      retention_expires_at: new Date(completedAt.getTime() + 86_400_000 * 90), created_at: startedAt ?? completedAt,
      started_at: startedAt, completed_at: completedAt, updated_at: completedAt
    })}`
  }).pipe(Effect.orDie)

const probe = (agent: string, ok: boolean, latencyMs: number | null, at: Date) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO agent_endpoint_probes ${sql.insert({
      id: randomUUID(), agent_id: agent, endpoint_kind: "MCP_SERVER", url: "https://mcp.example/mcp", probed_at: at, ok,
      latency_ms: latencyMs, failure_code: ok ? null : "TIMEOUT"
    })}`).pipe(Effect.orDie)

const project = (agents: ReadonlyArray<string> | "all", at = TestEpoch) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(projectAgents(agents, at))).pipe(Effect.orDie)

const stored = (agent: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ trust: unknown; performance: unknown; rank: unknown; watermark: string; score: number }>`
      SELECT trust, performance, rank, source_watermark AS watermark, rank_score_ppm AS score
      FROM agent_reputation WHERE agent_id = ${agent}`).pipe(Effect.map((rows) => rows[0]), Effect.orDie)

const minutesBefore = (m: number) => new Date(TestEpoch.getTime() - m * 60_000)

/** Reads `/trust` every 100 ms until `done` holds (at most `ms`); answers the reply and the time it took. */
const waitForTrust = (agent: string, done: (data: any) => boolean, ms = 5_000) =>
  Effect.gen(function*() {
    const started = Date.now()
    const reply = yield* waitFor("the trust projected", until(get(agent, "trust"), (r) => done(r.body.data), (r) => r.text), ms, 100)
    return { reply, elapsedMs: Date.now() - started }
  })

const server = makeTestServer()

layer(server.layer, { timeout: "60 seconds" })("Reputation: trust, rank, performance", (it) => {
  it.effect("demo trust of Atlas Research: the weighted Bayesian value, its Wilson interval, components, freshness", () =>
    Effect.gen(function*() {
      const reply = yield* get(atlas, "trust")
      expect(Object.keys(reply.body.meta).sort()).toEqual(["buildVersion", "freshness", "generatedAt", "requestId", "schemaVersion"])
      const d = reply.body.data
      // PUBLISHED: owner 900000 VERIFIED (w 2), member 700000 UNVERIFIED (w 1), outsider 800000 VERIFIED (w 2)
      const ratings = [[900_000, 2], [700_000, 1], [800_000, 2]] as const
      expect(d.components.ratings.valuePpm).toBe(trustPpm(ratings))
      expect(d.components.ratings.valuePpm).toBe(710_000)
      // Atlas's open findings: a HIGH one of its local files server (the MEDIUM one of its DISABLED
      // wiki connection does not count); no card signature
      expect(d.components.safety).toMatchObject({
        openFindings: 1, penaltyPpm: 100_000, maxPenaltyPpm: 400_000,
        bySeverity: [{ severity: "HIGH", count: 1, penaltyPpm: 100_000 }],
        findings: [{ kind: "HIDDEN_INSTRUCTIONS", ruleId: "hidden.conceal-from-user", severity: "HIGH", penaltyPpm: 100_000 }]
      })
      expect(d.components.signature.adjustmentPpm).toBe(0)
      const adjustment = { findingsPenaltyPpm: findingsPenaltyPpm(["HIGH"]), signatureAdjustmentPpm: 0 }
      expect(d.trustPpm).toBe(adjustedTrustPpm(trustPpm(ratings), adjustment))
      expect(d.trustPpm).toBe(610_000)
      const w = wilsonPpm((2 * 0.9 + 0.7 + 2 * 0.8), 5)
      expect(Math.abs(d.confidence.lowPpm - adjustedTrustPpm(w.lowPpm, adjustment))).toBeLessThanOrEqual(1)
      expect(Math.abs(d.confidence.highPpm - adjustedTrustPpm(w.highPpm, adjustment))).toBeLessThanOrEqual(1)
      expect(d.confidence.method).toBe("wilson-95-weighted-ratings")
      expect(d.methodology).toMatchObject({ key: "trust-weighted-bayes", version: "3" })
      expect(d.components.ratings).toMatchObject({ count: 3, weightTotal: 5, meanPpm: 800_000, weightedMeanPpm: 820_000 })
      expect(d.components.ratings.byCategory.map((c: any) => c.category)).toEqual(["OTHER", "QUALITY", "RELIABILITY"])
      expect(d.components.ratings.byAuthenticity).toEqual([
        { authenticityState: "UNVERIFIED", count: 1, meanPpm: 700_000, weight: 1 },
        { authenticityState: "VERIFIED", count: 2, meanPpm: 850_000, weight: 2 }
      ])
      // Atlas holds proven identities in the demo (a registry token and an address)
      expect(d.components.proofs).toEqual({
        verificationState: "VERIFIED",
        provenIdentities: 2,
        byMethod: [{ method: "EIP191", count: 1 }, { method: "ERC721_OWNER", count: 1 }]
      })
      expect(d.freshness.projectedAt).not.toBeNull()
      expect(d.freshness.sourceWatermark).toMatch(/;rows=\d+;stars=1520$/)
      expect(reply.body.meta.freshness).toEqual(d.freshness)
    }))

  it.effect("an unknown agent is 404 agent-not-found on all three; an unprojected agent answers nulls", () =>
    Effect.gen(function*() {
      for (const what of ["trust", "rank", "performance"] as const) {
        expectProblem(yield* call("GET", path(randomUUID(), what)), 404, "agent-not-found")
      }
      const fresh = yield* newAgent("not-projected-yet")
      const trust = yield* get(fresh, "trust")
      expect(trust.body.data).toMatchObject({ trustPpm: null, confidence: null, coverage: null, components: null })
      expect(trust.body.data.freshness).toEqual({ projectedAt: null, sourceWatermark: null })
      expect(trust.body.meta.freshness).toEqual({ projectedAt: null, sourceWatermark: null })
      expect((yield* get(fresh, "rank")).body.data).toMatchObject({ rank: null, listed: true, scorePpm: null })
      expect((yield* get(fresh, "performance")).body.data).toMatchObject({ performancePpm: null, components: null })
    }))

  it.effect("a feedback mark is projected by the projector within 5 s: trust, components and freshness change", () =>
    Effect.gen(function*() {
      const before = (yield* get(atlas, "trust")).body.data
      server.clock.advance(60_000)
      yield* feedback(atlas, { rating: 1_000_000, category: "SAFETY", authenticity: "VERIFIED_INTERACTION", at: TestEpoch })
      const { elapsedMs, reply } = yield* waitForTrust(atlas, (d) => d.components.ratings.count === 4)
      expect(elapsedMs).toBeLessThan(5_000)
      const d = reply.body.data
      expect(d.components.ratings.valuePpm).toBe(trustPpm([[900_000, 2], [700_000, 1], [800_000, 2], [1_000_000, 3]]))
      expect(d.trustPpm).toBe(d.components.ratings.valuePpm - d.components.safety.penaltyPpm)
      expect(d.trustPpm).toBeGreaterThan(before.trustPpm)
      expect(d.components.ratings.byCategory.map((c: any) => c.category)).toContain("SAFETY")
      expect(d.freshness.sourceWatermark).not.toBe(before.freshness.sourceWatermark)
      expect(d.freshness.projectedAt).not.toBe(before.freshness.projectedAt)
      expect(d.coverage.daysWithData).toBeGreaterThanOrEqual(1)
      // no mark is left behind
      const sql = yield* SqlClient.SqlClient
      const marks = yield* sql`SELECT 1 FROM reputation_dirty_agents WHERE agent_id = ${atlas}`.pipe(Effect.orDie)
      expect(marks).toHaveLength(0)
    }))

  it.effect("performance from runs (CANCELLED and playground excluded) and probes; the score and rank follow", () =>
    Effect.gen(function*() {
      const agent = yield* newAgent("perf-agent")
      // 3 SUCCEEDED (1 s, 2 s, 4 s), 1 FAILED (never started), 1 TIMED_OUT (10 s), 1 CANCELLED, 1 playground FAILED
      yield* run(agent, "SUCCEEDED", minutesBefore(10), new Date(minutesBefore(10).getTime() + 1_000))
      yield* run(agent, "SUCCEEDED", minutesBefore(20), new Date(minutesBefore(20).getTime() + 2_000))
      yield* run(agent, "SUCCEEDED", minutesBefore(30), new Date(minutesBefore(30).getTime() + 4_000))
      yield* run(agent, "FAILED", null, minutesBefore(40))
      yield* run(agent, "TIMED_OUT", minutesBefore(50), new Date(minutesBefore(50).getTime() + 10_000))
      yield* run(agent, "CANCELLED", minutesBefore(60), minutesBefore(59))
      yield* run(agent, "FAILED", minutesBefore(70), minutesBefore(69), true)
      // outside the 30-day window: ignored
      yield* run(agent, "FAILED", null, new Date(TestEpoch.getTime() - 40 * 86_400_000))
      // probes: 3 ok (100, 200, 300 ms), 1 failed
      yield* probe(agent, true, 100, minutesBefore(5))
      yield* probe(agent, true, 300, minutesBefore(6))
      yield* probe(agent, true, 200, minutesBefore(7))
      yield* probe(agent, false, null, minutesBefore(8))
      yield* project([agent])
      const d = (yield* get(agent, "performance")).body.data
      expect(d.components.runs).toEqual({
        finished: 5, succeeded: 3, failed: 1, timedOut: 1, successRatePpm: 600_000, latencyP50Ms: 2_000, latencyP95Ms: 10_000
      })
      expect(d.components.endpoints).toEqual({ probes: 4, ok: 3, availabilityPpm: 750_000, latencyP50Ms: 200, latencyP95Ms: 300 })
      expect(d.performancePpm).toBe(performancePpm(600_000, 750_000))
      const w = wilsonPpm(3, 5)
      expect(Math.abs(d.confidence.lowPpm - w.lowPpm)).toBeLessThanOrEqual(1)
      // all of it on one UTC day (the day before TestEpoch)
      expect(d.coverage).toMatchObject({ windowDays: 30, daysWithData: 1, ratioPpm: 33_333 })
      const rank = (yield* get(agent, "rank")).body.data
      expect(rank.scorePpm).toBe(rankScorePpm({ trustPpm: 600_000, performancePpm: d.performancePpm, provenIdentities: 0, starCount: 0 }))
      expect(rank.components.performance).toEqual({ valuePpm: d.performancePpm, weight: 0.3 })
      expect(rank.rank).toMatch(/^\d+$/)
    }))

  it.effect("the same evidence gives the same values: twice, and from a shuffled insert order", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const evidence = [
        { rating: 900_000, category: "QUALITY", authenticity: "VERIFIED", author: "owner" },
        { rating: 300_000, category: "VALUE", authenticity: "UNVERIFIED", author: "member" },
        { rating: 650_000, category: "OTHER", authenticity: "VERIFIED_INTERACTION", author: "outsider" },
        { rating: 120_000, category: "SAFETY", authenticity: "SUSPECTED", author: "admin" }
      ] as const
      const latencies = [120, 80, 640, 300, 95, 410]
      const load = (agent: string, order: ReadonlyArray<number>) =>
        Effect.gen(function*() {
          for (const i of order) {
            const e = evidence[i % evidence.length]!
            if (i < evidence.length) {
              yield* feedback(agent, { ...e, author: DemoAccounts[e.author].id, at: minutesBefore(100 + i) })
            }
            yield* probe(agent, i % 3 !== 0, latencies[i]!, minutesBefore(200 + i))
            yield* run(agent, i % 2 === 0 ? "SUCCEEDED" : "FAILED", minutesBefore(300 + i), minutesBefore(299 - i))
          }
        })
      const a = yield* newAgent("same-evidence-a")
      yield* load(a, [0, 1, 2, 3, 4, 5])
      yield* project([a])
      const first = yield* stored(a)
      yield* project([a])
      const second = yield* stored(a)
      expect(second).toEqual(first)
      yield* project("all")
      expect(yield* stored(a)).toEqual(first)
      // the same evidence, inserted in another order for another agent: the same documents and watermark
      const b = yield* newAgent("same-evidence-b")
      yield* load(b, [5, 2, 0, 4, 3, 1])
      yield* project([b])
      const shuffled = yield* stored(b)
      expect(shuffled!.trust).toEqual(first!.trust)
      expect(shuffled!.performance).toEqual(first!.performance)
      expect(shuffled!.rank).toEqual(first!.rank)
      expect(shuffled!.watermark).toBe(first!.watermark)
      yield* sql`SELECT 1`.pipe(Effect.orDie)
    }))
})

const rankServer = makeTestServer()

layer(rankServer.layer, { timeout: "60 seconds" })("Reputation: rank and verification state", (it) => {
  it.effect("rank reorders the list (Agents_ListAgents sort=rank) after evidence changes; retired agents are unranked", () =>
    Effect.gen(function*() {
      const listed = () =>
        Effect.map(call("GET", "/api/v1/agents?sort=rank&limit=100"), (r) => {
          expect(r.status, r.text).toBe(200)
          return r.body.data as Array<{ publicId: string; rank: string | null }>
        })
      const before = yield* listed()
      expect(before[0]!.publicId).toBe(atlas)
      expect(before.map((a) => a.rank)).toEqual(before.map((_, i) => String(i + 1)))
      expect(before.find((a) => a.publicId === delta)!.rank).not.toBe("1")
      // Delta Scribe gets excellent verified feedback and healthy endpoints
      for (const author of ["owner", "member", "outsider", "admin"] as const) {
        yield* feedback(delta, { rating: 1_000_000, category: "QUALITY", authenticity: "VERIFIED_INTERACTION", at: minutesBefore(5), author: DemoAccounts[author].id })
      }
      for (let i = 0; i < 5; i++) yield* probe(delta, true, 50, minutesBefore(10 + i))
      const { reply } = yield* waitForTrust(delta, (d) => d.components?.ratings.count === 4)
      expect(reply.body.data.trustPpm).toBeGreaterThan(800_000)
      // the ranks follow the trust it was projected with (the projector's next step)
      yield* waitFor("the rank projected", until(get(delta, "rank"), (r) => r.body.data.rank === "1", (r) => r.text), 5_000, 100)
      const after = yield* listed()
      expect(after[0]!.publicId).toBe(delta)
      expect(after[1]!.publicId).toBe(atlas)
      expect(after.map((a) => a.rank)).toEqual(after.map((_, i) => String(i + 1)))
      expect((yield* get(delta, "rank")).body.data).toMatchObject({ rank: "1", listed: true })
      const profile = yield* call("GET", `/api/v1/agents/${atlas}`)
      expect(profile.body.data.rank).toBe("2")
      // a retired agent leaves the ranking
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE agents SET state = 'RETIRED', retired_at = ${TestEpoch}, listed_at = NULL WHERE id = ${delta}`.pipe(Effect.orDie)
      yield* project([delta])
      expect((yield* get(delta, "rank")).body.data).toMatchObject({ rank: null, listed: false })
      expect((yield* listed())[0]!.publicId).toBe(atlas)
    }))

  it.effect("verificationState from proofs: claims → PARTIAL, a proof → VERIFIED, a shared bound locator → CONFLICTED", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const agent = yield* newAgent("proof-agent")
      const state = () =>
        Effect.map(call("GET", `/api/v1/agents/${agent}`), (r) => r.body.data.verificationState as string)
      yield* project([agent])
      expect(yield* state()).toBe("UNVERIFIED")
      const identity = randomUUID()
      const locator = `evm:base:address:0x${"ab".repeat(20)}`
      yield* sql`INSERT INTO agent_identities (id, agent_id, family, kind, network, native_id, locator, binding, created_at)
                 VALUES (${identity}, ${agent}, 'EVM', 'ADDRESS', 'base', ${"0x" + "ab".repeat(20)}, ${locator}, 'REGISTRY_BOUND', ${TestEpoch})`
        .pipe(Effect.orDie)
      yield* project([agent])
      expect(yield* state()).toBe("PARTIAL")
      yield* sql`UPDATE agent_identities SET proven_at = ${TestEpoch}, proof_method = 'EIP191' WHERE id = ${identity}`.pipe(Effect.orDie)
      yield* project([agent])
      expect(yield* state()).toBe("VERIFIED")
      const trust = (yield* get(agent, "trust")).body.data
      expect(trust.components.proofs).toEqual({ verificationState: "VERIFIED", provenIdentities: 1, byMethod: [{ method: "EIP191", count: 1 }] })
      // the same locator bound to another agent: both CONFLICTED
      const other = yield* newAgent("proof-agent-twin")
      yield* sql`INSERT INTO agent_identities (id, agent_id, family, kind, network, native_id, locator, binding, created_at)
                 VALUES (${randomUUID()}, ${other}, 'EVM', 'ADDRESS', 'base', ${"0x" + "ab".repeat(20)}, ${locator}, 'REGISTRY_BOUND', ${TestEpoch})`
        .pipe(Effect.orDie)
      yield* project([agent, other])
      expect(yield* state()).toBe("CONFLICTED")
      expect((yield* call("GET", `/api/v1/agents/${other}`)).body.data.verificationState).toBe("CONFLICTED")
    }))
})
