/**
 * Walks the role table (schema/roles.ts): every operation that declares a permission
 * (`operation({ permission })`) is called through the HTTP stack with its demo manifest
 * request (demo/<area>/manifest.ts), its caller holding each of the seven workspace roles in
 * turn (the caller's memberships set to that role in the test's own database). A role that
 * lacks the permission gets 403 `role-required` (`workspace-role-required` for the API key
 * operations); a role that holds it never does. The lacking roles go first, so a holding
 * role's success (a retired agent, a revoked key) cannot change what they are told.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/api/Api.js"
import { operationTable } from "../../src/api/policies.js"
import { can, type Permission, Roles } from "../../schema/roles.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { demoManifest } from "../../demo/manifest.js"
import { call, type CallOptions, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const server = makeTestServer()

const guarded = [...operationTable(Api).byRoute.entries()]
  .filter(([, o]) => o.policy.permission !== undefined)
  .map(([route, o]) => {
    const [method, pattern] = route.split(" ") as ["GET" | "POST" | "DELETE" | "PATCH" | "PUT", string]
    return { id: o.policy.operationId, permission: o.policy.permission as Permission, method, pattern }
  })

/** The 403 causes a role check answers with. */
const roleRefusals = ["role-required", "workspace-role-required"].map((slug) => `https://agent-directory.dev/problems/${slug}`)

layer(server.layer, { timeout: 120_000 })("the role table, walked", (it) => {
  it("every operation declaring a permission has a demo request signed in as a workspace member", () => {
    expect(guarded.length).toBeGreaterThan(20)
    for (const op of guarded) {
      const manifest = demoManifest.operations[op.id]
      expect(manifest, op.id).toBeDefined()
      expect(["owner", "member", "outsider"], op.id).toContain(manifest!.as)
    }
  })

  const sessions = new Map<string, Session>()
  for (const op of guarded) {
    it.effect(`${op.id} (${op.permission}): lacking roles 403 role-required, holding roles not`, () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const failures: Array<string> = []
        const manifest = demoManifest.operations[op.id]!
        const as = manifest.as as "owner" | "member" | "outsider"
        if (!sessions.has(as)) sessions.set(as, yield* signIn(as))
        const session = sessions.get(as)!
        const path = op.pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(manifest.path[name]!))
        const query = new URLSearchParams(Object.entries(manifest.query).map(([k, v]): [string, string] => [k, String(v)]))
          .toString()
        const options: CallOptions = { ...(manifest.body !== null ? { body: manifest.body } : {}), headers: { ...manifest.headers }, session }
        // the walk gives a workspace's owner other roles and others OWNER: the rule that the owner flag goes with
        // the OWNER role (migration 0034) is lifted in this file's database copy; the role checks read only the role
        yield* sql`ALTER TABLE workspace_members DROP CONSTRAINT IF EXISTS workspace_members_owner_role`
        const original = yield* sql<{ workspaceId: string; role: string }>`
          SELECT workspace_id AS "workspaceId", role FROM workspace_members WHERE account_id = ${DemoAccounts[as].id}`
        const restore = Effect.forEach(original, (m) =>
          sql`UPDATE workspace_members SET role = ${m.role}
            WHERE account_id = ${DemoAccounts[as].id} AND workspace_id = ${m.workspaceId}`, { discard: true }).pipe(Effect.orDie)
        const ordered = [...Roles].sort((a, b) => Number(can(a, op.permission)) - Number(can(b, op.permission)))
        yield* Effect.gen(function*() {
          for (const role of ordered) {
            yield* sql`UPDATE workspace_members SET role = ${role} WHERE account_id = ${DemoAccounts[as].id}`
            const reply = yield* call(op.method, query === "" ? path : `${path}?${query}`, options)
            const refused = reply.status === 403 && roleRefusals.includes(reply.body?.type)
            if (can(role, op.permission) ? refused : !refused) {
              failures.push(`${role}: ${reply.status} ${reply.text.slice(0, 200)}`)
            }
          }
        }).pipe(Effect.ensuring(restore))
        expect(failures).toEqual([])
      }), 180_000)
  }
})
