/**
 * Who may act on an agent's operations (runtime, MCP, conversations, analytics): the
 * ACTIVE members of the workspace that operates the agent (`agents.workspace_id`).
 *
 * The one rule every such operation shares: an agent that does not exist, is operated
 * by no workspace, or whose workspace the caller is not an active member of is
 * **not found** (404 `agent-not-found`; its existence is not revealed). A member whose
 * role does not allow the action gets 403 `role-required`.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AgentNotFound, InvalidState, RoleRequired } from "../../schema/errors.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"

/** Workspace roles (spec §2.12). */
export type WorkspaceRole = "OWNER" | "ADMIN" | "EDITOR" | "OPERATOR" | "ANALYST" | "BILLING" | "VIEWER"

/** The caller's standing on an agent: its workspace role, and whether the agent has a runtime configured. */
export const AgentAccess = Schema.Struct({
  workspaceId: Schema.String,
  role: Schema.String,
  /** The agent's lifecycle state: ACTIVE or RETIRED (Agents_RetireAgent). */
  state: Schema.String,
  runtimeConfigured: Schema.Boolean
})
export type AgentAccess = typeof AgentAccess.Type

/** Whose access to which agent; `roles`: the roles the action needs (`action` words it in the detail). */
export interface AccessInput {
  readonly entityPublicId: string
  readonly accountId: string
  readonly roles?: { readonly allowed: ReadonlyArray<WorkspaceRole>; readonly action: string }
}

/** Agent operator checks. Requires `SqlClient`. */
export class AgentOperators extends Effect.Service<AgentOperators>()("agent-directory/AgentOperators", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = SqlSchema.findOne({
      Request: Schema.Struct({ entityPublicId: Schema.String, accountId: Schema.String }),
      Result: AgentAccess,
      execute: ({ accountId, entityPublicId }) =>
        sql`SELECT a.workspace_id AS "workspaceId", m.role, a.state,
              EXISTS (SELECT 1 FROM agent_runtime_configs c WHERE c.agent_id = a.id) AS "runtimeConfigured"
            FROM agents a
            JOIN workspace_members m ON m.workspace_id = a.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
            WHERE a.id = ${entityPublicId}`
    })

    /**
     * The caller's access to the agent. Fails with `AgentNotFound` when the caller is
     * not an active member of the agent's operating workspace, and with `RoleRequired`
     * when `roles` is given and the caller's role is not
     * in it (`action` completes the problem's detail: "… needs the OWNER or ADMIN role").
     */
    const access = <I extends AccessInput>(
      input: I
    ): Effect.Effect<AgentAccess, AgentNotFound | (I extends { readonly roles: object } ? RoleRequired : never)> =>
      Effect.gen(function*() {
        const found = yield* find(input).pipe(dieOnStorageFailure)
        if (Option.isNone(found)) {
          return yield* new AgentNotFound({ detail: `No agent ${input.entityPublicId} operated by a workspace of yours.` })
        }
        if (input.roles !== undefined) yield* requireRole(found.value, input.roles)
        return found.value
      }) as Effect.Effect<AgentAccess, AgentNotFound | (I extends { readonly roles: object } ? RoleRequired : never)>

    return { access }
  })
}) {}

/**
 * Refuses `access` unless its role is one of `roles.allowed`: fails with `RoleRequired`
 * (403 `role-required`), `roles.action` completing the detail ("… needs the OWNER or
 * ADMIN role"). What {@link AgentOperators} `access` checks when given `roles`, for
 * callers that must check something else (who sees the resource) first.
 */
export const requireRole = (
  access: AgentAccess,
  roles: { readonly allowed: ReadonlyArray<WorkspaceRole>; readonly action: string }
): Effect.Effect<void, RoleRequired> =>
  (roles.allowed as ReadonlyArray<string>).includes(access.role)
    ? Effect.void
    : Effect.fail(new RoleRequired({ detail: `${roles.action} needs the ${roles.allowed.join(", ")} role in the agent's workspace.` }))

/**
 * Refuses a change to a retired agent (Agents_RetireAgent is final): fails with
 * `InvalidState` (409 `invalid-state`) naming what was asked.
 */
export const requireActiveAgent = (access: AgentAccess, action: string): Effect.Effect<void, InvalidState> =>
  access.state === "RETIRED"
    ? Effect.fail(new InvalidState({ detail: `${action} is not possible: the agent is retired.` }))
    : Effect.void
