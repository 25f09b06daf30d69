/**
 * Social_CreateMeshPublisher (spec §2.7, §4.3, §7, §8): POST /api/v1/mesh/publishers.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, generateKeyPairSync } from "node:crypto"
import { DemoMeshKeys, DemoMeshPublishers, seedMesh } from "../../../demo/social/mesh/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, type Reply, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"

const create = (body: unknown, options: CallOptions = {}) => call("POST", "/api/v1/mesh/publishers", { body, ...options })

/** A fresh Ed25519 public key, padded base64 of its 32 raw bytes. */
const freshKey = () =>
  generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(12).toString("base64")

const valid = (over: Record<string, unknown> = {}) => ({
  workspaceId: DemoWorkspaces.acme.id,
  entityPublicId: DemoAgents[0].id,
  algorithm: "Ed25519",
  publicKeyBase64: freshKey(),
  allowedSignalTypes: ["research.report.published", "0x.a-b.c"],
  ratePolicy: { perMinute: 120, burst: 20 },
  ...over
})

const countPublishers = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM mesh_publishers`)[0]!.n
}).pipe(Effect.orDie)

const restore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM mesh_publishers`
  yield* sql`DELETE FROM mesh_publisher_quotas`
  yield* seedMesh
}).pipe(Effect.orDie)

const expectInvalidBody = (reply: Reply, pointer: string) => {
  expectProblem(reply, 400, "invalid-request")
  const entry = reply.body.errors.find((e: { pointer: string }) => e.pointer === pointer)
  expect(entry, reply.text).toMatchObject({ in: "body" })
}

const server = makeTestServer()

layer(server.layer)("Social_CreateMeshPublisher", (it) => {
  it.effect("201: a PENDING publisher with a new key id and the key's SHA-256 fingerprint", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      const body = valid({ publicKeyBase64: DemoMeshKeys.fresh })
      const reply = yield* create(body, { session: owner })
      expect(reply.status, reply.text).toBe(201)
      expectMeta(reply)
      const data = reply.body.data
      expect(Object.keys(data).sort()).toEqual([
        "allowedSignalTypes", "createdAt", "entityPublicId", "id", "publicKeyFingerprint", "publicKeyId", "ratePolicy", "state", "workspaceId"
      ])
      expect(data).toMatchObject({
        workspaceId: DemoWorkspaces.acme.id,
        entityPublicId: DemoAgents[0].id,
        state: "PENDING",
        allowedSignalTypes: body.allowedSignalTypes,
        ratePolicy: { perMinute: 120, burst: 20 },
        createdAt: TestEpoch.toISOString()
      })
      expect(data.publicKeyId).not.toBe(data.id)
      expect(data.publicKeyFingerprint).toBe(createHash("sha256").update(Buffer.from(DemoMeshKeys.fresh, "base64")).digest("base64url"))
      // without entityPublicId, for an EDITOR
      const member = yield* signIn("member")
      const { entityPublicId: _, ...noEntity } = valid()
      const second = yield* create(noEntity, { session: member })
      expect(second.status, second.text).toBe(201)
      expect(second.body.data.entityPublicId).toBeNull()
    }))

  it.effect("409 public-key-registered for a key any publisher holds (even a REVOKED one, or another workspace's)", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      const before = yield* countPublishers
      for (const p of [DemoMeshPublishers.active, DemoMeshPublishers.revoked, DemoMeshPublishers.outsider]) {
        expectProblem(yield* create(valid({ publicKeyBase64: p.publicKeyBase64 }), { session: owner }), 409, "public-key-registered")
      }
      expect(yield* countPublishers).toBe(before)
    }))

  it.effect("409 publisher-quota-exceeded for a workspace at its quota; REVOKED publishers do not count", () =>
    Effect.gen(function*() {
      yield* restore
      const outsider = yield* signIn("outsider")
      const body = valid({ workspaceId: DemoWorkspaces.outsider.id, entityPublicId: undefined })
      const { entityPublicId: _, ...withoutEntity } = body
      expectProblem(yield* create(withoutEntity, { session: outsider }), 409, "publisher-quota-exceeded")
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE mesh_publishers SET state = 'REVOKED' WHERE id = ${DemoMeshPublishers.outsider.id}`.pipe(Effect.orDie)
      const after = yield* create(withoutEntity, { session: outsider })
      expect(after.status, after.text).toBe(201)
    }))

  it.effect("404 workspace-not-found for another's workspace or an unknown one; 404 agent-not-found for an agent outside the workspace", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      expectProblem(yield* create(valid({ workspaceId: DemoWorkspaces.outsider.id }), { session: owner }), 404, "workspace-not-found")
      expectProblem(yield* create(valid({ workspaceId: "01900002-0000-7000-8000-0000000000ff" }), { session: owner }), 404, "workspace-not-found")
      expectProblem(yield* create(valid({ entityPublicId: DemoAgents[1].id }), { session: owner }), 404, "agent-not-found")
    }))

  it.effect("403 role-required for a VIEWER; 401 without a session", () =>
    Effect.gen(function*() {
      yield* restore
      const before = yield* countPublishers
      expectProblem(yield* create(valid(), { session: yield* signIn("admin") }), 403, "role-required")
      expectProblem(yield* create(valid()), 401, "unauthenticated")
      expect(yield* countPublishers).toBe(before)
    }))

  it.effect("400 for a key that is not padded base64 of a valid 32-byte Ed25519 public key", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      const good = freshKey()
      const bad = [
        good.replace(/=$/, ""), // unpadded
        ` ${good}`, // whitespace
        Buffer.alloc(16, 1).toString("base64"), // 16 bytes
        Buffer.alloc(33, 1).toString("base64"), // 33 bytes
        Buffer.alloc(32, 0xff).toString("base64"), // y >= p: not a point
        Buffer.concat([Buffer.from([2]), Buffer.alloc(31, 0)]).toString("base64"), // y = 2: no x on the curve
        Buffer.concat([Buffer.from([1]), Buffer.alloc(31, 0)]).toString("base64") // the identity: small order
      ]
      for (const publicKeyBase64 of bad) {
        const reply = yield* create(valid({ publicKeyBase64 }), { session: owner })
        expectInvalidBody(reply, "/publicKeyBase64")
        expect(reply.text).not.toContain(publicKeyBase64.trim())
      }
    }))

  it.effect("400 for the other body rules: algorithm, signal types, rate policy, unknown keys, missing fields", () =>
    Effect.gen(function*() {
      yield* restore
      const owner = yield* signIn("owner")
      const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{ algorithm: "RSA" }, "/algorithm"],
        [{ allowedSignalTypes: [] }, "/allowedSignalTypes"],
        [{ allowedSignalTypes: Array.from({ length: 101 }, (_, i) => `a.s${i}`) }, "/allowedSignalTypes"],
        [{ allowedSignalTypes: ["single"] }, "/allowedSignalTypes/0"],
        [{ allowedSignalTypes: ["a.ok", "Upper.case"] }, "/allowedSignalTypes/1"],
        [{ allowedSignalTypes: ["a-b.c"] }, "/allowedSignalTypes/0"],
        [{ allowedSignalTypes: ["a..b"] }, "/allowedSignalTypes/0"],
        [{ allowedSignalTypes: [`a.${"b".repeat(199)}`] }, "/allowedSignalTypes/0"],
        [{ ratePolicy: { perMinute: 0, burst: 1 } }, "/ratePolicy/perMinute"],
        [{ ratePolicy: { perMinute: 1, burst: 10001 } }, "/ratePolicy/burst"],
        [{ ratePolicy: { perMinute: 1 } }, "/ratePolicy/burst"],
        [{ ratePolicy: { perMinute: 1, burst: 1, extra: 1 } }, "/ratePolicy/extra"],
        [{ extra: true }, "/extra"],
        [{ workspaceId: undefined }, "/workspaceId"],
        [{ entityPublicId: null }, "/entityPublicId"]
      ]
      const before = yield* countPublishers
      for (const [over, pointer] of cases) {
        expectInvalidBody(yield* create(valid(over), { session: owner }), pointer)
      }
      // at the limits: 100 types of 200 characters, rates 1 and 10000
      const edge = yield* create(valid({
        allowedSignalTypes: Array.from({ length: 100 }, (_, i) => `a.${String(i).padStart(198, "x")}`),
        ratePolicy: { perMinute: 10000, burst: 1 }
      }), { session: owner })
      expect(edge.status, edge.text).toBe(201)
      expect(yield* countPublishers).toBe(before + 1)
    }))
})

const budgetServer = makeTestServer({
  budgets: { ...testConfig().budgets, session: { limit: 4, windowSeconds: 60 } }
})

layer(budgetServer.layer)("Social_CreateMeshPublisher: request budget", (it) => {
  it.effect("429 rate-limited with Retry-After once the session's budget is spent; nothing is created", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const replies: Array<Reply> = []
      for (let i = 0; i < 5; i++) replies.push(yield* create(valid(), { session: owner }))
      const created = replies.filter((r) => r.status === 201).length
      expect(created).toBeGreaterThan(0)
      const refused = replies[replies.length - 1]!
      expectProblem(refused, 429, "rate-limited")
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
      expect(yield* countPublishers).toBe(Object.keys(DemoMeshPublishers).length + created)
    }))
})
