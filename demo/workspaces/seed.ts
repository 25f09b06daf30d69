/**
 * Demo data of the workspaces area, and its seed step (run by `demo/seed.ts` in the order of
 * `src/areas.ts`).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Redacted } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Auth, tokenHash } from "../../layers/Auth.js"
import { webhookSecretCipher } from "../../src/workspaces/webhooks/Secrets.js"
import { DemoAccounts, DemoApiKeys } from "../accounts/seed.js"
import { demoTime, demoId as id } from "../common.js"

export const DemoWorkspaces = {
  acme: { id: id(2, 1), name: "Acme Agents", slug: "acme-agents", locked: false },
  outsider: { id: id(2, 2), name: "Outsider Lab", slug: "outsider-lab", locked: false },
  locked: { id: id(2, 3), name: "Frozen Holdings", slug: "frozen-holdings", locked: true },
  /** Mel Member's own small team: the demo manifest's member, invitation and ownership examples change it. */
  team: { id: id(2, 4), name: "Mel's Team", slug: "mels-team", locked: false }
} as const

/** Memberships: [workspace, account, role, isWorkspaceOwner, isDefault]. */
export const DemoMemberships = [
  ["acme", "owner", "OWNER", true, true],
  ["acme", "member", "EDITOR", false, true],
  ["acme", "admin", "VIEWER", false, true],
  ["outsider", "outsider", "OWNER", true, true],
  ["locked", "owner", "OWNER", true, false],
  ["team", "member", "OWNER", true, false],
  ["team", "outsider", "EDITOR", false, false]
] as const

export const DemoInvitations = [
  { id: id(3, 1), workspace: "acme", email: "new.hire@example.com", role: "EDITOR", state: "PENDING", days: 10 },
  { id: id(3, 2), workspace: "acme", email: "analyst@example.com", role: "ANALYST", state: "EXPIRED", days: 11 },
  { id: id(3, 3), workspace: "acme", email: null, role: "VIEWER", state: "REVOKED", days: 12 }
] as const

/** The plaintext token of {@link DemoTeamInvitations}' invitation of Ada Admin (its link's `#token=`); stored only hashed. */
export const DemoInvitationToken = "DemoInvitationTokenForAdaAdminToJoinMelsTeam0"

/**
 * PENDING invitations to Mel's Team (invited by Mel Member) with a far expiry: one to an
 * address without an account (revoked by the demo manifest) and one to Ada Admin, with the
 * known token {@link DemoInvitationToken} (accepted by the demo manifest).
 */
export const DemoTeamInvitations = [
  { id: id(3, 4), email: "invitee@example.com", role: "EDITOR", token: null },
  { id: id(3, 5), email: DemoAccounts.admin.email, role: "VIEWER", token: DemoInvitationToken }
] as const

/**
 * Inserts the demo workspaces, memberships and invitations, then the workspaces' demo API keys (issued as `layers/Auth.ts` issues them: stored as verifiers only), inside the seed's transaction. Fails with `SqlError`.
 */
/**
 * Acme's webhook subscriptions (docs/webhooks.md), both DISABLED (their endpoints failed for three
 * days), so the demo sends nothing: one whose secret the demo rotates, one the demo deletes.
 */
export const DemoWebhookSubscriptions = {
  erp: { id: id(0x52, 1), url: "https://erp.acme.example/hooks/agent-directory", kinds: ["order.*", "entitlement.*"] },
  legacy: { id: id(0x52, 2), url: "https://legacy.acme.example/hooks", kinds: ["payment.*"] }
} as const

export const seedWorkspaces = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const auth = yield* Auth
  yield* sql`INSERT INTO workspaces ${
    sql.insert(Object.values(DemoWorkspaces).map((w, i) => ({
      id: w.id,
      name: w.name,
      slug: w.slug,
      state: "ACTIVE",
      locked: w.locked,
      version: 1,
      created_at: demoTime(1 + i),
      updated_at: demoTime(1 + i)
    })))
  }`
  yield* sql`INSERT INTO workspace_members ${
    sql.insert(DemoMemberships.map(([w, a, role, isOwner, isDefault], i) => ({
      workspace_id: DemoWorkspaces[w].id,
      account_id: DemoAccounts[a].id,
      role,
      state: "ACTIVE",
      is_workspace_owner: isOwner,
      is_default: isDefault,
      accepted_at: demoTime(2, i),
      version: 1,
      created_at: demoTime(2, i)
    })))
  }`
  yield* sql`INSERT INTO workspace_invitations ${
    sql.insert(DemoInvitations.map((inv) => ({
      id: inv.id,
      workspace_id: DemoWorkspaces[inv.workspace].id,
      recipient_email: inv.email,
      role: inv.role,
      state: inv.state,
      invited_by: DemoAccounts.owner.id,
      expires_at: demoTime(inv.days + 14),
      revoked_at: inv.state === "REVOKED" ? demoTime(inv.days + 1) : null,
      version: inv.state === "PENDING" ? 1 : 2,
      created_at: demoTime(inv.days)
    })))
  }`
  yield* sql`INSERT INTO workspace_invitations ${
    sql.insert(DemoTeamInvitations.map((inv, i) => ({
      id: inv.id,
      workspace_id: DemoWorkspaces.team.id,
      recipient_email: inv.email,
      role: inv.role,
      state: "PENDING",
      invited_by: DemoAccounts.member.id,
      token_hash: inv.token === null ? null : tokenHash(inv.token),
      expires_at: demoTime(3650),
      version: 1,
      created_at: demoTime(20, i)
    })))
  }`
  for (const [name, k] of Object.entries(DemoApiKeys)) {
    yield* auth.issueApiKey({
      id: k.id,
      workspaceId: DemoWorkspaces.acme.id,
      scopes: k.scopes,
      environment: k.environment,
      state: k.state,
      expiresAt: k.expired ? demoTime(100) : null,
      allowedOrigins: k.allowedOrigins,
      name: `Demo ${name} key`,
      key: k.key
    })
  }
  const config = yield* AppConfig
  const cipher = webhookSecretCipher(config.keys.webhookSecrets)
  for (const [i, w] of Object.values(DemoWebhookSubscriptions).entries()) {
    yield* sql`INSERT INTO webhook_subscriptions (id, workspace_id, url, event_kinds, description, secret_sealed, state,
        disabled_reason, failing_since, created_by, version, created_at, updated_at)
      VALUES (${w.id}, ${DemoWorkspaces.acme.id}, ${w.url}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(w.kinds)}::jsonb)),
        NULL, ${cipher.seal(w.id, Redacted.make(`whsec_${Buffer.alloc(32, i + 1).toString("base64")}`))}, 'DISABLED', 'failing',
        ${demoTime(40)}, ${DemoAccounts.owner.id}, 1, ${demoTime(30, i)}, ${demoTime(43)})`
  }
})
