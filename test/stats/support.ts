/**
 * Evidence rows for the stats tests, inserted with SQL where the operation that writes them
 * is tested elsewhere or needs a model run: runs (their outcomes come from the
 * runtime), feedback (Trust_CreateFeedback), favorites (PUT …/favorite), endpoint probes (the
 * probe cron), activity items and bounties with their disputes (their moves need a chain:
 * test/jobs). Agents are registered through Agents_CreateAgent.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAssets } from "../../demo/common.js"
import { DemoEscrow } from "../../demo/jobs/bounties/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

const exec = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, f).pipe(Effect.orDie)

/** A non-playground run of `agentId` started at `startedAt`, ended in `state` `durationMs` later (or still RUNNING). */
export const insertRun = (agentId: string, startedAt: Date, state: "SUCCEEDED" | "FAILED" | "TIMED_OUT" | "RUNNING", durationMs = 0) =>
  exec((sql) => {
    const completedAt = state === "RUNNING" ? null : new Date(startedAt.getTime() + durationMs)
    return sql`INSERT INTO runs (id, conversation_id, agent_id, trigger_type, state, version, is_playground,
                                 retention_expires_at, created_at, started_at, completed_at, updated_at)
               VALUES (${randomUUID()}, NULL, ${agentId}, 'MESSAGE', ${state}, 1, false,
                       ${new Date(startedAt.getTime() + 365 * 86_400_000)}, ${startedAt}, ${startedAt}, ${completedAt},
                       ${completedAt ?? startedAt})`
  })

/** A PUBLISHED feedback about `agentId` by the demo owner, created at `at`. */
export const insertFeedback = (agentId: string, ratingPpm: number, at: Date, category = "QUALITY") =>
  exec((sql) =>
    sql`INSERT INTO feedback (id, agent_id, author_account_id, rating_ppm, category, title, body, state, authenticity_state,
                              created_at, updated_at)
        VALUES (${randomUUID()}, ${agentId}, ${DemoAccounts.owner.id}, ${ratingPpm}, ${category}, 'Title', 'Body',
                'PUBLISHED', 'UNVERIFIED', ${at}, ${at})`)

/** The demo `account` makes `agentId` a favorite at `at`. */
export const insertFavorite = (account: keyof typeof DemoAccounts, agentId: string, at: Date) =>
  exec((sql) =>
    sql`INSERT INTO favorite_agents (account_id, agent_id, created_at) VALUES (${DemoAccounts[account].id}, ${agentId}, ${at})`)

/**
 * A bounty of acme's in `state`, created at `createdAt`, funded at `fundedAt`, settled at `settledAt`
 * (null: not yet), with one OPEN dispute opened at `disputedAt` when given; its id.
 */
export const insertBounty = (b: {
  readonly state: string
  readonly createdAt: Date
  readonly fundedAt: Date | null
  readonly settledAt?: Date
  readonly disputedAt?: Date
}) =>
  exec((sql) =>
    Effect.gen(function*() {
      const id = randomUUID()
      yield* sql`INSERT INTO bounties (id, workspace_id, title, state, asset_id, escrow_units, escrow_network,
                   escrow_contract_address, escrow_wallet_id, version, created_at, updated_at, funded_at, settled_at)
                 VALUES (${id}, ${DemoWorkspaces.acme.id}, 'Stats bounty', ${b.state}, ${DemoAssets.usdc.id}, 1000000,
                   ${DemoEscrow.network}, ${DemoEscrow.contractAddress}, ${DemoEscrow.walletId}, 3, ${b.createdAt}, ${b.createdAt},
                   ${b.fundedAt}, ${b.settledAt ?? null})`
      if (b.disputedAt !== undefined) {
        yield* sql`INSERT INTO bounty_disputes (id, bounty_id, state, opened_reason, version, created_at, updated_at)
                   VALUES (${randomUUID()}, ${id}, 'OPEN', 'Two pages are missing from the delivery.', 1, ${b.disputedAt}, ${b.disputedAt})`
      }
      return id
    }))

/** A probe of `agentId`'s endpoint at `at`. */
export const insertProbe = (agentId: string, at: Date, ok: boolean) =>
  exec((sql) =>
    sql`INSERT INTO agent_endpoint_probes (id, agent_id, endpoint_kind, url, probed_at, ok, latency_ms, failure_code)
        VALUES (${randomUUID()}, ${agentId}, 'A2A_INTERFACE', 'https://agent.example/a2a', ${at}, ${ok},
                ${ok ? 120 : null}, ${ok ? null : "TIMEOUT"})`)

/** A public activity item of `agentId` at `at`. */
export const insertActivity = (agentId: string, at: Date) =>
  exec((sql) =>
    sql`INSERT INTO agent_activity (id, agent_id, activity_key, event_version, summary, source_kind, occurred_at)
        VALUES (${randomUUID()}, ${agentId}, 'service.published', 1, 'Published an offer', 'DOMAIN_EVENT', ${at})`)

/** A registry-bound identity of `agentId` on `network`, recorded at `at`. */
export const insertBoundIdentity = (agentId: string, network: string, tokenId: string, at: Date) =>
  exec((sql) =>
    sql`INSERT INTO agent_identities (id, agent_id, family, kind, network, scope, native_id, locator, binding, created_at)
        VALUES (${randomUUID()}, ${agentId}, 'EVM', 'REGISTRY_TOKEN', ${network}, '0x8004a6090cd10a7288092483047b097295fb8847',
                ${tokenId}, ${`eip155:8453:0x8004a6090cd10a7288092483047b097295fb8847:${tokenId}`}, 'REGISTRY_BOUND', ${at})`)

/** `agentId` speaks `protocol`. */
export const insertProtocol = (agentId: string, protocol: string) =>
  exec((sql) => sql`INSERT INTO agent_protocols (agent_id, protocol_key) VALUES (${agentId}, ${protocol})`)

/** Rows stored for the directory's `day`. */
export const storedDirectoryRows = (day: string) =>
  exec((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM stats_directory_daily WHERE day = ${day}::date`)
    .pipe(Effect.map(([r]) => r!.n))

/** Rows stored for `agentId`'s `day`. */
export const storedAgentRows = (agentId: string, day: string) =>
  exec((sql) =>
    sql<{ n: number }>`SELECT count(*)::int AS n FROM stats_agent_daily WHERE agent_id = ${agentId} AND day = ${day}::date`)
    .pipe(Effect.map(([r]) => r!.n))
