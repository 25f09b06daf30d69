/**
 * Versioned migrations (spec-independent infrastructure): `src/db/migrations/NNNN_name.ts`,
 * the one ordered list of every area's storage (a migration may span areas: 0001 holds the
 * core tables), applied in id order and recorded in `effect_sql_migrations`. Runs at start-up and by
 * `npm run db:migrate`.
 */
import { Migrator } from "@effect/sql"
import init from "./migrations/0001_init.js"
import keysetIndexes from "./migrations/0002_keyset_indexes.js"
import jobs from "./migrations/0003_jobs.js"
import identity from "./migrations/0004_identity.js"
import apiKeyManagement from "./migrations/0005_api_key_management.js"
import growthAdmin from "./migrations/0007_growth_admin.js"
import launchProcurementMesh from "./migrations/0008_launch_procurement_mesh.js"
import walletsTrust from "./migrations/0009_wallets_trust.js"
import agentRuntime from "./migrations/0010_agent_runtime.js"
import conversationRuns from "./migrations/0011_conversation_runs.js"
import analytics from "./migrations/0012_analytics.js"
import agentDirectory from "./migrations/0013_agent_directory.js"
import adCampaigns from "./migrations/0014_ad_campaigns.js"
import dropJobQueue from "./migrations/0015_drop_job_queue.js"
import agentRegistration from "./migrations/0016_agent_registration.js"
import identityProofs from "./migrations/0017_identity_proofs.js"
import mcpConnections from "./migrations/0018_mcp_connections.js"
import mcpOAuth from "./migrations/0019_mcp_oauth.js"
import agentImports from "./migrations/0020_agent_imports.js"
import agentRuns from "./migrations/0021_agent_runs.js"
import agentSchedules from "./migrations/0022_agent_schedules.js"
import conversationReads from "./migrations/0025_conversation_reads.js"
import reputationEvidence from "./migrations/0026_reputation_evidence.js"
import statsDaily from "./migrations/0028_stats_daily.js"
import agentWalletRelations from "./migrations/0029_agent_wallet_relations.js"
import feedbackInteractionAuthenticity from "./migrations/0030_feedback_interaction_authenticity.js"
import agentReputation from "./migrations/0027_agent_reputation.js"

/** Applies every pending migration; returns the ones applied. Fails with `MigrationError | SqlError`. */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord({
    "0001_init": init,
    "0002_keyset_indexes": keysetIndexes,
    "0003_jobs": jobs,
    "0004_identity": identity,
    "0005_api_key_management": apiKeyManagement,
    "0007_growth_admin": growthAdmin,
    "0008_launch_procurement_mesh": launchProcurementMesh,
    "0009_wallets_trust": walletsTrust,
    "0010_agent_runtime": agentRuntime,
    "0011_conversation_runs": conversationRuns,
    "0012_analytics": analytics,
    "0013_agent_directory": agentDirectory,
    "0014_ad_campaigns": adCampaigns,
    "0015_drop_job_queue": dropJobQueue,
    "0016_agent_registration": agentRegistration,
    "0017_identity_proofs": identityProofs,
    "0018_mcp_connections": mcpConnections,
    "0019_mcp_oauth": mcpOAuth,
    "0020_agent_imports": agentImports,
    "0021_agent_runs": agentRuns,
    "0022_agent_schedules": agentSchedules,
    "0025_conversation_reads": conversationReads,
    "0026_reputation_evidence": reputationEvidence,
    "0028_stats_daily": statsDaily,
    "0029_agent_wallet_relations": agentWalletRelations,
    "0030_feedback_interaction_authenticity": feedbackInteractionAuthenticity,
    "0027_agent_reputation": agentReputation
  })
})
