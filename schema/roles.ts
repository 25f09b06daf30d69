/**
 * What each workspace role may do (spec §2.12 roles; ours where the spec is silent): THE
 * one table every area asks. An operation that acts in a workspace names one permission
 * here; the caller's ACTIVE membership role must hold it, else 403 `role-required`.
 * docs/roles.md shows this table; test/architecture/Roles.test.ts walks it.
 *
 * Reading a workspace, its agents and their public facts needs only membership (every
 * role); what follows are the actions.
 */
import type { WorkspaceRole } from "./workspaces.js"

/** Every role, most to least privileged. */
export const Roles: ReadonlyArray<WorkspaceRole> = ["OWNER", "ADMIN", "EDITOR", "OPERATOR", "ANALYST", "BILLING", "VIEWER"]

const OA = ["OWNER", "ADMIN"] as const
const OAE = ["OWNER", "ADMIN", "EDITOR"] as const
const OAEO = ["OWNER", "ADMIN", "EDITOR", "OPERATOR"] as const

/**
 * Permission → the roles that hold it. Names are `<area>.<action>`; the description is
 * what docs/roles.md says of it.
 */
export const Permissions = {
  "agents.write": { roles: OAE, description: "register, edit, retire agents; manage their identities, wallets and proofs" },
  "agents.import": { roles: OAE, description: "import agents from registries and cards" },
  "runtime.configure": { roles: OAE, description: "configure an agent's runtime (model, tools, prompts)" },
  "runtime.schedules.write": { roles: OAE, description: "create and delete agent schedules" },
  "runtime.converse": { roles: OAEO, description: "start conversations and send messages (start runs)" },
  "runtime.control": { roles: OAEO, description: "approve, cancel and clear runs" },
  "runtime.oversee": { roles: OA, description: "see every member's conversations and runs, not only one's own" },
  "mcp.connect": { roles: OAEO, description: "authorize MCP servers (OAuth) for the workspace's agents" },
  "mcp.connections.write": { roles: OAE, description: "add and remove MCP server connections" },
  "mesh.publish": { roles: OAEO, description: "publish to the agent mesh" },
  "analytics.export": { roles: ["OWNER", "ADMIN", "EDITOR", "OPERATOR", "ANALYST"], description: "export analytics" },
  "services.offers.write": { roles: OAE, description: "create, publish and retire service offers (sell)" },
  "commerce.buy": { roles: ["OWNER", "ADMIN", "BILLING"], description: "place orders and pay (buy)" },
  "commerce.refund": { roles: ["OWNER", "ADMIN", "BILLING"], description: "refund orders of the workspace's offers (sell)" },
  "procurement.manage": { roles: ["OWNER", "ADMIN", "BILLING", "OPERATOR"], description: "manage procurement requests" },
  "bounties.post": { roles: OAE, description: "post, fund, cancel bounties; accept or reject their deliveries; dispute them" },
  "bounties.claim": { roles: OAEO, description: "claim bounties for the workspace's agents, submit deliveries, dispute them" },
  "wallets.register": { roles: OAE, description: "register wallets for the workspace (an address proven by a signed message)" },
  "launch.operate": { roles: OAEO, description: "prepare and run launch runs" },
  "ads.write": { roles: OAE, description: "create and change ad campaigns" },
  "apiKeys.manage": { roles: OA, description: "create, list and revoke the workspace's API keys" },
  "members.manage": { roles: OA, description: "invite, change roles of and remove members (never the owner)" },
  "workspace.update": { roles: OA, description: "rename the workspace, change its slug" },
  "workspace.close": { roles: ["OWNER"], description: "close the workspace" },
  "workspace.transferOwnership": { roles: ["OWNER"], description: "hand the ownership to another member" },
  "audit.read": { roles: OA, description: "read the workspace's audit trail" },
  "webhooks.manage": { roles: OA, description: "subscribe endpoints to the workspace's events, rotate their secrets, read deliveries" }
} as const satisfies Record<string, { readonly roles: ReadonlyArray<WorkspaceRole>; readonly description: string }>

/** A permission name. */
export type Permission = keyof typeof Permissions

/** The roles holding `permission`. */
export const rolesFor = (permission: Permission): ReadonlyArray<WorkspaceRole> => Permissions[permission].roles

/** Whether `role` holds `permission`. */
export const can = (role: string, permission: Permission): boolean =>
  (Permissions[permission].roles as ReadonlyArray<string>).includes(role)

/** "the OWNER, ADMIN or EDITOR role": the roles of `permission` in words, for problem details and docs. */
export const rolesInWords = (permission: Permission): string => {
  const roles = rolesFor(permission)
  return roles.length === 1 ? `the ${roles[0]} role` : `the ${roles.slice(0, -1).join(", ")} or ${roles[roles.length - 1]} role`
}
