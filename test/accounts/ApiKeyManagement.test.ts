/**
 * API key management (ours; spec §5.3 Creation, Rotation; §5.4.2): create (plaintext
 * once, never on a replay nor in the stored response), list (metadata only), revoke,
 * rotation, roles, recent authentication, origin allowlist validation, lastUsedAt.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { waitFor } from "../support/waitFor.js"

const keysPath = `/api/v1/workspaces/${DemoWorkspaces.acme.id}/api-keys`
const ProtocolsPath = "/api/v1/protocols"

const server = makeTestServer()

layer(server.layer)("API key management", (it) => {
  it.effect("create shows the plaintext once; the replay and the stored record never hold it; the key works", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const idempotencyKey = randomUUID()
      const body = { name: "CI", scopes: ["public:read", "public:read"], allowedOrigins: ["https://App.Example.com"] }
      const created = yield* call("POST", keysPath, { session, body, idempotencyKey })
      expect(created.status, created.text).toBe(201)
      const { apiKey, key, keyDelivery } = created.body.data
      expect(keyDelivery).toBe("SHOWN_ONCE")
      expect(key).toMatch(/^adk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
      expect(apiKey).toMatchObject({
        name: "CI",
        prefix: key.split("_")[1],
        scopes: ["public:read"],
        environment: "development",
        state: "ACTIVE",
        allowedOrigins: ["https://app.example.com"],
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null
      })

      const replay = yield* call("POST", keysPath, { session, body, idempotencyKey })
      expect(replay.status).toBe(201)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.body.data).toEqual({ apiKey, key: null, keyDelivery: "ALREADY_SHOWN" })
      expect(replay.text).not.toContain(key.split("_").slice(2).join("_"))

      // the database holds neither the key nor its secret part anywhere
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ body: string }>`SELECT body::text AS body FROM idempotency_records`
      expect(stored.length).toBeGreaterThan(0)
      for (const row of stored) expect(row.body).not.toContain(key.split("_").slice(2).join("_"))

      const use = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": key } })
      expect(use.status, use.text).toBe(200)
    }))

  it.effect("list shows metadata only; revoke makes the key fail with the one 401; rotation keeps the other key working", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const oldKey = (yield* call("POST", keysPath, { session, body: { name: "old", scopes: ["public:read"] } })).body.data
      const newKey = (yield* call("POST", keysPath, { session, body: { name: "new", scopes: ["public:read"] } })).body.data
      const list = yield* call("GET", keysPath, { session })
      expect(list.status, list.text).toBe(200)
      expect(list.headers["cache-control"]).toBe("private, no-cache")
      const names = list.body.data.map((k: { name: string }) => k.name)
      expect(names.indexOf("new")).toBe(names.indexOf("old") - 1) // newest first
      expect(names).toContain("Demo public key")
      for (const k of list.body.data) {
        expect(Object.keys(k).sort()).toEqual([
          "allowedOrigins", "createdAt", "environment", "expiresAt", "lastUsedAt", "name", "prefix", "publicId", "revokedAt", "scopes", "state"
        ])
      }
      expect(list.text).not.toMatch(/adk_|verifier/)
      expect(list.text).not.toContain(oldKey.key.split("_").slice(2).join("_"))

      const revoked = yield* call("DELETE", `${keysPath}/${oldKey.apiKey.publicId}`, { session })
      expect(revoked.status, revoked.text).toBe(200)
      expect(revoked.body.data).toMatchObject({ publicId: oldKey.apiKey.publicId, state: "REVOKED" })
      expect(revoked.body.data.revokedAt).toMatch(/Z$/)
      const again = yield* call("DELETE", `${keysPath}/${oldKey.apiKey.publicId}`, { session })
      expect(again.body.data).toEqual(revoked.body.data)

      const useOld = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": oldKey.key } })
      const unknown = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": `adk_ffffffffffff_${"Z".repeat(43)}` } })
      expectProblem(useOld, 401, "unauthenticated")
      expect(useOld.body.detail).toBe(unknown.body.detail)
      const useNew = yield* call("GET", ProtocolsPath, { headers: { "x-api-key": newKey.key } })
      expect(useNew.status).toBe(200)

      const missing = yield* call("DELETE", `${keysPath}/${randomUUID()}`, { session })
      expectProblem(missing, 404, "api-key-not-found")
    }))

  it.effect("only an OWNER or ADMIN manages keys; non-members see 404; API keys and anonymous callers 401/403", () =>
    Effect.gen(function*() {
      const editor = yield* signIn("member")
      expectProblem(yield* call("GET", keysPath, { session: editor }), 403, "workspace-role-required")
      expectProblem(yield* call("POST", keysPath, { session: editor, body: { name: "x", scopes: ["public:read"] } }), 403, "workspace-role-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* call("GET", keysPath, { session: outsider }), 404, "workspace-not-found")
      expectProblem(yield* call("GET", keysPath), 401, "unauthenticated")
      expectProblem(yield* call("GET", keysPath, { headers: { "x-api-key": DemoApiKeys.public.key } }), 403, "session-required")
    }))

  it.effect("allowedOrigins entries must be exact origins: 400 names the entry and the rule, never the value", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const bad = ["https://ok.example.com/", "https://*.example.com", "https://user:pw@example.com", "https://a.example.com?q=1",
        "https://a.example.com#f", "ftp://a.example.com", "https://a.example.com/path"]
      for (const entry of bad) {
        const reply = yield* call("POST", keysPath, {
          session,
          body: { name: "x", scopes: ["public:read"], allowedOrigins: ["https://fine.example.com", entry] }
        })
        expectProblem(reply, 400)
        expect(reply.body.errors, entry).toEqual([
          { in: "body", pointer: "/allowedOrigins/1", detail: expect.stringContaining("exact http(s) origin") }
        ])
        expect(reply.text).not.toContain(entry)
      }
      const scope = yield* call("POST", keysPath, { session, body: { name: "x", scopes: ["admin:write"] } })
      expectProblem(scope, 400)
      expect(scope.body.errors[0].pointer).toBe("/scopes/0")
      const past = yield* call("POST", keysPath, { session, body: { name: "x", scopes: ["public:read"], expiresAt: "2020-01-01T00:00:00Z" } })
      expectProblem(past, 400)
      expect(past.body.errors[0].pointer).toBe("/expiresAt")
      expectProblem(yield* call("POST", keysPath, { session, body: { name: "x", scopes: ["public:read"] }, idempotencyKey: null }), 400, "idempotency-key-required")
    }))

  it.effect("an expiring key works until expiresAt, then fails with the one 401", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const expiresAt = new Date(server.clock.unsafeCurrentTimeMillis() + 3_600_000).toISOString()
      const created = yield* call("POST", keysPath, { session, body: { name: "short", scopes: ["public:read"], expiresAt } })
      expect(created.body.data.apiKey.expiresAt).toBe(expiresAt)
      expect((yield* call("GET", ProtocolsPath, { headers: { "x-api-key": created.body.data.key } })).status).toBe(200)
      server.clock.advance(3_600_000)
      expectProblem(yield* call("GET", ProtocolsPath, { headers: { "x-api-key": created.body.data.key } }), 401, "unauthenticated")
    }))

  it.effect("lastUsedAt is written after a use, at most once a minute", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const created = (yield* call("POST", keysPath, { session, body: { name: "usage", scopes: ["public:read"] } })).body.data
      const lastUsed = Effect.gen(function*() {
        const list = yield* call("GET", keysPath, { session })
        return list.body.data.find((k: { publicId: string }) => k.publicId === created.apiKey.publicId).lastUsedAt as string | null
      })
      const written = (expected: string) =>
        waitFor(`lastUsedAt ${expected}`, Effect.tap(lastUsed, (value) => {
          expect(value).toBe(expected)
        }), 1_000, 20)
      const first = new Date(server.clock.unsafeCurrentTimeMillis()).toISOString()
      yield* call("GET", ProtocolsPath, { headers: { "x-api-key": created.key } })
      yield* written(first)
      server.clock.advance(30_000)
      yield* call("GET", ProtocolsPath, { headers: { "x-api-key": created.key } })
      yield* Effect.promise(() => new Promise((r) => setTimeout(r, 100)))
      expect(yield* lastUsed).toBe(first) // within the minute: not written again
      server.clock.advance(31_000)
      const later = new Date(server.clock.unsafeCurrentTimeMillis()).toISOString()
      yield* call("GET", ProtocolsPath, { headers: { "x-api-key": created.key } })
      yield* written(later)
    }))

  it.effect("creating and revoking are sensitive: they need a sign-in within the last 15 minutes", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      server.clock.advance(16 * 60 * 1000)
      expectProblem(yield* call("POST", keysPath, { session, body: { name: "late", scopes: ["public:read"] } }), 403, "reauthentication-required")
      expectProblem(yield* call("DELETE", `${keysPath}/${DemoApiKeys.agentsOnly.id}`, { session }), 403, "reauthentication-required")
      expect((yield* call("GET", keysPath, { session })).status).toBe(200)
    }))
})
