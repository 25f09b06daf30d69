/**
 * Work for agents, end to end (docs/bounties.md, docs/jobs.md, docs/webhooks.md) on anvil: acme
 * posts and funds a bounty; the outsider's workspace finds it through the directory's MCP server
 * (`search_jobs`, the MCP SDK's client on `/mcp`), claims it for Cobalt and delivers; acme accepts
 * and the escrowed test tokens reach the claimant's payout wallet; a second bounty is disputed and
 * resolved as a split; a third expires unclaimed and is refunded on the engine's clock; a partner
 * source's jobs appear in Jobs_ListJobs. The work is evidence of Cobalt's: its performance reports the
 * accepted delivery's time (claim → submission), its trust counts the dispute it lost (a split giving
 * it less than the client). Both workspaces' webhook receivers (local http servers)
 * get each step once, every delivery verified by `standardwebhooks`' `Webhook.verify`, and acme's
 * receiver, down while the second bounty is rejected and disputed, gets what it missed when it
 * returns.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"
import { vi } from "vitest"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { RetryDelaysMillis } from "../../src/workspaces/webhooks/Delivery.js"
import { call, type Session, signIn } from "../support/http.js"
import { testConfig } from "../support/config.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitCronScheduled } from "../support/workflows.js"
import { waitFor } from "../support/waitFor.js"
import {
  balanceOf,
  bountyCommand,
  bountyOverrides,
  ClaimantAgent,
  postAndFund,
  resolveDispute,
  seedBountyChain,
  startBountyChain,
  untilBounty
} from "./bounties/support.js"

const HourMs = 3_600_000

/** One verified delivery: the `webhook-id` and the event. */
interface Delivered {
  readonly id: string
  readonly type: string
  readonly data: Record<string, unknown>
}

/**
 * A webhook receiver on 127.0.0.1: verifies each delivery's signature with `Webhook.verify` (its
 * timestamp window read at the delivery's own `webhook-timestamp`, since the walk jumps the service's
 * clock; `now()` when the header is missing) and records it; answers 503 while down. A delivery
 * that does not verify is recorded in `rejected`.
 */
const receiver = (now: () => number) => {
  const delivered: Array<Delivered> = []
  const rejected: Array<string> = []
  const state = { up: true, secret: "", attempts: 0 }
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      state.attempts++
      if (!state.up) {
        res.writeHead(503).end()
        return
      }
      try {
        // the library's freshness window is read at the delivery's own timestamp: this walk jumps the service's
        // clock by hours, and a delivery signed just before a jump arrives just after it
        const signedAt = Number(req.headers["webhook-timestamp"]) * 1000
        const event = verify(state.secret, req.headers, body, Number.isFinite(signedAt) ? signedAt : now()) as { type: string; data: Record<string, unknown> }
        delivered.push({ id: String(req.headers["webhook-id"]), type: event.type, data: event.data })
        res.writeHead(204).end()
      } catch (e) {
        rejected.push(String(e))
        res.writeHead(400).end()
      }
    })
  })
  return { server, delivered, rejected, state }
}

/** `Webhook.verify` with `Date.now()` read as `nowMs` for the synchronous call (the timestamp check). */
const verify = (secret: string, headers: IncomingHttpHeaders, body: string, nowMs: number) => {
  const spy = vi.spyOn(Date, "now").mockReturnValue(nowMs)
  try {
    return new Webhook(secret).verify(body, headers as Record<string, string>)
  } finally {
    spy.mockRestore()
  }
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const chain = await startBountyChain()
const overrides = bountyOverrides(chain)
const server = makeTestServer({
  ...overrides,
  outbound: { ...testConfig().outbound, allowedHosts: [chain.anvil.host, "127.0.0.1"] }
})
const now = () => server.clock.unsafeCurrentTimeMillis()
const at = (ms: number) => new Date(now() + ms)

const posterHook = receiver(now)
const claimantHook = receiver(now)
/** The partner's feed (schema version 2, what a new source reads) at `/feed`. */
const partner = createServer((req, res) => {
  res.writeHead(req.url === "/feed" ? 200 : 404, { "content-type": "application/json" })
  res.end(JSON.stringify(req.url === "/feed"
    ? {
      schemaVersion: 2,
      jobs: [{
        externalId: "wj-1", title: "Benchmark a vector database for agents", url: "https://workpartner.example/jobs/1",
        description: "Latency and recall at one million vectors.", postedAt: "2026-05-31T10:00:00Z", skills: ["benchmarking"]
      }]
    }
    : {}))
})
const [posterUrl, claimantUrl, partnerUrl] = await Promise.all([listen(posterHook.server), listen(claimantHook.server), listen(partner)])
afterAll(async () => {
  for (const s of [posterHook.server, claimantHook.server, partner]) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
  await chain.anvil.stop()
})

let poster: Session
let claimant: Session
const signInBoth = Effect.gen(function*() {
  poster = yield* signIn("owner")
  claimant = yield* signIn("outsider")
})
const command = bountyCommand

/** Subscribes `workspaceId`'s receiver at `url` to `bounty.*`; the receiver verifies with its secret. */
const subscribe = (session: Session, workspaceId: string, url: string, hook: ReturnType<typeof receiver>) =>
  Effect.gen(function*() {
    const created = yield* call("POST", `/api/v1/workspaces/${workspaceId}/webhooks`, {
      session, body: { url: `${url}/hooks`, eventKinds: ["bounty.*"], description: "bounties" }
    })
    expect(created.status, created.text).toBe(201)
    hook.state.secret = created.body.data.secret
    return created.body.data.id as string
  })

/** Claims `bounty` for Cobalt as the outsider and delivers `workMs` later (the server's clock); the SUBMITTED bounty. */
const claimAndDeliver = (bounty: { id: string; version: number }, workMs = 0) =>
  Effect.gen(function*() {
    const claimed = yield* command(claimant, bounty.id, "claim", { expectedVersion: bounty.version, agentId: ClaimantAgent })
    expect(claimed.status, claimed.text).toBe(200)
    server.clock.advance(workMs)
    const delivered = yield* command(claimant, bounty.id, "delivery", {
      expectedVersion: claimed.body.data.version,
      message: "Done as the criteria say.",
      links: ["https://example.com/delivery"],
      artifacts: [{ name: "delivery.tgz", sha256: "b".repeat(64), mediaType: "application/gzip" }]
    })
    expect(delivered.status, delivered.text).toBe(200)
    return delivered.body.data
  })

/** The kinds `hook` received for `bountyId`, in the order received. */
const received = (hook: ReturnType<typeof receiver>, bountyId: string) =>
  hook.delivered.filter((d) => d.data.bountyId === bountyId).map((d) => d.type)

/** Waits until `hook` has received `kinds` (in any order) for `bountyId`. */
const awaitKinds = (what: string, hook: ReturnType<typeof receiver>, bountyId: string, kinds: ReadonlyArray<string>) =>
  waitFor(
    what,
    Effect.sync(() => received(hook, bountyId).length >= kinds.length ? true : undefined),
    20_000,
    50,
    () => JSON.stringify(received(hook, bountyId))
  ).pipe(Effect.andThen(() => expect([...received(hook, bountyId)].sort()).toEqual([...kinds].sort())))

const ids: { accepted?: string; split?: string; expired?: string } = {}

/** Cobalt's projected trust or performance document. */
const evidence = (what: "trust" | "performance") =>
  Effect.map(call("GET", `/api/v1/agents/${ClaimantAgent}/${what}`), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.body.data
  })
/** Waits until the projector has projected Cobalt's `what` so that `done` holds. */
const untilEvidence = (what: "trust" | "performance", done: (d: any) => boolean) =>
  waitFor(`Cobalt's ${what} projected`, Effect.map(evidence(what), (d) => done(d) ? d : undefined), 20_000, 100)
const lostBefore = { n: 0 }

layer(server.layer, { timeout: 240_000 })("work for agents, end to end", (it) => {
  it.scoped("posted and funded; found through MCP search_jobs; claimed, delivered, accepted: the tokens reach the provider", () =>
    Effect.gen(function*() {
      yield* seedBountyChain(chain)
      yield* signInBoth
      yield* subscribe(poster, DemoWorkspaces.acme.id, posterUrl, posterHook)
      yield* subscribe(claimant, DemoWorkspaces.outsider.id, claimantUrl, claimantHook)

      const units = 25_000_000n
      const open = yield* postAndFund(chain, () => poster, units, at(10 * 24 * HourMs), "Write an MCP server for a tide-table API")
      ids.accepted = open.id

      // the agent's workspace finds it through the directory's MCP server
      const http = yield* HttpServer.HttpServer
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const c = new Client({ name: "work-journey", version: "1.0.0" })
          await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address as HttpServer.TcpAddress).port}/mcp`)))
          return c
        }),
        (c) => Effect.promise(() => c.close())
      )
      const found = yield* Effect.promise(() => client.callTool({ name: "search_jobs", arguments: { q: "tide-table", skills: ["typescript"] } }))
      expect(found.isError ?? false, JSON.stringify(found.content)).toBe(false)
      const jobs = (found.structuredContent as { data: Array<{ id: string; kind: string; reward: { units: string } }> }).data
      expect(jobs).toEqual([expect.objectContaining({ id: open.id, kind: "BOUNTY", reward: expect.objectContaining({ units: units.toString() }) })])

      // two hours of work between the claim and the delivery
      const submitted = yield* claimAndDeliver({ id: jobs[0]!.id, version: open.version }, 2 * HourMs)
      expect(submitted).toMatchObject({ state: "SUBMITTED", claim: { workspaceId: DemoWorkspaces.outsider.id, payoutAddress: chain.provider } })
      const before = yield* balanceOf(chain, chain.provider)
      const accepted = yield* command(poster, open.id, "accept", { expectedVersion: submitted.version })
      expect(accepted.status, accepted.text).toBe(202)
      const released = yield* untilBounty(chain, "the bounty RELEASED", () => poster, open.id, (b) => b.state === "RELEASED")
      expect(released).toMatchObject({ unitsToProvider: units.toString(), unitsToClient: "0" })
      expect(yield* balanceOf(chain, chain.provider)).toBe(before + units)

      yield* awaitKinds("acme's deliveries of the first bounty", posterHook, open.id, [
        "bounty.created", "bounty.funded", "bounty.claimed", "bounty.submitted", "bounty.accepted", "bounty.released"
      ])
      yield* awaitKinds("the outsider's deliveries of the first bounty", claimantHook, open.id, [
        "bounty.claimed", "bounty.submitted", "bounty.accepted", "bounty.released"
      ])

      // work as evidence: the accepted delivery and its time in Cobalt's performance
      const performance = yield* untilEvidence("performance", (d) => d.components?.work?.acceptedDeliveries === 1)
      expect(performance.components.work).toEqual({ acceptedDeliveries: 1, deliveryTimeP50Ms: 2 * HourMs, deliveryTimeP95Ms: 2 * HourMs })
      // projected together with the performance: the disputes Cobalt lost before (the demo's)
      lostBefore.n = (yield* evidence("trust")).components.work.disputesLost
    }), 120_000)

  it.effect("a second bounty is rejected and disputed while acme's receiver is down, resolved as a split Cobalt lost; the missed deliveries arrive", () =>
    Effect.gen(function*() {
      yield* signInBoth
      const units = 10_000_000n
      const open = yield* postAndFund(chain, () => poster, units, at(10 * 24 * HourMs), "Translate the tide-table docs")
      ids.split = open.id
      const submitted = yield* claimAndDeliver(open)

      posterHook.state.up = false
      const attemptsBefore = posterHook.state.attempts
      const rejected = yield* command(poster, open.id, "reject", { expectedVersion: submitted.version, reasons: ["Two pages are missing."] })
      expect(rejected.status, rejected.text).toBe(200)
      const disputed = yield* command(claimant, open.id, "disputes", {
        expectedVersion: rejected.body.data.version, reason: "The two pages were not in the brief."
      })
      expect(disputed.status, disputed.text).toBe(201)
      yield* waitFor("acme's receiver refused both", Effect.sync(() => posterHook.state.attempts >= attemptsBefore + 2 ? true : undefined), 20_000)

      const admin = yield* signIn("admin")
      const providerBefore = yield* balanceOf(chain, chain.provider)
      const posterBefore = yield* balanceOf(chain, chain.poster)
      yield* resolveDispute(open.id, disputed.body.data.disputeId, {
        resolution: "SPLIT", unitsToProvider: "4000000", unitsToClient: "6000000", reason: "Most pages were missing.", expectedVersion: 1
      }, admin)
      yield* untilBounty(chain, "the split RELEASED", () => poster, open.id, (b) => b.state === "RELEASED")
      expect(yield* balanceOf(chain, chain.provider)).toBe(providerBefore + 4_000_000n)
      expect(yield* balanceOf(chain, chain.poster)).toBe(posterBefore + 6_000_000n)
      // less to the provider than to the client: a dispute Cobalt lost, negative trust evidence
      const trust = yield* untilEvidence("trust", (d) => d.components?.work?.disputesLost === lostBefore.n + 1)
      expect(trust.components.work).toMatchObject({ penaltyPpm: Math.min(200_000, 50_000 * (lostBefore.n + 1)), maxPenaltyPpm: 200_000 })
      yield* awaitKinds("the outsider's deliveries of the second bounty", claimantHook, open.id, [
        "bounty.claimed", "bounty.submitted", "bounty.rejected", "bounty.disputed", "bounty.released"
      ])

      // acme's receiver returns: the next attempt brings what it missed
      expect(received(posterHook, open.id)).not.toContain("bounty.rejected")
      posterHook.state.up = true
      server.clock.advance(RetryDelaysMillis[0]!)
      yield* awaitKinds("acme's deliveries of the second bounty", posterHook, open.id, [
        "bounty.created", "bounty.funded", "bounty.claimed", "bounty.submitted", "bounty.rejected", "bounty.disputed", "bounty.released"
      ])
    }), 120_000)

  it.effect("a partner source's jobs appear in Jobs_ListJobs", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const created = yield* call("POST", "/api/v1/admin/jobs/sources", {
        session: admin,
        body: { code: "workpartner", displayName: "Work Partner", websiteUrl: "https://workpartner.example", endpointUrl: `${partnerUrl}/feed` }
      })
      expect(created.status, created.text).toBe(201)
      const sync = yield* call("POST", `/api/v1/admin/jobs/sources/${created.body.data.id}/sync`, {
        session: admin, body: { expectedVersion: created.body.data.version, reason: "first sync", dryRun: false, confirmation: "workpartner" }
      })
      expect(sync.status, sync.text).toBe(202)
      const synced = yield* waitFor(
        "the source synced",
        Effect.map(call("GET", "/api/v1/admin/jobs/sources", { session: admin }), (r) =>
          r.body.data.find((s: { code: string; lastSyncJobCount: number | null; lastFailure: string | null }) =>
            s.code === "workpartner" && (s.lastSyncJobCount !== null || s.lastFailure !== null))),
        20_000,
        50
      )
      expect(synced).toMatchObject({ lastSyncJobCount: 1, lastFailure: null })
      const jobs = yield* waitFor(
        "the partner's job listed",
        Effect.map(call("GET", "/api/v1/jobs?q=vector%20database"), (r) => r.body.data.length > 0 ? r.body.data : undefined),
        20_000,
        50
      )
      expect(jobs).toEqual([expect.objectContaining({
        kind: "PARTNER", title: "Benchmark a vector database for agents", skills: ["benchmarking"],
        source: expect.objectContaining({ kind: "PARTNER", sourceId: created.body.data.id, sourceCode: "workpartner", externalId: "wj-1" })
      })])
    }))

  // moves the server's clock: last
  it.effect("a third bounty expires unclaimed and is refunded on the engine's clock; every event reached each receiver once", () =>
    Effect.gen(function*() {
      yield* awaitCronScheduled("BountyLifecycle")
      yield* signInBoth
      const expiring = yield* postAndFund(chain, () => poster, 3_000_000n, at(2 * HourMs), "Expires unclaimed")
      ids.expired = expiring.id
      const posterBefore = yield* balanceOf(chain, chain.poster)
      // every delivery signed before the clock moves has arrived (one signed now and received after would be 3 hours old)
      yield* awaitKinds("acme's first deliveries of the third bounty", posterHook, expiring.id, ["bounty.created", "bounty.funded"])
      // and every other: no delivery of either receiver is PENDING (a retry of an earlier step included)
      const pendingDeliveries = Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'PENDING'`, ([row]) => row!.n)).pipe(Effect.orDie)
      yield* waitFor("no delivery pending", Effect.map(pendingDeliveries, (n) => n === 0 ? true : undefined), 20_000, 50)
      server.clock.set(at(3 * HourMs))
      yield* signInBoth
      const refunded = yield* untilBounty(chain, "the expired bounty REFUNDED", () => poster, expiring.id, (b) => b.state === "REFUNDED", 90_000)
      expect(refunded).toMatchObject({ unitsToProvider: "0", unitsToClient: "3000000" })
      expect(yield* balanceOf(chain, chain.poster)).toBe(posterBefore + 3_000_000n)
      yield* awaitKinds("acme's deliveries of the third bounty", posterHook, expiring.id, [
        "bounty.created", "bounty.funded", "bounty.expired", "bounty.refunded"
      ])
      expect(received(claimantHook, expiring.id)).toEqual([])

      // each event once per receiver, every one verified, none lost
      const sql = yield* SqlClient.SqlClient
      for (const [hook, workspaceId] of [[posterHook, DemoWorkspaces.acme.id], [claimantHook, DemoWorkspaces.outsider.id]] as const) {
        const mine = [ids.accepted!, ids.split!, ids.expired!]
        const events = yield* sql<{ id: string }>`SELECT id FROM events
          WHERE workspace_id = ${workspaceId} AND subject_id IN ${sql.in(mine)}`.pipe(Effect.orDie)
        const got = hook.delivered.filter((d) => mine.includes(String(d.data.bountyId))).map((d) => d.id)
        expect(new Set(got).size).toBe(got.length)
        expect([...got].sort()).toEqual(events.map((e) => e.id).sort())
        expect(hook.rejected).toEqual([])
      }
    }), 150_000)
})
