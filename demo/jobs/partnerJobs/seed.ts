/**
 * Demo data of the partner job sources (spec §2.18) in every state, the jobs their feeds gave (listed on the
 * job board while their source is ACTIVE or DEGRADED), and its seed step. Id groups 0x93 (sources), 0x98 (jobs).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoId as id, demoTime } from "../../common.js"

/** Partner job sources (spec §2.18) in every state. */
export const DemoJobSources = {
  active: {
    id: id(0x93, 1), code: "gigboard", displayName: "GigBoard", state: "ACTIVE", failureCount: 0, version: 4,
    endpointUrl: "https://partners.gigboard.example/v1/agent-jobs.json", pollIntervalSeconds: 900, requestTimeoutMs: 5000
  },
  degraded: {
    id: id(0x93, 2), code: "botbounties", displayName: "Bot Bounties", state: "DEGRADED", failureCount: 4, version: 2,
    endpointUrl: "https://feeds.botbounties.example/jobs", pollIntervalSeconds: 3600, requestTimeoutMs: 10000
  },
  paused: {
    id: id(0x93, 3), code: "quietjobs", displayName: "Quiet Jobs", state: "PAUSED", failureCount: 0, version: 3,
    endpointUrl: "https://quietjobs.example/feed", pollIntervalSeconds: 86400, requestTimeoutMs: 30000
  },
  disabled: {
    id: id(0x93, 4), code: "oldmarket", displayName: "Old Market", state: "DISABLED", failureCount: 12, version: 7,
    endpointUrl: "https://oldmarket.example/api/jobs", pollIntervalSeconds: 600, requestTimeoutMs: 1000
  }
} as const
export type DemoJobSourceName = keyof typeof DemoJobSources

/** Open far ahead of the demo's and the tests' clocks. */
const farAhead = new Date("2030-06-30T00:00:00.000Z")

/**
 * Partner jobs: three of GigBoard (ACTIVE) and one of Bot Bounties (DEGRADED) are on the board; one of Quiet
 * Jobs (PAUSED) is not, nor GigBoard's closed and withdrawn ones. `reward` as a feed of version 2 gives it.
 */
export const DemoPartnerJobs = {
  research: {
    id: id(0x98, 1), source: "active", externalId: "gb-1042", title: "Research brief: agent payment protocols",
    description: "A two-page brief comparing x402 and escrow-based payment flows for autonomous agents, with sources.",
    skills: ["research", "writing"], protocols: ["a2a"], reward: { units: "120000000", asset: "USDC", network: "eip155:8453" },
    postedAt: demoTime(140), closesAt: farAhead
  },
  translation: {
    id: id(0x98, 2), source: "active", externalId: "gb-1043", title: "Translate an MCP server's tool descriptions to Spanish",
    description: "Forty tool descriptions, keep the parameter names as they are.",
    skills: ["translation"], protocols: ["mcp"], reward: { units: "30000000", asset: "USDC", network: "eip155:8453" },
    postedAt: demoTime(141), closesAt: null
  },
  monitoring: {
    id: id(0x98, 3), source: "active", externalId: "gb-1044", title: "Weekly uptime report for ten agent endpoints",
    description: null, skills: ["monitoring"], protocols: [], reward: null, postedAt: demoTime(142), closesAt: farAhead
  },
  labelling: {
    id: id(0x98, 4), source: "degraded", externalId: "bb-77", title: "Label 5,000 support tickets by intent",
    description: "Intents from a fixed list of twelve; a sample of 200 is reviewed.",
    skills: ["labelling", "support"], protocols: ["mcp"], reward: { units: "2000000000", asset: "SOL", network: "solana" },
    postedAt: demoTime(138), closesAt: farAhead
  },
  paused: {
    id: id(0x98, 5), source: "paused", externalId: "qj-3", title: "Proofread a whitepaper",
    description: null, skills: ["writing"], protocols: [], reward: null, postedAt: demoTime(120), closesAt: null
  },
  closed: {
    id: id(0x98, 6), source: "active", externalId: "gb-990", title: "Classify 300 agent cards (closed)",
    description: null, skills: ["research"], protocols: [], reward: null, postedAt: demoTime(90), closesAt: demoTime(100)
  },
  withdrawn: {
    id: id(0x98, 7), source: "active", externalId: "gb-1001", title: "Benchmark three embedding models (withdrawn)",
    description: null, skills: ["research"], protocols: [], reward: null, postedAt: demoTime(95), closesAt: null
  }
} as const satisfies Record<string, { readonly source: DemoJobSourceName; readonly [k: string]: unknown }>

/** The demo partner jobs on the board, newest first (what Jobs_ListJobs answers without filters and bounties). */
export const DemoListedPartnerJobs = ["monitoring", "translation", "research", "labelling"] as const
/** Inserts the demo partner job sources. Fails with `SqlError`. */
export const seedPartnerJobSources = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO partner_job_sources ${
    sql.insert(Object.values(DemoJobSources).map((s, i) => {
      const syncing = s.state === "ACTIVE" || s.state === "DEGRADED"
      return {
        id: s.id,
        code: s.code,
        display_name: s.displayName,
        website_url: new URL(s.endpointUrl).origin,
        endpoint_url: s.endpointUrl,
        adapter_version: "feed-v1",
        response_schema_version: 1,
        poll_interval_seconds: s.pollIntervalSeconds,
        request_timeout_ms: s.requestTimeoutMs,
        state: s.state,
        // far enough ahead that no scheduled sync of the demo data runs unasked
        next_sync_at: syncing ? new Date("2030-01-01T00:00:00.000Z") : null,
        last_successful_sync_at: s.state === "ACTIVE" ? demoTime(120 + i) : demoTime(100 + i),
        failure_count: s.failureCount,
        last_sync_job_count: s.state === "ACTIVE" ? 3 : null,
        last_sync_skipped_count: s.state === "ACTIVE" ? 0 : null,
        created_at: demoTime(10 + i),
        last_failure: s.failureCount > 0 ? "timeout" : null,
        version: s.version,
        configuration_version: String(i + 1),
        updated_at: demoTime(120 + i)
      }
    }))
  }`
  yield* sql`INSERT INTO partner_jobs ${
    sql.insert(Object.entries(DemoPartnerJobs).map(([name, j]) => ({
      id: j.id,
      source_id: DemoJobSources[j.source].id,
      external_id: j.externalId,
      title: j.title,
      url: `${new URL(DemoJobSources[j.source].endpointUrl).origin}/jobs/${j.externalId}`,
      description: j.description,
      posted_at: j.postedAt,
      closes_at: j.closesAt,
      skills: `{${j.skills.join(",")}}`,
      protocols: `{${j.protocols.join(",")}}`,
      reward_units: j.reward?.units ?? null,
      reward_asset: j.reward?.asset ?? null,
      reward_network: j.reward?.network ?? null,
      first_seen_at: j.postedAt,
      last_seen_at: name === "withdrawn" ? demoTime(100) : demoTime(120),
      withdrawn_at: name === "withdrawn" ? demoTime(120) : null
    })))
  }`
})
