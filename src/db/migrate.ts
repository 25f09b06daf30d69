/**
 * Versioned migrations (spec-independent infrastructure): the one ordered list of every
 * area's storage, applied in id order and recorded in `effect_sql_migrations`. Runs at
 * start-up and by `npm run db:migrate`.
 *
 * The list is assembled by id from the migrations that span several areas
 * (`src/db/migrations/NNNN_name.ts`: 0001 holds the core tables) and each area's own
 * (`src/<area>/migrations/`, listed by its light `Migrations.ts`, the same record as its
 * Area.ts `migrations`; test/db/Migrations.test.ts checks the two agree). Only those light
 * modules are imported here, so migrating builds none of the areas' HTTP layers.
 */
import { Migrator } from "@effect/sql"
import { Effect } from "effect"
import type { Migrations } from "../Area.js"
import init from "./migrations/0001_init.js"
import keysetIndexes from "./migrations/0002_keyset_indexes.js"
import jobs from "./migrations/0003_jobs.js"
import growthAdmin from "./migrations/0007_growth_admin.js"
import launchProcurementMesh from "./migrations/0008_launch_procurement_mesh.js"
import walletsTrust from "./migrations/0009_wallets_trust.js"
import agentRuntime from "./migrations/0010_agent_runtime.js"
import analytics from "./migrations/0012_analytics.js"
import dropJobQueue from "./migrations/0015_drop_job_queue.js"
import identityProofs from "./migrations/0017_identity_proofs.js"
import mcpConnections from "./migrations/0018_mcp_connections.js"
import reputationEvidence from "./migrations/0026_reputation_evidence.js"
import agentWalletRelations from "./migrations/0029_agent_wallet_relations.js"
import auditEvents from "./migrations/0031_audit_events.js"
import transactionIntents from "./migrations/0036_transaction_intents.js"
import transactionIntentSubmission from "./migrations/0037_transaction_intent_submission.js"
import cardSignaturesToolFindings from "./migrations/0051_card_signatures_tool_findings.js"
import trustSafetyEvidence from "./migrations/0054_trust_safety_evidence.js"
import { migrations as accounts } from "../accounts/Migrations.js"
import { migrations as agents } from "../agents/Migrations.js"
import { migrations as agentImports } from "../agents/imports/Migrations.js"
import { migrations as commerce } from "../commerce/Migrations.js"
import { migrations as ads } from "../growth/ads/Migrations.js"
import { migrations as tokenOperations } from "../growth/tokenOperations/Migrations.js"
import { migrations as launch } from "../launch/Migrations.js"
import { migrations as bounties } from "../jobs/bounties/Migrations.js"
import { migrations as partnerJobs } from "../jobs/partnerJobs/Migrations.js"
import { migrations as mcp } from "../mcp/Migrations.js"
import { migrations as runtime } from "../runtime/Migrations.js"
import { migrations as services } from "../services/Migrations.js"
import { migrations as trust } from "../trust/Migrations.js"
import { migrations as reputation } from "../trust/reputation/Migrations.js"
import { migrations as stats } from "../stats/Migrations.js"
import { migrations as networks } from "../networks/Migrations.js"
import { migrations as registry } from "../registry/Migrations.js"
import { migrations as wallets } from "../wallets/Migrations.js"
import { migrations as workspaces } from "../workspaces/Migrations.js"

/** The migrations that span several areas (or none: the job queue's), by id. */
export const sharedMigrations: Migrations = {
  "0001_init": init,
  "0002_keyset_indexes": keysetIndexes,
  "0003_jobs": jobs,
  "0007_growth_admin": growthAdmin,
  "0008_launch_procurement_mesh": launchProcurementMesh,
  "0009_wallets_trust": walletsTrust,
  "0010_agent_runtime": agentRuntime,
  "0012_analytics": analytics,
  "0015_drop_job_queue": dropJobQueue,
  "0017_identity_proofs": identityProofs,
  "0018_mcp_connections": mcpConnections,
  "0026_reputation_evidence": reputationEvidence,
  "0029_agent_wallet_relations": agentWalletRelations,
  "0031_audit_events": auditEvents,
  "0036_transaction_intents": transactionIntents,
  "0037_transaction_intent_submission": transactionIntentSubmission,
  "0051_card_signatures_tool_findings": cardSignaturesToolFindings,
  "0054_trust_safety_evidence": trustSafetyEvidence
}

/** Every area's own migrations (the areas of `src/areas.ts` that have any), each by id. */
export const areaMigrations: ReadonlyArray<Migrations> = [
  accounts,
  workspaces,
  agents,
  services,
  agentImports,
  commerce,
  ads,
  tokenOperations,
  launch,
  bounties,
  partnerJobs,
  mcp,
  runtime,
  trust,
  reputation,
  stats,
  networks,
  registry,
  wallets
]

/**
 * The one list: every record's migrations by id, or the ids (`NNNN`, the number the
 * migrator orders and records by) that more than one migration claims, with their names.
 */
export const assembleMigrations = (
  records: ReadonlyArray<Migrations>
): { readonly migrations: Migrations; readonly duplicates: ReadonlyArray<string> } => {
  const byNumber = new Map<number, Array<string>>()
  const migrations: Record<string, Migrations[string]> = {}
  for (const record of records) {
    for (const [name, migration] of Object.entries(record)) {
      const id = Number(/^(\d+)_/.exec(name)?.[1] ?? Number.NaN)
      byNumber.set(id, [...(byNumber.get(id) ?? []), name])
      migrations[name] = migration
    }
  }
  const duplicates = [...byNumber.entries()].filter(([, names]) => names.length > 1).map(([, names]) => names.join(", "))
  return { migrations, duplicates }
}

/**
 * Applies every pending migration; returns the ones applied. Fails with `MigrationError`
 * (reason `duplicates` when two migrations claim one id, before any runs) or `SqlError`.
 */
export const migrate = Migrator.make({})({
  loader: Effect.suspend(() => {
    const { duplicates, migrations } = assembleMigrations([sharedMigrations, ...areaMigrations])
    return duplicates.length > 0
      ? Effect.fail(
        new Migrator.MigrationError({ reason: "duplicates", message: `Migration ids claimed twice: ${duplicates.join("; ")}` })
      )
      : Migrator.fromRecord(migrations)
  })
})
