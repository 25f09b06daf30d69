/**
 * Bounties from posting to payout (docs/bounties.md) on anvil: acme posts and funds a bounty
 * (approve + fund signed by its wallet, OPEN once the watcher confirms it), the outsider's
 * workspace claims it for Cobalt and delivers, acme accepts and the escrowed tokens reach the
 * claimant's payout wallet (RELEASED); a second bounty is rejected, disputed and resolved as a
 * split; two claims at once: one wins; bad input names the field; and on the engine's clock an
 * unclaimed bounty past its deadline is refunded and a claim that delivered nothing in time is
 * released.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { awaitCronScheduled } from "../../support/workflows.js"
import {
  balanceOf,
  bountyCommand,
  bountyBody,
  bountyEvents,
  bountyOverrides,
  ClaimantAgent,
  getBounty,
  postAndFund,
  resolveDispute,
  seedBountyChain,
  startBountyChain,
  untilBounty
} from "./support.js"

const chain = await startBountyChain()
afterAll(() => chain.anvil.stop())
const server = makeTestServer(bountyOverrides(chain))
const HourMs = 3_600_000
const at = (ms: number) => new Date(server.clock.unsafeCurrentTimeMillis() + ms)

let poster: Session
let claimant: Session
const signInBoth = Effect.gen(function*() {
  poster = yield* signIn("owner")
  claimant = yield* signIn("outsider")
})

const command = bountyCommand

const claimAndDeliver = (bounty: { id: string; version: number }) =>
  Effect.gen(function*() {
    const claimed = yield* command(claimant, bounty.id, "claim", { expectedVersion: bounty.version, agentId: ClaimantAgent })
    expect(claimed.status, claimed.text).toBe(200)
    const delivered = yield* command(claimant, bounty.id, "delivery", {
      expectedVersion: claimed.body.data.version,
      message: "The server is in the repository; the README shows how to run it.",
      links: ["https://example.com/weather-mcp"],
      artifacts: [{ name: "weather-mcp.tgz", sha256: "a".repeat(64), mediaType: "application/gzip" }]
    })
    expect(delivered.status, delivered.text).toBe(200)
    return delivered.body.data
  })

layer(server.layer, { timeout: 300_000 })("bounties from posting to payout", (it) => {
  it.effect("posted, funded, claimed, delivered, accepted: the escrowed tokens reach the claimant's payout wallet", () =>
    Effect.gen(function*() {
      yield* seedBountyChain(chain)
      yield* signInBoth
      const units = 25_000_000n
      const open = yield* postAndFund(chain, () => poster, units, at(10 * 24 * HourMs))
      expect(open).toMatchObject({ state: "OPEN", version: 3, rewardUnits: units.toString(), asset: chain.asset, escrowContractAddress: chain.escrow })
      expect(open.fundingTransactionHash).toMatch(/^0x[0-9a-f]{64}$/)
      // the OPEN bounty is visible to a workspace that may claim it
      expect((yield* getBounty(claimant, open.id)).state).toBe("OPEN")

      const submitted = yield* claimAndDeliver(open)
      expect(submitted).toMatchObject({
        state: "SUBMITTED",
        version: 5,
        claim: { workspaceId: DemoWorkspaces.outsider.id, agentId: ClaimantAgent, payoutAddress: chain.provider },
        delivery: { links: ["https://example.com/weather-mcp"], artifacts: [{ name: "weather-mcp.tgz", sha256: "a".repeat(64) }] }
      })
      const before = yield* balanceOf(chain, chain.provider)
      const accepted = yield* command(poster, open.id, "accept", { expectedVersion: 5 })
      expect(accepted.status, accepted.text).toBe(202)
      expect(accepted.body.data).toMatchObject({ state: "RELEASE_PENDING", version: 6 })
      expect(accepted.body.data.payoutTransactionIntentId).not.toBeNull()
      const released = yield* untilBounty(chain, "the bounty RELEASED", () => poster, open.id, (b) => b.state === "RELEASED")
      expect(released).toMatchObject({ version: 7, unitsToProvider: units.toString(), unitsToClient: "0" })
      expect(yield* balanceOf(chain, chain.provider)).toBe(before + units)

      // every move was told to the workspaces involved, once
      const events = yield* bountyEvents(open.id)
      const kinds = (ws: string) => events.filter((e) => e.workspaceId === ws).map((e) => e.kind)
      expect(kinds(DemoWorkspaces.acme.id)).toEqual([
        "bounty.created", "bounty.funded", "bounty.claimed", "bounty.submitted", "bounty.accepted", "bounty.released"
      ])
      expect(kinds(DemoWorkspaces.outsider.id)).toEqual(["bounty.claimed", "bounty.submitted", "bounty.accepted", "bounty.released"])

      // both sides list it
      const posted = yield* call("GET", `/api/v1/workspaces/${DemoWorkspaces.acme.id}/bounties?side=POSTED&state=RELEASED`, { session: poster })
      expect(posted.body.data.map((b: { id: string }) => b.id)).toContain(open.id)
      const claimedList = yield* call("GET", `/api/v1/workspaces/${DemoWorkspaces.outsider.id}/bounties?side=CLAIMED`, { session: claimant })
      expect(claimedList.body.data.map((b: { id: string }) => b.id)).toContain(open.id)

      // the accepted delivery is a verified interaction: the poster's feedback on the agent says so
      const feedback = yield* call("POST", `/api/v1/agents/${ClaimantAgent}/feedback`, {
        session: poster,
        body: { workspaceId: DemoWorkspaces.acme.id, category: "VALUE", ratingPpm: 900000, title: "Delivered on time", body: "" }
      })
      expect(feedback.status, feedback.text).toBe(201)
      expect(feedback.body.data.authenticityState).toBe("VERIFIED_INTERACTION")
    }), 180_000)

  it.effect("rejected, disputed by the claimant, resolved as a split: each side gets its part", () =>
    Effect.gen(function*() {
      yield* signInBoth
      const units = 10_000_000n
      const open = yield* postAndFund(chain, () => poster, units, at(10 * 24 * HourMs), "Translate the docs to German")
      const submitted = yield* claimAndDeliver(open)
      const rejected = yield* command(poster, open.id, "reject", { expectedVersion: submitted.version, reasons: ["Two pages are missing."] })
      expect(rejected.status, rejected.text).toBe(200)
      expect(rejected.body.data).toMatchObject({ state: "REJECTED", rejectionReasons: ["Two pages are missing."] })
      const disputed = yield* command(claimant, open.id, "disputes", {
        expectedVersion: rejected.body.data.version,
        reason: "Every page of the brief is translated; the two pages were not in the brief."
      })
      expect(disputed.status, disputed.text).toBe(201)
      const { disputeId } = disputed.body.data
      expect(disputed.body.data.state).toBe("DISPUTED")

      const admin = yield* signIn("admin")
      const providerBefore = yield* balanceOf(chain, chain.provider)
      const posterBefore = yield* balanceOf(chain, chain.poster)
      yield* resolveDispute(open.id, disputeId, {
        resolution: "SPLIT", unitsToProvider: "6000000", unitsToClient: "4000000",
        reason: "Most of the pages were delivered as the brief asked.", expectedVersion: 1
      }, admin)
      const settled = yield* untilBounty(chain, "the split RELEASED", () => poster, open.id, (b) => b.state === "RELEASED")
      expect(settled).toMatchObject({ unitsToProvider: "6000000", unitsToClient: "4000000" })
      expect(yield* balanceOf(chain, chain.provider)).toBe(providerBefore + 6_000_000n)
      expect(yield* balanceOf(chain, chain.poster)).toBe(posterBefore + 4_000_000n)
      const kinds = (yield* bountyEvents(open.id)).filter((e) => e.workspaceId === DemoWorkspaces.outsider.id).map((e) => e.kind)
      expect(kinds).toEqual(["bounty.claimed", "bounty.submitted", "bounty.rejected", "bounty.disputed", "bounty.released"])
    }), 180_000)

  it.effect("two claims at once: one wins, the other meets version-conflict; a claimed bounty is not cancelled", () =>
    Effect.gen(function*() {
      yield* signInBoth
      const open = yield* postAndFund(chain, () => poster, 1_000_000n, at(10 * 24 * HourMs), "Race for it")
      const claim = () => command(claimant, open.id, "claim", { expectedVersion: open.version, agentId: ClaimantAgent })
      const [a, b] = yield* Effect.all([claim(), claim()], { concurrency: 2 })
      expect([a.status, b.status].sort()).toEqual([200, 409])
      const loser = a.status === 409 ? a : b
      expect(loser.body.type).toMatch(/version-conflict|invalid-state/)
      expectProblem(yield* command(poster, open.id, "cancel", { expectedVersion: open.version + 1 }), 409, "invalid-state")
    }))

  it.effect("bad input: a 4xx naming the field, never the value", () =>
    Effect.gen(function*() {
      yield* signInBoth
      const base = bountyBody(chain, 1_000n, at(24 * HourMs))
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ...base, rewardUnits: "-5" }, "/rewardUnits"],
        [{ ...base, rewardUnits: "0" }, "/rewardUnits"],
        [{ ...base, deadline: new Date(server.clock.unsafeCurrentTimeMillis() - HourMs).toISOString() }, "/deadline"],
        [{ ...base, asset: "eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" }, "/asset"],
        [{ ...base, network: "not a network" }, "/network"],
        [{ ...base, title: "" }, "/title"],
        [{ ...base, requiredSkills: ["Not A Slug"] }, "/requiredSkills"],
        [{ ...base, surprise: true }, "/surprise"]
      ]
      for (const [body, pointer] of cases) {
        const reply = yield* call("POST", "/api/v1/bounties", { session: poster, body })
        expect(reply.status, `${pointer}: ${reply.text}`).toBe(400)
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), reply.text).toContain(pointer)
      }
      const created = yield* call("POST", "/api/v1/bounties", { session: poster, body: base })
      expect(created.status, created.text).toBe(201)
      const badClaim = yield* command(claimant, created.body.data.id, "claim", { expectedVersion: 1, agentId: "not-a-uuid" })
      expectProblem(badClaim, 400)
      expect(badClaim.body.errors[0].pointer).toBe("/agentId")
      // a FUNDING_PENDING bounty is not visible to others, and cannot be claimed
      expectProblem(yield* call("GET", `/api/v1/bounties/${created.body.data.id}`, { session: claimant }), 404, "bounty-not-found")
      // cancelled before funding: CANCELLED
      const cancelled = yield* command(poster, created.body.data.id, "cancel", { expectedVersion: 1 })
      expect(cancelled.status, cancelled.text).toBe(200)
      expect(cancelled.body.data).toMatchObject({ state: "CANCELLED", version: 2 })
    }))

  // moves the server's clock: last
  it.effect("on the engine's clock: an unclaimed bounty past its deadline is refunded, a late claim released", () =>
    Effect.gen(function*() {
      yield* awaitCronScheduled("BountyLifecycle")
      yield* signInBoth
      const expiring = yield* postAndFund(chain, () => poster, 3_000_000n, at(2 * HourMs), "Expires unclaimed")
      const long = yield* postAndFund(chain, () => poster, 2_000_000n, at(20 * 24 * HourMs), "Claimed, never delivered")
      const claimed = yield* command(claimant, long.id, "claim", { expectedVersion: long.version, agentId: ClaimantAgent })
      expect(claimed.status, claimed.text).toBe(200)
      const posterBefore = yield* balanceOf(chain, chain.poster)

      // 73 hours later: past the first one's deadline and the claim's delivery window (72 hours)
      server.clock.set(at(73 * HourMs))
      yield* signInBoth
      const refunded = yield* untilBounty(chain, "the expired bounty REFUNDED", () => poster, expiring.id, (b) => b.state === "REFUNDED", 90_000)
      expect(refunded).toMatchObject({ unitsToProvider: "0", unitsToClient: "3000000", version: expiring.version + 2 })
      expect(yield* balanceOf(chain, chain.poster)).toBe(posterBefore + 3_000_000n)
      const reopened = yield* untilBounty(chain, "the claim released", () => poster, long.id, (b) => b.state === "OPEN", 30_000)
      expect(reopened).toMatchObject({ claim: null, version: claimed.body.data.version + 1 })
      const kinds = (yield* bountyEvents(long.id)).map((e) => `${e.workspaceId === DemoWorkspaces.acme.id ? "poster" : "claimant"}:${e.kind}`)
      expect(kinds).toContain("claimant:bounty.claim_released")
      expect(kinds).toContain("poster:bounty.claim_released")
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE subject_id = ${expiring.id} AND kind = 'bounty.refunded'`
      expect(row!.n).toBe(1)
    }), 240_000)
})
