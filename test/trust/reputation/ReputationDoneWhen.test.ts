/**
 * Reputation end to end through the HTTP stack on an empty directory: a person
 * (the first account, as `npm run accounts:create` makes it) registers two agents, chats
 * with the second (a run of the deterministic runtime), gives it feedback, and sees
 *
 * - its `/trust`, `/rank` and `/performance` change, with their components and freshness
 *   (the projector on the engine picks the evidence marks up; nothing is recomputed by hand);
 * - the directory list reorder (sort=rank: the agent with the better evidence first);
 * - the day's statistics appear (today: live, short max-age);
 * - yesterday's statistics answer 304 to their ETag (a closed day: immutable).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { IdsLive } from "../../../layers/Ids.js"
import { createAccount } from "../../../src/accounts/AccountCreation.js"
import { call, type Session, signInWith } from "../../support/http.js"
import { makeTestServer, TestEpoch, testDb } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"

const server = makeTestServer({}, { db: testDb(true) })

/** Polls GET `path` (real time, at most 20 s) until `done` holds of its body; returns the reply. */
const awaitReply = (path: string, done: (body: any) => boolean, session?: Session) =>
  Effect.gen(function*() {
    const read = Effect.tap(call("GET", path, session === undefined ? {} : { session }), (reply) => {
      expect(reply.status, reply.text).toBe(200)
    })
    return yield* waitFor(`${path} as expected`, until(read, (reply) => done(reply.body), (reply) => reply.text), 20_000, 100)
  })

const day = (d: Date) => d.toISOString().slice(0, 10)

layer(server.layer, { excludeTestServices: true })("reputation end to end", (it) => {
  it.scoped("two agents → a run and feedback → trust, rank and performance move; the list reorders; the day's stats", () =>
    Effect.gen(function*() {
      // an empty directory and its first account
      const empty = yield* call("GET", "/api/v1/agents")
      expect(empty.body.data).toEqual([])
      const email = "olivia@iris.example"
      const password = "correct horse battery staple"
      const { workspaceId } = yield* createAccount({ email, password, workspaceName: "Iris Labs" }).pipe(Effect.provide(IdsLive), Effect.orDie)
      const session = yield* signInWith(email, password)

      // two agents; with no evidence they tie, and the tie goes to the smaller entity UUID
      const register = (name: string, canonicalSlug: string) =>
        Effect.map(call("POST", "/api/v1/agents", { session, body: { workspaceId, name, canonicalSlug } }), (reply) => {
          expect(reply.status, reply.text).toBe(201)
          return reply.body.data.entityId as string
        })
      const first = yield* register("Iris Indexer", "iris-indexer")
      const second = yield* register("Iris Summarizer", "iris-summarizer")
      const [smaller, larger] = [first, second].sort()
      const ranked = (body: any) => body.data.map((a: any) => a.publicId)
      const before = yield* awaitReply("/api/v1/agents?sort=rank", (b) => b.data.every((a: any) => a.rank !== null))
      expect(ranked(before.body)).toEqual([smaller, larger])
      expect(before.body.data.map((a: any) => a.rank)).toEqual(["1", "2"])
      const trustBefore = (yield* awaitReply(`/api/v1/agents/${larger}/trust`, (b) => b.data.freshness.projectedAt !== null)).body
      expect(trustBefore.data.components.ratings.count).toBe(0)
      const perfBefore = (yield* call("GET", `/api/v1/agents/${larger}/performance`)).body
      expect(perfBefore.data.components.runs.finished).toBe(0)

      // the agent ranked second gets a runtime and a conversation; the message runs it
      const configured = yield* call("PUT", `/api/v1/agents/${larger}/runtime`, {
        session, body: { provider: "deterministic", model: "demo-echo-1", instructions: "You summarize papers." }
      })
      expect(configured.status, configured.text).toBe(201)
      const conversation = yield* call("POST", `/api/v1/agents/${larger}/conversations`, { session, body: { title: "First chat" } })
      expect(conversation.status, conversation.text).toBe(201)
      const sent = yield* call("POST", `/api/v1/conversations/${conversation.body.data.id}/messages`, {
        session, body: { content: "Summarize the paper on agent trust." }
      })
      expect(sent.status, sent.text).toBe(202)
      const runId = sent.body.data.run.id as string
      yield* awaitReply(`/api/v1/runs/${runId}`, (b) => b.data.state === "SUCCEEDED", session)

      // a minute later, feedback on it: the workspace ran it, so the feedback is a verified interaction
      server.clock.advance(60_000)
      const feedback = yield* call("POST", `/api/v1/agents/${larger}/feedback`, {
        session,
        body: { workspaceId, category: "QUALITY", ratingPpm: 950_000, title: "Clear summaries", body: "Got the gist right." }
      })
      expect(feedback.status, feedback.text).toBe(201)
      expect(feedback.body.data.authenticityState).toBe("VERIFIED_INTERACTION")

      // trust moves with its components and freshness (the projector drains the evidence marks)
      const trust = (yield* awaitReply(`/api/v1/agents/${larger}/trust`, (b) => b.data.components.ratings.count === 1)).body
      expect(trust.data.trustPpm).toBeGreaterThan(trustBefore.data.trustPpm)
      expect(trust.data.components.ratings.byAuthenticity).toEqual([
        expect.objectContaining({ authenticityState: "VERIFIED_INTERACTION", count: 1, meanPpm: 950_000 })
      ])
      expect(trust.data.components.ratings.byCategory).toEqual([expect.objectContaining({ category: "QUALITY", count: 1 })])
      expect(trust.data.confidence.lowPpm).toBeLessThanOrEqual(trust.data.confidence.highPpm)
      expect(trust.data.methodology.key).toBe(trustBefore.data.methodology.key)
      expect(trust.data.freshness.projectedAt > trustBefore.data.freshness.projectedAt).toBe(true)
      expect(trust.data.freshness.sourceWatermark).not.toBe(trustBefore.data.freshness.sourceWatermark)
      expect(trust.meta.freshness).toEqual(trust.data.freshness)

      // performance: the one run, SUCCEEDED
      const performance = (yield* awaitReply(`/api/v1/agents/${larger}/performance`, (b) => b.data.components.runs.finished === 1)).body
      expect(performance.data.components.runs).toMatchObject({ finished: 1, succeeded: 1, successRatePpm: 1_000_000 })
      expect(performance.data.freshness.projectedAt).not.toBeNull()

      // rank: the agent with the better evidence is first now, and the list reorders
      const rank = (yield* awaitReply(`/api/v1/agents/${larger}/rank`, (b) => b.data.rank === "1")).body
      expect(rank.data.components.trust.valuePpm).toBe(trust.data.trustPpm)
      const after = yield* awaitReply("/api/v1/agents?sort=rank", (b) => b.data[0]?.publicId === larger)
      expect(ranked(after.body)).toEqual([larger, smaller])
      expect(after.body.data.map((a: any) => a.rank)).toEqual(["1", "2"])
      const profile = yield* call("GET", `/api/v1/agents/${larger}`)
      expect(profile.body.data.rank).toBe("1")

      // the day's statistics: today is live, with a short max-age and its freshness
      const today = yield* call("GET", `/api/v1/stats/directory/daily/${day(TestEpoch)}`)
      expect(today.status, today.text).toBe(200)
      expect(today.headers["cache-control"]).toContain("max-age=60")
      expect(today.body.data).toMatchObject({
        date: day(TestEpoch),
        closed: false,
        agents: { listed: "2", new: "2" },
        runs: { started: "1", succeeded: "1", failed: "0" },
        feedback: { created: "1", meanRatingPpm: 950_000 }
      })
      expect(today.body.meta.freshness.projectedAt).not.toBeNull()
      const agentToday = yield* call("GET", `/api/v1/stats/agents/${larger}/daily/${day(TestEpoch)}`)
      expect(agentToday.status, agentToday.text).toBe(200)

      // yesterday is closed: immutable, and its ETag answers 304
      const yesterday = day(new Date(TestEpoch.getTime() - 86_400_000))
      const closed = yield* call("GET", `/api/v1/stats/directory/daily/${yesterday}`)
      expect(closed.status, closed.text).toBe(200)
      expect(closed.body.data).toMatchObject({ date: yesterday, closed: true, agents: { listed: "0" } })
      expect(closed.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      const etag = closed.headers["etag"]!
      expect(etag).toMatch(/^"/)
      const revalidated = yield* call("GET", `/api/v1/stats/directory/daily/${yesterday}`, { headers: { "if-none-match": etag } })
      expect(revalidated.status).toBe(304)
      expect(revalidated.text).toBe("")
    }))
})
