/**
 * Workspaces_CloseWorkspace (spec §3 Workspace: ACTIVE → CLOSING → CLOSED): closing revokes
 * every API key of the workspace (a revoked key then gets the one identical 401) and stops
 * every schedule of its agents at once, and the durable engine's workflow makes it CLOSED
 * when the grace period ends on its clock. Sensitive: a stale sign-in is refused.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts, DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { withoutRequestFields } from "../auth/support.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const GraceHours = 168
const server = makeTestServer()
const acme = DemoWorkspaces.acme
const closePath = `/api/v1/workspaces/${acme.id}/close`
const ProtocolsPath = "/api/v1/protocols"

layer(server.layer)("Workspaces_CloseWorkspace", (it) => {
  it.effect("only the OWNER closes, with a recent sign-in; version and state are checked", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member") // EDITOR
      expectProblem(yield* call("POST", closePath, { session: member, body: { expectedVersion: 1 } }), 403, "role-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* call("POST", closePath, { session: outsider, body: { expectedVersion: 1 } }), 404, "workspace-not-found")
      const owner = yield* signIn("owner")
      expectProblem(yield* call("POST", closePath, { session: owner, body: { expectedVersion: 7 } }), 409, "version-conflict")
      expectProblem(yield* call("POST", closePath, { session: owner, body: {} }), 400)
      // a sign-in older than RECENT_AUTH_SECONDS (15 min in tests) is not enough for a sensitive action
      server.clock.advance(16 * 60_000)
      expectProblem(yield* call("POST", closePath, { session: owner, body: { expectedVersion: 1 } }), 403, "reauthentication-required")
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ state: string }>`SELECT state FROM workspaces WHERE id = ${acme.id}`.pipe(Effect.orDie)
      expect(row!.state).toBe("ACTIVE")
    }))

  it.effect("CLOSING at once (keys revoked: the identical 401; schedules stopped), CLOSED after the grace period", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signIn("owner")
      // an enabled schedule of Atlas (operated by Acme)
      const schedule = yield* call("POST", `/api/v1/agents/${DemoRuntimeAgents.configured}/schedules`, {
        session: owner,
        body: { cronExpression: "0 8 * * *", timezone: "UTC", message: "Morning report" }
      })
      expect(schedule.status, schedule.text).toBe(201)
      expect(schedule.body.data.nextOccurrenceAt).not.toBeNull()
      const publicKey = { "x-api-key": DemoApiKeys.public.key }
      expect((yield* call("GET", ProtocolsPath, { headers: publicKey })).status).toBe(200)

      const closed = yield* call("POST", closePath, { session: owner, body: { expectedVersion: 1 } })
      expect(closed.status, closed.text).toBe(200)
      expect(closed.body.data).toMatchObject({ publicId: acme.id, state: "CLOSING", version: 2, role: "OWNER" })

      // every key of the workspace is revoked: the one 401 of an unknown key
      const revoked = yield* call("GET", ProtocolsPath, { headers: publicKey })
      const unknown = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": `adk_ffffffffffff_${"Z".repeat(43)}` } })
      expectProblem(revoked, 401, "unauthenticated")
      expectProblem(unknown, 401, "unauthenticated")
      expect(withoutRequestFields(revoked.body)).toEqual(withoutRequestFields(unknown.body))
      const keys = yield* sql<{ state: string; n: number }>`SELECT state, count(*)::int AS n FROM api_keys
        WHERE workspace_id = ${acme.id} GROUP BY state`.pipe(Effect.orDie)
      expect(keys.map((k) => k.state)).toEqual(["REVOKED"])

      // every schedule of its agents is stopped
      const schedules = yield* call("GET", `/api/v1/agents/${DemoRuntimeAgents.configured}/schedules`, { session: owner })
      expect(schedules.status, schedules.text).toBe(200)
      const mine = schedules.body.data.find((s: { id: string }) => s.id === schedule.body.data.id)
      expect(mine).toMatchObject({ enabled: false, nextOccurrenceAt: null, version: 2 })
      expect(schedules.body.data.every((s: { enabled: boolean }) => !s.enabled)).toBe(true)

      const [closing] = yield* sql<{ actor: string; details: Record<string, unknown> }>`SELECT actor_account_id AS actor, details
        FROM audit_events WHERE workspace_id = ${acme.id} AND action = 'workspace.closing'`.pipe(Effect.orDie)
      expect(closing).toMatchObject({ actor: DemoAccounts.owner.id, details: { keysRevoked: 6, schedulesStopped: 1 } })

      // CLOSING: still readable, no longer changeable, not closable twice
      const read = yield* call("GET", `/api/v1/workspaces/${acme.id}`, { session: owner })
      expect(read.body.data.state).toBe("CLOSING")
      const rename = yield* call("PATCH", `/api/v1/workspaces/${acme.id}`, { session: owner, body: { name: "Late", expectedVersion: 2 } })
      expectProblem(rename, 409, "workspace-not-active")
      expectProblem(yield* call("POST", closePath, { session: owner, body: { expectedVersion: 2 } }), 409, "workspace-not-active")

      // the grace period runs on the engine's durable clock
      const state = Effect.map(sql<{ state: string; version: number }>`SELECT state, version::int AS version
        FROM workspaces WHERE id = ${acme.id}`.pipe(Effect.orDie), ([row]) => row!)
      server.clock.advance(GraceHours * 3_600_000 - 1000)
      yield* Effect.sleep("1500 millis")
      expect((yield* state).state).toBe("CLOSING")
      server.clock.advance(1000)
      const done = yield* waitFor("the workspace to be CLOSED", until(state, (row) => row.state === "CLOSED"), 20_000, 25)
      expect(done).toEqual({ state: "CLOSED", version: 3 })
      const [event] = yield* sql<{ actor: string | null }>`SELECT actor_account_id AS actor FROM audit_events
        WHERE workspace_id = ${acme.id} AND action = 'workspace.closed'`.pipe(Effect.orDie)
      expect(event).toEqual({ actor: null })
      const later = yield* signIn("owner")
      const history = yield* call("GET", `/api/v1/workspaces/${acme.id}`, { session: later })
      expect(history.status, history.text).toBe(200)
      expect(history.body.data).toMatchObject({ state: "CLOSED", version: 3 })
    }))
})
