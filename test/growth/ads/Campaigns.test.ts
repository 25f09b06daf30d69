/**
 * Growth_ListAdCampaigns, Growth_CreateAdCampaign and Growth_ListAdminAdCampaigns
 * (GET/POST /api/v1/ads/campaigns, GET /api/v1/admin/ads/campaigns; spec §2.3, §3, §4.2)
 * through the HTTP stack.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { AdCampaign } from "../../../src/growth/ads/Schemas.js"
import { Data } from "../../../schema/envelope.js"
import { DemoAdCampaigns, DemoAdOrders, DemoAdPackageVersions } from "../../../src/growth/ads/demo.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { DemoAgents } from "../../../src/agents/demo.js"
import { DemoOrders } from "../../../src/commerce/demo.js"
import { DemoWorkspaces } from "../../../src/workspaces/demo.js"

const server = makeTestServer()
const path = "/api/v1/ads/campaigns"
const adminPath = "/api/v1/admin/ads/campaigns"
const decodeList = Schema.decodeUnknownSync(Data(Schema.Array(AdCampaign)), { onExcessProperty: "error" })
const decodeOne = Schema.decodeUnknownSync(Data(AdCampaign), { onExcessProperty: "error" })

const campaignKeys = [
  "agentPublicId", "createdAt", "creative", "destinationUrl", "endAt", "id", "metrics", "name", "orderId", "packageName",
  "packageVersionId", "placementKind", "publicId", "startAt", "state", "targets", "updatedAt", "version", "workspaceId"
]

/** A valid create body on the PAID demo ad order (AD_STRIP) and the strip package v2 (30 days). */
const createBody = (change: Record<string, unknown> = {}) => ({
  workspaceId: DemoWorkspaces.acme.id,
  agentPublicId: DemoAgents[0].id,
  orderId: DemoAdOrders.paid.id,
  packageVersionId: DemoAdPackageVersions.stripV2.id,
  name: "Atlas summer sprint",
  destinationUrl: "https://atlas.example/summer",
  startAt: "2026-07-01T00:00:00.000Z",
  headline: "Research while you sleep",
  body: "Atlas reads the sources.",
  targets: [{ dimension: "NETWORK", value: "base" }, { dimension: "COUNTRY", value: "KP", exclude: true }],
  ...change
})

const create = (session: Session | undefined, body: unknown, idempotencyKey?: string) =>
  call("POST", path, { ...(session ? { session } : {}), body, ...(idempotencyKey ? { idempotencyKey } : {}) })

/** A new PAID AD_STRIP order of Acme (a copy of the demo one), for a test that needs an unused order. */
const freshPaidOrder = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const id = randomUUID()
  yield* sql`INSERT INTO orders SELECT ${id}::uuid, ${`ORD-TEST-${id.slice(0, 8)}`}, state, version, workspace_id, agent_id,
      product_code, product_name, network_id, asset_id, subtotal_units, discount_units, total_units, holder_benefit,
      terms_version, policy_version, paid_at, activated_at, expires_at, created_at, updated_at
    FROM orders WHERE id = ${DemoAdOrders.paid.id}`
  return id
})

const countCampaigns = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM ad_campaigns`.pipe(Effect.map(([row]) => row!.n)))

layer(server.layer)("Growth_ListAdCampaigns / Growth_ListAdminAdCampaigns", (it) => {
  it.effect("a member sees the campaigns of their workspaces, newest first, in the wire shape; never another workspace's", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const reply = yield* call("GET", path, { session: member })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
      expectMeta(reply)
      expect(() => decodeList(reply.body)).not.toThrow()
      const acme = Object.values(DemoAdCampaigns).filter((c) => c.workspace === "acme").sort((a, b) => b.day - a.day)
      expect(reply.body.data.map((c: { id: string }) => c.id)).toEqual(acme.map((c) => c.id))
      const active = reply.body.data.find((c: { id: string }) => c.id === DemoAdCampaigns.active.id)
      expect(Object.keys(active).sort()).toEqual(campaignKeys)
      expect(active).toMatchObject({
        publicId: DemoAdCampaigns.active.publicId,
        workspaceId: DemoWorkspaces.acme.id,
        agentPublicId: DemoAgents[0].id,
        orderId: DemoAdOrders.funding.id,
        packageVersionId: DemoAdPackageVersions.stripDecade.id,
        packageName: "Strip ad placement",
        placementKind: "STRIP",
        state: "ACTIVE",
        version: 5,
        startAt: "2026-05-21T00:00:00.000Z",
        endAt: "2036-05-18T00:00:00.000Z",
        metrics: { impressions: "1200", clicks: "37", uniqueVisitors: "800" },
        targets: [{ dimension: "NETWORK", value: "base", exclude: false }, { dimension: "COUNTRY", value: "KP", exclude: true }]
      })
      expect(active.creative).toMatchObject({ id: DemoAdCampaigns.active.creativeId, revision: 1, kind: "TEXT", state: "APPROVED" })
      const paused = reply.body.data.find((c: { id: string }) => c.id === DemoAdCampaigns.paused.id)
      expect(paused.creative).toMatchObject({
        kind: "IMAGE", headline: null, mediaType: "image/png", widthPixels: 300, heightPixels: 250, sizeBytes: "48213"
      })
      expect(reply.text).not.toContain(DemoAdCampaigns.outsider.id)

      const outsider = yield* signIn("outsider")
      const theirs = yield* call("GET", path, { session: outsider })
      expect(theirs.body.data.map((c: { id: string }) => c.id)).toEqual([DemoAdCampaigns.outsider.id])
    }))

  it.effect("the admin list holds every workspace's campaigns; it needs an admin", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const reply = yield* call("GET", adminPath, { session: admin })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(() => decodeList(reply.body)).not.toThrow()
      expect(reply.body.data.map((c: { id: string }) => c.id).sort()).toEqual(Object.values(DemoAdCampaigns).map((c) => c.id).sort())
      expectProblem(yield* call("GET", adminPath, { session: yield* signIn("owner") }), 403, "admin-required")
      expectProblem(yield* call("GET", adminPath), 401, "unauthenticated")
      expectProblem(yield* call("GET", path), 401, "unauthenticated")
    }))
})

layer(server.layer)("Growth_CreateAdCampaign", (it) => {
  it.effect("201: a DRAFT campaign from a paid order, TEXT creative, targets, zero metrics; listed; replayed once per key", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member") // EDITOR
      const key = randomUUID()
      const reply = yield* create(member, createBody(), key)
      expect(reply.status, reply.text).toBe(201)
      expectMeta(reply)
      expect(() => decodeOne(reply.body)).not.toThrow()
      const c = reply.body.data
      expect(Object.keys(c).sort()).toEqual(campaignKeys)
      expect(c).toMatchObject({
        workspaceId: DemoWorkspaces.acme.id,
        agentPublicId: DemoAgents[0].id,
        orderId: DemoAdOrders.paid.id,
        packageVersionId: DemoAdPackageVersions.stripV2.id,
        packageName: "Strip ad placement",
        placementKind: "STRIP",
        name: "Atlas summer sprint",
        destinationUrl: "https://atlas.example/summer",
        state: "DRAFT",
        startAt: "2026-07-01T00:00:00.000Z",
        endAt: "2026-07-31T00:00:00.000Z",
        targets: [{ dimension: "NETWORK", value: "base", exclude: false }, { dimension: "COUNTRY", value: "KP", exclude: true }],
        metrics: { impressions: "0", clicks: "0", uniqueVisitors: "0" },
        version: 1,
        createdAt: TestEpoch.toISOString(),
        updatedAt: TestEpoch.toISOString()
      })
      expect(c.id).not.toBe(c.publicId)
      expect(c.creative).toEqual({
        id: expect.any(String), revision: 1, kind: "TEXT", state: "DRAFT", headline: "Research while you sleep",
        body: "Atlas reads the sources.", storageRef: null, mediaType: null, widthPixels: null, heightPixels: null,
        sizeBytes: null, sha256: null, altText: null
      })
      const before = yield* countCampaigns
      const replay = yield* create(member, createBody(), key)
      expect(replay.status).toBe(201)
      expect(replay.headers["idempotent-replayed"]).toBe("true")
      expect(replay.body.data).toEqual(c)
      expect(yield* countCampaigns).toBe(before)
      const listed = yield* call("GET", path, { session: yield* signIn("owner") })
      expect(listed.body.data[0]).toEqual(c)
      // one order funds one campaign
      expectProblem(yield* create(member, createBody()), 409, "order-in-use")
    }))

  it.effect("the campaign's state follows the order: PAYMENT_OBSERVED → PAYMENT_PENDING; unpaid, foreign or other-package orders → 409", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const observed = yield* create(owner, createBody({
        orderId: DemoAdOrders.observed.id,
        packageVersionId: DemoAdPackageVersions.inline.id,
        agentPublicId: null,
        body: null,
        targets: undefined
      }))
      expect(observed.status, observed.text).toBe(201)
      expect(observed.body.data).toMatchObject({
        state: "PAYMENT_PENDING", agentPublicId: null, placementKind: "INLINE", endAt: "2026-07-15T00:00:00.000Z", targets: []
      })
      expect(observed.body.data.creative.body).toBeNull()
      const before = yield* countCampaigns
      // PAYMENT_PENDING order
      expectProblem(yield* create(owner, createBody({ orderId: DemoAdOrders.unpaid.id })), 409, "order-not-eligible")
      // the ACTIVE order already funds the ACTIVE demo campaign
      expectProblem(yield* create(owner, createBody({ orderId: DemoAdOrders.funding.id })), 409, "order-in-use")
      // an order of another workspace, an unknown order, an order of another product
      const outsiderOrder = DemoOrders.find((o) => o.workspace === "outsider")!
      expectProblem(yield* create(owner, createBody({ orderId: outsiderOrder.id })), 409, "order-not-eligible")
      expectProblem(yield* create(owner, createBody({ orderId: randomUUID() })), 409, "order-not-eligible")
      expectProblem(yield* create(owner, createBody({ orderId: DemoOrders[0].id })), 409, "order-not-eligible")
      expectProblem(
        yield* create(owner, createBody({ packageVersionId: DemoAdPackageVersions.square.id })),
        409,
        "order-not-eligible"
      )
      expect(yield* countCampaigns).toBe(before)
    }))

  it.effect("404 for a workspace not the caller's, an unknown package version, an agent outside the workspace; 403 for a viewer", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const before = yield* countCampaigns
      expectProblem(yield* create(owner, createBody({ workspaceId: DemoWorkspaces.outsider.id })), 404, "workspace-not-found")
      expectProblem(yield* create(owner, createBody({ workspaceId: randomUUID() })), 404, "workspace-not-found")
      expectProblem(yield* create(owner, createBody({ packageVersionId: randomUUID() })), 404, "ad-package-version-not-found")
      expectProblem(yield* create(owner, createBody({ agentPublicId: DemoAgents[2].id })), 404, "agent-not-found")
      expectProblem(yield* create(owner, createBody({ agentPublicId: randomUUID() })), 404, "agent-not-found")
      // the admin account is a VIEWER of Acme
      expectProblem(yield* create(yield* signIn("admin"), createBody()), 403, "role-required")
      expectProblem(yield* create(yield* signIn("outsider"), createBody()), 404, "workspace-not-found")
      expectProblem(yield* create(undefined, createBody()), 401, "unauthenticated")
      expectProblem(yield* call("POST", path, { session: owner, body: createBody(), csrf: null }), 403, "csrf-token-invalid")
      expect(yield* countCampaigns).toBe(before)
    }))

  it.effect("400 for every broken body rule, naming the field and never echoing the value", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const target = (change: Record<string, unknown>) => ({ dimension: "PAGE", value: "home", ...change })
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: "A" }, "/name"],
        [{ name: "x".repeat(161) }, "/name"],
        [{ destinationUrl: "not a url" }, "/destinationUrl"],
        [{ destinationUrl: "javascript:alert(1)" }, "/destinationUrl"],
        [{ destinationUrl: `https://a.example/${"x".repeat(2000)}` }, "/destinationUrl"],
        [{ headline: "H" }, "/headline"],
        [{ headline: "x".repeat(161) }, "/headline"],
        [{ body: "x".repeat(1001) }, "/body"],
        [{ startAt: "2026-07-01" }, "/startAt"],
        [{ workspaceId: "acme" }, "/workspaceId"],
        [{ orderId: undefined }, "/orderId"],
        [{ targets: Array.from({ length: 101 }, () => target({})) }, "/targets"],
        [{ targets: [target({ dimension: "CITY" })] }, "/targets/0/dimension"],
        [{ targets: [target({ value: "" })] }, "/targets/0/value"],
        [{ targets: [target({ value: "v".repeat(201) })] }, "/targets/0/value"],
        [{ targets: [target({ extra: 1 })] }, "/targets/0/extra"],
        [{ extra: true }, "/extra"]
      ]
      for (const [change, pointer] of cases) {
        const reply = yield* create(owner, createBody(change))
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors.map((e: { pointer: string }) => e.pointer), JSON.stringify(change).slice(0, 80)).toContain(pointer)
        expect(reply.text).not.toContain("xxxxxxxxxx")
        expect(reply.text).not.toContain("javascript")
      }
      // exactly 100 targets and the longest values are fine
      const max = yield* create(owner, createBody({
        orderId: yield* freshPaidOrder,
        targets: Array.from({ length: 100 }, (_, i) => target({ value: `p${i}` })),
        name: "n".repeat(160),
        body: "b".repeat(1000)
      }))
      expect(max.status, max.text).toBe(201)
      expect(max.body.data.targets).toHaveLength(100)
      expectProblem(yield* call("POST", path, { session: owner, body: createBody(), idempotencyKey: null }), 400, "idempotency-key-required")
    }))
})
