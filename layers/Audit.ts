/**
 * The audit trail (spec §5.2 sensitive actions): one row per sensitive action in
 * `audit_events`, written by the action's own transaction (an action that rolls back
 * leaves no event) with its actor, action, target, time, client address and request id.
 * Never a secret: `details` holds identifiers, roles and states only.
 *
 * Actions are dotted names, `<subject>.<verb>`: `api_key.created`, `member.role_changed`,
 * `workspace.ownership_transferred`, `mfa.totp_enabled`, …
 * Workspaces_ListAuditEvents reads a workspace's events; account-level events (MFA,
 * sign-up) have no workspace and are kept for operators. docs/audit.md is the reference:
 * what is recorded, what never is, who may read it.
 */
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { now } from "./Clock.js"
import { Ids } from "./Ids.js"
import { currentRequest } from "./RequestContext.js"

/** One sensitive action, as its caller describes it. */
export interface AuditEntry {
  /** The workspace the action concerns; null for an account-level action (MFA, password). */
  readonly workspaceId: string | null
  /** The account that acted; null for the platform itself (an expiry, a grace period ending). */
  readonly actorAccountId: string | null
  /** `<subject>.<verb>`, e.g. `member.removed`. */
  readonly action: string
  /** What was acted on: its kind (`api_key`, `member`, `workspace`, `invitation`, `account`) and id. */
  readonly target: { readonly type: string; readonly id: string }
  /** Non-secret facts of the action (roles before and after, states); never a token, key or password. */
  readonly details?: Readonly<Record<string, string | number | boolean | null>>
}

/** The audit writer. */
export interface AuditShape {
  /**
   * Records `entry` with the current time, request id and client address, in the
   * caller's transaction (use inside `sql.withTransaction`). A storage failure is a defect.
   */
  readonly record: (entry: AuditEntry) => Effect.Effect<void>
}

/** The audit writer's tag. */
export class Audit extends Context.Tag("agent-directory/Audit")<Audit, AuditShape>() {}

/** Audit on the database. Requires `SqlClient`, `Ids`. */
export const AuditLive = Layer.effect(
  Audit,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    return {
      record: (entry) =>
        Effect.gen(function*() {
          const request = yield* currentRequest
          const nilRequest = /^0{8}-/.test(request.requestId)
          yield* sql`INSERT INTO audit_events ${
            sql.insert({
              id: yield* ids.next,
              workspace_id: entry.workspaceId,
              actor_account_id: entry.actorAccountId,
              action: entry.action,
              target_type: entry.target.type,
              target_id: entry.target.id,
              details: JSON.stringify(entry.details ?? {}),
              client_address: request.clientAddress === "" ? null : request.clientAddress,
              request_id: nilRequest ? null : request.requestId,
              created_at: yield* now
            })
          }`
        }).pipe(Effect.orDie)
    } satisfies AuditShape
  })
)
