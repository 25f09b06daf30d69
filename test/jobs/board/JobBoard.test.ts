/**
 * The job board (Jobs_ListJobs, Jobs_GetJob) over OPEN bounties (inserted with SQL: the bounty operations are
 * not this file's) and the demo's partner jobs; the admin partner sources (Jobs_CreatePartnerJobSource,
 * Jobs_ListPartnerJobSources, Jobs_UpdatePartnerJobSource) and a version 2 feed synced from a stub partner on
 * 127.0.0.1, its invalid jobs skipped and counted; and the MCP tools `search_jobs` and `get_job` with the MCP
 * SDK's client against the listening server.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DemoApiKeys } from "../../../demo/accounts/seed.js"
import { DemoAssets } from "../../../demo/common.js"
import { DemoEscrow, DemoWorkBounties } from "../../../demo/jobs/bounties/seed.js"
import { DemoJobSources, DemoPartnerJobs } from "../../../demo/jobs/partnerJobs/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { call, expectProblem, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"

const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] } })

const bountyId = (n: number) => `0000b0a7-0000-7000-8000-${n.toString(16).padStart(12, "0")}`
/** Bounties: two OPEN and listed, one CLAIMED and one OPEN past its deadline (neither listed). */
const Bounties = {
  summaries: {
    id: bountyId(1), state: "OPEN", title: "Summarise agent research papers", description: "Short research summaries of ten papers.",
    skills: ["research", "writing"], protocols: ["mcp"], units: "50000000", deadline: "2026-07-01T00:00:00.000Z", created: "2026-05-30T00:00:00.000Z"
  },
  onboarding: {
    id: bountyId(2), state: "OPEN", title: "Translate the onboarding guide", description: "",
    skills: ["translation"], protocols: [], units: "5000000", deadline: "2026-06-10T00:00:00.000Z", created: "2026-05-29T00:00:00.000Z"
  },
  claimed: {
    id: bountyId(3), state: "CLAIMED", title: "Claimed research task", description: "Taken.",
    skills: ["research"], protocols: [], units: "1000000", deadline: "2026-07-01T00:00:00.000Z", created: "2026-05-31T00:00:00.000Z"
  },
  lapsed: {
    id: bountyId(4), state: "OPEN", title: "Lapsed research task", description: "Its deadline passed.",
    skills: ["research"], protocols: [], units: "1000000", deadline: "2026-05-01T00:00:00.000Z", created: "2026-04-01T00:00:00.000Z"
  }
} as const

const insertBounties = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // the walk counts the bounties it inserts: the demo's OPEN bounty is closed first
  yield* sql`UPDATE bounties SET state = 'CANCELLED' WHERE id = ${DemoWorkBounties.open.id}`
  yield* sql`INSERT INTO bounties ${
    sql.insert(Object.values(Bounties).map((b) => ({
      id: b.id,
      workspace_id: DemoWorkspaces.acme.id,
      title: b.title,
      description: b.description,
      state: b.state,
      asset_id: DemoAssets.usdc.id,
      escrow_units: b.units,
      escrow_network: DemoEscrow.network,
      escrow_contract_address: DemoEscrow.contractAddress,
      escrow_wallet_id: DemoEscrow.walletId,
      required_skills: `{${b.skills.join(",")}}`,
      required_protocols: `{${b.protocols.join(",")}}`,
      deadline_at: new Date(b.deadline),
      version: 2,
      created_at: new Date(b.created),
      updated_at: new Date(b.created)
    })))
  }`
})

type Job = {
  id: string
  kind: string
  title: string
  description: string | null
  source: Record<string, unknown>
  reward: { units: string; asset: string; network: string } | null
  deadlineAt: string | null
  skills: Array<string>
}
const list = (query: string, headers: Record<string, string> = {}) => call("GET", `/api/v1/jobs${query}`, { headers })
const titles = (reply: { body: { data: Array<Job> } }) => reply.body.data.map((j) => j.title)
const P = DemoPartnerJobs

/** The stub partner: `/v2` answers {@link feedV2}. */
const feedV2 = {
  schemaVersion: 2,
  jobs: [
    {
      externalId: "th-1", title: "Audit a Solidity escrow contract", url: "https://taskhub.example/jobs/1",
      description: "Escrow release and refund paths.", postedAt: "2026-05-31T12:00:00Z", closesAt: "2026-09-01T00:00:00Z",
      skills: ["Solidity", "audit"], protocols: ["x402"], reward: { units: "900000000", asset: "usdc", network: "eip155:8453" }
    },
    { externalId: "th-2", title: "Write API examples", url: "https://taskhub.example/jobs/2", postedAt: "2026-05-31T11:00:00Z" },
    { externalId: "th-3", title: "Bad reward", url: "https://taskhub.example/jobs/3", postedAt: "2026-05-31T10:00:00Z", reward: { units: "12.5", asset: "USDC", network: "base" } },
    { externalId: "th-2", title: "Write API examples again", url: "https://taskhub.example/jobs/2b", postedAt: "2026-05-31T09:00:00Z" },
    { title: "No id", url: "https://taskhub.example/jobs/4", postedAt: "2026-05-31T08:00:00Z" },
    { externalId: "th-5", title: "Load-test an MCP server", url: "https://taskhub.example/jobs/5", postedAt: "2026-05-31T07:00:00Z", skills: ["testing"] }
  ]
}

const StubPartner = Effect.acquireRelease(
  Effect.async<Server>((resume) => {
    const stub = createServer((req, res) => {
      res.writeHead(req.url === "/v2" ? 200 : 404, { "content-type": "application/json" })
      res.end(JSON.stringify(req.url === "/v2" ? feedV2 : {}))
    })
    stub.listen(0, "127.0.0.1", () => resume(Effect.succeed(stub)))
  }),
  (stub) => Effect.async<void>((resume) => {
    stub.closeAllConnections()
    stub.close(() => resume(Effect.void))
  })
).pipe(Effect.map((stub) => `http://127.0.0.1:${(stub.address() as AddressInfo).port}`))

/** An MCP SDK client on the listening server's `/mcp`, closed with the scope. */
const connect = Effect.flatMap(HttpServer.HttpServer, (http) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const url = new URL(`http://127.0.0.1:${(http.address as HttpServer.TcpAddress).port}/mcp`)
      const client = new Client({ name: "job-board-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(url))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  ))

layer(server.layer, { excludeTestServices: true })("Job board", (it) => {
  it.effect("Jobs_ListJobs: OPEN bounties and listed partner jobs in one shape, newest first; filters, sorts, signed cursors", () =>
    Effect.gen(function*() {
      yield* insertBounties
      const all = yield* list("")
      expect(all.status, all.text).toBe(200)
      expect(titles(all)).toEqual([
        Bounties.summaries.title, Bounties.onboarding.title, P.monitoring.title, P.translation.title, P.research.title, P.labelling.title
      ])
      const [summaries, onboarding, monitoring] = all.body.data as Array<Job>
      expect(summaries).toEqual({
        id: Bounties.summaries.id, kind: "BOUNTY",
        source: { kind: "BOUNTY", bountyId: Bounties.summaries.id, sourceId: null, sourceCode: null, externalId: null, url: null },
        title: Bounties.summaries.title, description: Bounties.summaries.description,
        reward: { units: "50000000", asset: "USDC", network: "eip155:8453" },
        deadlineAt: Bounties.summaries.deadline, skills: ["research", "writing"], protocols: ["mcp"], postedAt: Bounties.summaries.created
      })
      expect(onboarding!.description).toBeNull()
      expect(monitoring).toMatchObject({
        id: P.monitoring.id, kind: "PARTNER", reward: null, skills: ["monitoring"],
        source: { kind: "PARTNER", bountyId: null, sourceId: DemoJobSources.active.id, sourceCode: "gigboard", externalId: "gb-1044", url: "https://partners.gigboard.example/jobs/gb-1044" }
      })

      // pages: limit 4 then the rest, the same order; a cursor is bound to its query and caller
      const first = yield* list("?limit=4")
      expect(titles(first)).toEqual(titles(all).slice(0, 4))
      const second = yield* list(`?limit=4&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      expect(titles(second)).toEqual(titles(all).slice(4))
      expect(second.body.nextCursor).toBeNull()
      expectProblem(yield* list(`?limit=4&sort=deadline&cursor=${encodeURIComponent(first.body.nextCursor)}`), 400, "invalid-cursor")
      expectProblem(yield* list(`?cursor=${encodeURIComponent(first.body.nextCursor)}`, { "x-api-key": DemoApiKeys.public.key }), 400, "invalid-cursor")

      // full text: stems, accents, prefixes; every word must match; relevance by default
      expect(titles(yield* list("?q=research"))).toEqual([Bounties.summaries.title, P.research.title])
      expect(titles(yield* list("?q=R%C3%89SEARCH%20summar"))).toEqual([Bounties.summaries.title])
      expect(titles(yield* list("?q=translat&sort=newest"))).toEqual([Bounties.onboarding.title, P.translation.title])
      expect((yield* list("?q=%25%25")).body.data).toEqual([])

      // filters
      expect(titles(yield* list("?skills=translation&skills=labelling"))).toEqual([Bounties.onboarding.title, P.translation.title, P.labelling.title])
      expect(titles(yield* list("?protocols=mcp&kinds=PARTNER"))).toEqual([P.translation.title, P.labelling.title])
      expect(titles(yield* list("?network=solana"))).toEqual([P.labelling.title])
      const onBase = titles(yield* list("?network=base"))
      expect(onBase).toEqual(titles(yield* list("?network=eip155:8453")))
      expect(onBase).toEqual([Bounties.summaries.title, Bounties.onboarding.title, P.translation.title, P.research.title])
      expect(titles(yield* list("?asset=usdc&minReward=30000000&maxReward=120000000"))).toEqual([Bounties.summaries.title, P.translation.title, P.research.title])
      expect(titles(yield* list("?asset=USDC&sort=reward"))).toEqual([P.research.title, Bounties.summaries.title, P.translation.title, Bounties.onboarding.title])
      expect(titles(yield* list("?deadlineBefore=2026-06-15T00:00:00Z"))).toEqual([Bounties.onboarding.title])
      expect(titles(yield* list("?deadlineAfter=2026-06-15T00:00:00Z&kinds=BOUNTY"))).toEqual([Bounties.summaries.title])
      const byDeadline = yield* list("?sort=deadline&limit=3")
      expect(titles(byDeadline)).toEqual([Bounties.onboarding.title, Bounties.summaries.title, P.research.title])
      const rest = yield* list(`?sort=deadline&cursor=${encodeURIComponent(byDeadline.body.nextCursor)}`)
      // equal deadlines by id, no deadline last
      expect(titles(rest)).toEqual([P.monitoring.title, P.labelling.title, P.translation.title])

      // rules: reward bounds and the reward order need an asset; values are never echoed
      const noAsset = yield* list("?minReward=5&sort=reward")
      expectProblem(noAsset, 400, "invalid-request")
      expect(noAsset.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/minReward", "/sort"])
      for (const bad of ["?minReward=-1&asset=USDC", "?skills=Bad%20Key", "?kinds=GIG", "?deadlineBefore=tomorrow", "?limit=0", "?network=Bad%20Net"]) {
        expectProblem(yield* list(bad), 400, "invalid-request")
      }
    }))

  it.effect("Jobs_GetJob: a bounty while OPEN, a partner job while listed; 404 otherwise", () =>
    Effect.gen(function*() {
      const bounty = yield* call("GET", `/api/v1/jobs/${Bounties.summaries.id}`)
      expect(bounty.status, bounty.text).toBe(200)
      expect(bounty.body.data).toMatchObject({ id: Bounties.summaries.id, kind: "BOUNTY" })
      const partner = yield* call("GET", `/api/v1/jobs/${P.labelling.id}`)
      expect(partner.body.data).toMatchObject({
        kind: "PARTNER", reward: { units: "2000000000", asset: "SOL", network: "solana" },
        source: { sourceCode: "botbounties", externalId: "bb-77" }
      })
      for (const id of [Bounties.claimed.id, Bounties.lapsed.id, P.paused.id, P.closed.id, P.withdrawn.id, randomUUID()]) {
        expectProblem(yield* call("GET", `/api/v1/jobs/${id}`), 404, "job-not-found")
      }
      expectProblem(yield* call("GET", "/api/v1/jobs/not-a-uuid"), 400, "invalid-request")
    }))

  it.scoped("MCP: search_jobs answers Jobs_ListJobs' page for the same arguments; get_job; bad arguments are a tool error", () =>
    Effect.gen(function*() {
      const client = yield* connect
      const { tools } = yield* Effect.promise(() => client.listTools())
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_jobs", "get_job"]))
      const args = { skills: ["research", "translation"], sort: "newest", limit: 2 }
      const page1 = yield* Effect.promise(() => client.callTool({ name: "search_jobs", arguments: args }))
      const rest = yield* list("?skills=research&skills=translation&sort=newest&limit=2")
      const structured = page1.structuredContent as { data: Array<Job>; nextCursor: string }
      expect(structured.data).toEqual(rest.body.data)
      const page2 = yield* Effect.promise(() => client.callTool({ name: "search_jobs", arguments: { ...args, cursor: structured.nextCursor } }))
      expect((page2.structuredContent as { data: Array<Job> }).data.map((j) => j.title)).toEqual([P.translation.title, P.research.title])
      const text = (page1.content as Array<{ text: string }>)[0]!.text
      expect(text).toContain(`jobId ${Bounties.summaries.id}`)
      const one = yield* Effect.promise(() => client.callTool({ name: "get_job", arguments: { jobId: P.research.id } }))
      expect((one.structuredContent as { data: Job }).data).toMatchObject({ id: P.research.id, kind: "PARTNER" })
      expect((one.content as Array<{ text: string }>)[0]!.text).toContain("Apply at https://partners.gigboard.example/jobs/gb-1042")
      const missing = yield* Effect.promise(() => client.callTool({ name: "get_job", arguments: { jobId: Bounties.claimed.id } }))
      expect(missing.isError).toBe(true)
      expect(JSON.parse((missing.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ status: 404, type: expect.stringContaining("job-not-found") })
      const invalid = yield* Effect.promise(() => client.callTool({ name: "search_jobs", arguments: { minReward: "5", colour: "red" } }))
      expect(invalid.isError).toBe(true)
      const problem = JSON.parse((invalid.content as Array<{ text: string }>)[0]!.text) as { errors: Array<{ pointer: string }> }
      expect(problem.errors.map((e) => e.pointer)).toEqual(["/colour"])
      const needsAsset = yield* Effect.promise(() => client.callTool({ name: "search_jobs", arguments: { minReward: "5" } }))
      expect(JSON.parse((needsAsset.content as Array<{ text: string }>)[0]!.text).errors).toEqual([{ in: "query", pointer: "/minReward", detail: "needs asset" }])
    }))

  it.scoped("partner sources: create, list, a version 2 feed synced with its invalid jobs skipped and counted, pause and disable", () =>
    Effect.gen(function*() {
      const partner = yield* StubPartner
      const admin = yield* signIn("admin")
      const body = { code: "taskhub", displayName: "TaskHub", websiteUrl: "https://taskhub.example", endpointUrl: `${partner}/v2` }
      const created = yield* call("POST", "/api/v1/admin/jobs/sources", { session: admin, body })
      expect(created.status, created.text).toBe(201)
      const source = created.body.data
      expect(source).toMatchObject({
        code: "taskhub", state: "ACTIVE", version: 1, configurationVersion: "1", responseSchemaVersion: 2, adapterVersion: "feed-v2",
        pollIntervalSeconds: 900, requestTimeoutMs: 10000, failureCount: 0, lastFailure: null, lastSyncJobCount: null, lastSyncSkipped: []
      })
      expectProblem(yield* call("POST", "/api/v1/admin/jobs/sources", { session: admin, body }), 409, "partner-job-source-code-taken")
      const refused = yield* call("POST", "/api/v1/admin/jobs/sources", { session: admin, body: { ...body, code: "meta", endpointUrl: "http://169.254.169.254/feed" } })
      expectProblem(refused, 400, "outbound-target-refused")
      expectProblem(yield* call("POST", "/api/v1/admin/jobs/sources", { session: admin, body: { ...body, code: "X" } }), 400, "invalid-request")
      expectProblem(yield* call("POST", "/api/v1/admin/jobs/sources", { session: yield* signIn("member"), body }), 403)
      const listed = yield* call("GET", "/api/v1/admin/jobs/sources", { session: admin })
      expect(listed.body.data.map((s: { code: string }) => s.code)).toEqual(["gigboard", "botbounties", "quietjobs", "oldmarket", "taskhub"])

      // the sync: 3 jobs stored (skills lower case, the asset upper case), 3 skipped with the rule broken
      const sync = yield* call("POST", `/api/v1/admin/jobs/sources/${source.id}/sync`, {
        session: admin, body: { expectedVersion: 1, reason: "first sync", dryRun: false, confirmation: "taskhub" }
      })
      expect(sync.status, sync.text).toBe(202)
      const synced = yield* waitFor(
        "taskhub synced",
        until(
          Effect.map(call("GET", "/api/v1/admin/jobs/sources", { session: admin }), (r) => r.body.data.find((s: { code: string }) => s.code === "taskhub")),
          (s) => s.lastSyncJobCount !== null
        ),
        20_000,
        50
      )
      expect(synced).toMatchObject({ lastSyncJobCount: 3, lastSyncSkippedCount: 3, failureCount: 0, lastFailure: null })
      expect(synced.lastSyncSkipped).toEqual([
        { index: 2, externalId: "th-3", pointer: "/reward/units", detail: "must be a decimal string of at most 78 digits" },
        { index: 3, externalId: "th-2", pointer: "/externalId", detail: "repeats an earlier job's externalId" },
        { index: 4, externalId: null, pointer: "/externalId", detail: "is required" }
      ])
      const found = yield* list("?q=solidity%20escrow")
      expect(found.body.data).toEqual([expect.objectContaining({
        kind: "PARTNER", title: "Audit a Solidity escrow contract", skills: ["solidity", "audit"], protocols: ["x402"],
        reward: { units: "900000000", asset: "USDC", network: "eip155:8453" }, deadlineAt: "2026-09-01T00:00:00.000Z",
        source: expect.objectContaining({ sourceId: source.id, sourceCode: "taskhub", externalId: "th-1", url: "https://taskhub.example/jobs/1" })
      })])

      // pause: its jobs leave the board; resume brings them back; disable is final
      const path = `/api/v1/admin/jobs/sources/${source.id}`
      expectProblem(yield* call("PATCH", path, { session: admin, body: { expectedVersion: 2 } }), 400, "invalid-request")
      const paused = yield* call("PATCH", path, { session: admin, body: { expectedVersion: 2, state: "PAUSED", pollIntervalSeconds: 3600 } })
      expect(paused.status, paused.text).toBe(200)
      expect(paused.body.data).toMatchObject({ state: "PAUSED", version: 3, configurationVersion: "2", pollIntervalSeconds: 3600, nextSyncAt: null })
      expect((yield* list("?q=solidity")).body.data).toEqual([])
      expectProblem(yield* call("PATCH", path, { session: admin, body: { expectedVersion: 2, state: "ACTIVE" } }), 409, "version-conflict")
      const resumed = yield* call("PATCH", path, { session: admin, body: { expectedVersion: 3, state: "ACTIVE" } })
      expect(resumed.body.data).toMatchObject({ state: "ACTIVE", version: 4, configurationVersion: "2" })
      expect(resumed.body.data.nextSyncAt).not.toBeNull()
      expect(titles(yield* list("?q=solidity"))).toEqual(["Audit a Solidity escrow contract"])
      expectProblem(
        yield* call("PATCH", path, { session: admin, body: { expectedVersion: 4, endpointUrl: "http://10.0.0.1/feed" } }),
        400,
        "outbound-target-refused"
      )
      const disabled = yield* call("PATCH", path, { session: admin, body: { expectedVersion: 4, state: "DISABLED" } })
      expect(disabled.body.data).toMatchObject({ state: "DISABLED", version: 5 })
      expectProblem(yield* call("PATCH", path, { session: admin, body: { expectedVersion: 5, state: "ACTIVE" } }), 409, "invalid-state")
      expectProblem(
        yield* call("PATCH", `/api/v1/admin/jobs/sources/${DemoJobSources.degraded.id}`, { session: admin, body: { expectedVersion: DemoJobSources.degraded.version, state: "ACTIVE" } }),
        409,
        "invalid-state"
      )
      expectProblem(yield* call("PATCH", `/api/v1/admin/jobs/sources/${randomUUID()}`, { session: admin, body: { expectedVersion: 1, state: "PAUSED" } }), 404, "partner-job-source-not-found")
      expectProblem(yield* call("GET", "/api/v1/admin/jobs/sources"), 401)
    }))
})
