/**
 * The workspaces area's migrations, by id (see `Migrations` in src/Area.ts): SQL only, no
 * HTTP layers, so `src/db/migrate.ts` imports this module too.
 */
import type { Migrations } from "../Area.js"
import workspaceLifecycle from "./migrations/0033_workspace_lifecycle.js"
import workspaceMembership from "./migrations/0034_workspace_membership.js"
import webhookSubscriptions from "./migrations/0052_webhook_subscriptions.js"

/** The workspaces area's own migrations (the core tables are in src/db/migrations/0001_init.ts). */
export const migrations: Migrations = {
  "0033_workspace_lifecycle": workspaceLifecycle,
  "0034_workspace_membership": workspaceMembership,
  "0052_webhook_subscriptions": webhookSubscriptions
}
