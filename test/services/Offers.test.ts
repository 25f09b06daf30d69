/**
 * Service offers written through the API (spec §2.5, §3, §4.3): Services_CreateServiceOffer,
 * Services_UpdateServiceOffer, Services_SetOfferPrices, Services_CreateTermsRevision,
 * Services_PublishServiceOffer, Services_PauseServiceOffer, Services_RetireServiceOffer,
 * Services_GetServiceOffer and Services_ListAgentOffers.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { call, expectMeta, expectProblem, type Reply, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { DemoOffers } from "../../demo/services/seed.js"

const beacon = DemoAgents[1] // operated by Acme, no service yet
const cobalt = DemoAgents[2] // operated by the outsider's workspace
const atlas = DemoAgents[0] // Acme's, with the demo offers

const offerPath = (id: string) => `/api/v1/offers/${id}`

/** Asserts a 400 whose `errors` has an entry at `pointer` (body). */
const expectInvalid = (reply: Reply, pointer: string) => {
  expectProblem(reply, 400, "invalid-request")
  const entry = reply.body.errors.find((e: { pointer: string }) => e.pointer === pointer)
  expect(entry, reply.text).toBeDefined()
  expect(entry.in).toBe("body")
  expect(typeof entry.detail).toBe("string")
}

const createBody = (overrides: Record<string, unknown> = {}) => ({
  agentId: beacon.id,
  title: "Uptime watch",
  slug: "uptime-watch",
  description: "Watches an endpoint every minute.",
  pricingModel: "SUBSCRIPTION",
  termsMarkdown: "# Terms\n\nBest effort.",
  ...overrides
})

const create = (session: Session, body: unknown = createBody()) => call("POST", "/api/v1/offers", { session, body })

const expectOfferShape = (data: any) => {
  expect(Object.keys(data).sort()).toEqual([
    "description",
    "fulfillment",
    "fulfillmentPolicyVersion",
    "id",
    "prices",
    "pricingModel",
    "publishedAt",
    "serviceId",
    "slug",
    "state",
    "termsRevision",
    "title",
    "version"
  ])
}

const server = makeTestServer()

layer(server.layer)("service offers: the life of an offer", (it) => {
  it.effect("create → prices → terms → publish → get → list → pause → retire", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      // create: 201, DRAFT, version 1, terms revision 1, no price, Location
      const created = yield* create(owner)
      expect(created.status, created.text).toBe(201)
      expectMeta(created)
      const offer = created.body.data
      expectOfferShape(offer)
      expect(created.headers["location"]).toBe(offerPath(offer.id))
      expect(offer).toMatchObject({
        state: "DRAFT",
        version: 1,
        title: "Uptime watch",
        slug: "uptime-watch",
        pricingModel: "SUBSCRIPTION",
        fulfillmentPolicyVersion: 1,
        publishedAt: null,
        prices: []
      })
      expect(offer.termsRevision).toMatchObject({ revision: 1, termsMarkdown: "# Terms\n\nBest effort.", createdAt: TestEpoch.toISOString() })
      // the agent's service was created with it, in the agent's workspace
      const sql = yield* SqlClient.SqlClient
      const services = yield* sql<{ id: string; name: string }>`SELECT id, name FROM services WHERE agent_id = ${beacon.id}`
      expect(services).toEqual([{ id: offer.serviceId, name: beacon.name }])

      // the draft is not public: anonymous 404, a member reads it
      expectProblem(yield* call("GET", offerPath(offer.id)), 404, "offer-not-found")
      const draft = yield* call("GET", offerPath(offer.id), { session: owner })
      expect(draft.status, draft.text).toBe(200)
      expect(draft.body.data).toEqual(offer)

      // publishing without a price: 409 offer-incomplete
      const early = yield* call("POST", `${offerPath(offer.id)}/publish`, { session: owner, body: { version: 1 } })
      expectProblem(early, 409, "offer-incomplete")

      // prices: an X402 price on Base (default template) and an off-chain price
      const priced = yield* call("PUT", `${offerPath(offer.id)}/prices`, {
        session: owner,
        body: {
          version: 1,
          prices: [
            { networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "2500000", x402: true },
            { networkPublicId: null, assetPublicId: DemoAssets.sol.id, units: "1000000000" }
          ]
        }
      })
      expect(priced.status, priced.text).toBe(200)
      expect(priced.body.data.version).toBe(2)
      expect(priced.body.data.prices).toHaveLength(2)
      const x402 = priced.body.data.prices.find((p: any) => p.assetPublicId === DemoAssets.usdc.id)
      expect(x402).toMatchObject({
        version: 1,
        networkPublicId: DemoNetworks.base.id,
        units: "2500000",
        effectiveFrom: TestEpoch.toISOString(),
        effectiveUntil: null,
        x402ResourceTemplate: "/api/v1/x402/offers/{offerId}/purchase"
      })
      const offChain = priced.body.data.prices.find((p: any) => p.assetPublicId === DemoAssets.sol.id)
      expect(offChain).toMatchObject({ networkPublicId: null, units: "1000000000", x402ResourceTemplate: null })

      // terms: revision 2, version 3
      const terms = yield* call("POST", `${offerPath(offer.id)}/terms`, {
        session: owner,
        body: { version: 2, termsMarkdown: "# Terms v2\n\nRefunds within 14 days." }
      })
      expect(terms.status, terms.text).toBe(201)
      expect(terms.body.data.version).toBe(3)
      expect(terms.body.data.termsRevision).toMatchObject({ revision: 2, termsMarkdown: "# Terms v2\n\nRefunds within 14 days." })
      const revisions = yield* sql<{ revision: number }>`SELECT revision FROM service_offer_terms WHERE offer_id = ${offer.id} ORDER BY revision`
      expect(revisions.map((r) => r.revision)).toEqual([1, 2])

      // publish
      const published = yield* call("POST", `${offerPath(offer.id)}/publish`, { session: owner, body: { version: 3 } })
      expect(published.status, published.text).toBe(200)
      expect(published.body.data).toMatchObject({ state: "PUBLISHED", version: 4, publishedAt: TestEpoch.toISOString() })

      // get: anonymous and API key read it now
      const anonymous = yield* call("GET", offerPath(offer.id))
      expect(anonymous.status, anonymous.text).toBe(200)
      expect(anonymous.body.data).toEqual(published.body.data)
      const withKey = yield* call("GET", offerPath(offer.id), { headers: { "x-api-key": DemoApiKeys.public.key } })
      expect(withKey.status, withKey.text).toBe(200)

      // list the agent's offers: this one, with its current prices
      const listed = yield* call("GET", `/api/v1/agents/${beacon.id}/offers`)
      expect(listed.status, listed.text).toBe(200)
      expect(Object.keys(listed.body).sort()).toEqual(["data", "meta", "nextCursor"])
      expect(listed.body.nextCursor).toBeNull()
      expect(listed.body.data).toEqual([published.body.data])
      // and the agent's profile shows it
      const profile = yield* call("GET", `/api/v1/agents/${beacon.id}`)
      expect(profile.body.data.offers.map((o: any) => o.id)).toEqual([offer.id])

      // pause: out of the public list, still readable by members; anonymous 404
      const paused = yield* call("POST", `${offerPath(offer.id)}/pause`, { session: owner, body: { version: 4 } })
      expect(paused.status, paused.text).toBe(200)
      expect(paused.body.data).toMatchObject({ state: "PAUSED", version: 5 })
      expect((yield* call("GET", `/api/v1/agents/${beacon.id}/offers`)).body.data).toEqual([])
      expectProblem(yield* call("GET", offerPath(offer.id)), 404, "offer-not-found")
      expect((yield* call("GET", offerPath(offer.id), { session: owner })).body.data.state).toBe("PAUSED")
      // pausing a PAUSED offer is an invalid state
      expectProblem(yield* call("POST", `${offerPath(offer.id)}/pause`, { session: owner, body: { version: 5 } }), 409, "invalid-state")

      // retire: final
      const retired = yield* call("POST", `${offerPath(offer.id)}/retire`, { session: owner, body: { version: 5 } })
      expect(retired.status, retired.text).toBe(200)
      expect(retired.body.data).toMatchObject({ state: "RETIRED", version: 6 })
      expectProblem(yield* call("POST", `${offerPath(offer.id)}/publish`, { session: owner, body: { version: 6 } }), 409, "invalid-state")
      expectProblem(
        yield* call("PATCH", offerPath(offer.id), { session: owner, body: { version: 6, title: "Again" } }),
        409,
        "invalid-state"
      )
      expectProblem(yield* call("POST", `${offerPath(offer.id)}/retire`, { session: owner, body: { version: 6 } }), 409, "invalid-state")
    }))

  it.effect("a new price set bumps the price version and closes the previous windows; rows are never rewritten", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = yield* create(owner, createBody({ slug: "price-history" }))
      expect(created.status, created.text).toBe(201)
      const id = created.body.data.id
      const first = yield* call("PUT", `${offerPath(id)}/prices`, {
        session: owner,
        body: { version: 1, prices: [{ networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "100" }] }
      })
      expect(first.status, first.text).toBe(200)
      const old = first.body.data.prices[0]
      // a second set from a day later, with a custom x402 template
      const dayLater = new Date(TestEpoch.getTime() + 86_400_000).toISOString()
      const second = yield* call("PUT", `${offerPath(id)}/prices`, {
        session: owner,
        body: {
          version: 2,
          effectiveFrom: dayLater,
          prices: [{
            networkPublicId: DemoNetworks.base.id,
            assetPublicId: DemoAssets.usdc.id,
            units: "200",
            x402ResourceTemplate: "https://pay.example/offers/{offerId}"
          }]
        }
      })
      expect(second.status, second.text).toBe(200)
      expect(second.body.data.version).toBe(3)
      const prices = second.body.data.prices
      expect(prices).toHaveLength(2)
      // the first row: same id, units and start; its window now ends where the new set starts
      expect(prices[0]).toEqual({ ...old, effectiveUntil: dayLater })
      expect(prices[1]).toMatchObject({
        version: 2,
        units: "200",
        effectiveFrom: dayLater,
        effectiveUntil: null,
        x402ResourceTemplate: "https://pay.example/offers/{offerId}"
      })
      // a third set now replaces the future one: the future row gets an empty window
      const third = yield* call("PUT", `${offerPath(id)}/prices`, {
        session: owner,
        body: { version: 3, prices: [{ networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "150" }] }
      })
      expect(third.status, third.text).toBe(200)
      const rows = third.body.data.prices
      expect(rows.map((p: any) => [p.version, p.units])).toEqual([[1, "100"], [3, "150"], [2, "200"]])
      expect(rows.find((p: any) => p.version === 1).effectiveUntil).toBe(TestEpoch.toISOString())
      const future = rows.find((p: any) => p.version === 2)
      expect(future.effectiveUntil).toBe(future.effectiveFrom)
      // publish and list: only the price in effect now
      const published = yield* call("POST", `${offerPath(id)}/publish`, { session: owner, body: { version: 4 } })
      expect(published.status, published.text).toBe(200)
      const listed = yield* call("GET", `/api/v1/agents/${beacon.id}/offers`)
      const mine = listed.body.data.find((o: any) => o.id === id)
      expect(mine.prices.map((p: any) => p.units)).toEqual(["150"])
    }))

  it.effect("update changes the given fields; a slug of another offer of the agent is 409 offer-slug-taken", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member") // EDITOR of Acme
      const created = yield* create(member, createBody({ slug: "first-offer" }))
      expect(created.status, created.text).toBe(201)
      const other = yield* create(member, createBody({ slug: "second-offer" }))
      expect(other.status, other.text).toBe(201)
      // a taken slug at creation
      const dup = yield* create(member, createBody({ slug: "first-offer" }))
      expectProblem(dup, 409, "offer-slug-taken")
      expect(dup.body.errors).toEqual([{ in: "body", pointer: "/slug", detail: expect.any(String) }])
      // the same slug on another agent is fine
      const elsewhere = yield* create(member, createBody({ agentId: atlas.id, slug: "first-offer" }))
      expect(elsewhere.status, elsewhere.text).toBe(201)
      const id = created.body.data.id
      const updated = yield* call("PATCH", offerPath(id), {
        session: member,
        body: { version: 1, title: "First offer, renamed", pricingModel: "FIXED" }
      })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.body.data).toMatchObject({ version: 2, title: "First offer, renamed", pricingModel: "FIXED", slug: "first-offer" })
      const taken = yield* call("PATCH", offerPath(id), { session: member, body: { version: 2, slug: "second-offer" } })
      expectProblem(taken, 409, "offer-slug-taken")
      // its own slug is not taken
      const same = yield* call("PATCH", offerPath(id), { session: member, body: { version: 2, slug: "first-offer" } })
      expect(same.status, same.text).toBe(200)
      expect(same.body.data.version).toBe(3)
      // nothing to change
      expectInvalid(yield* call("PATCH", offerPath(id), { session: member, body: { version: 3 } }), "")
    }))

  it.effect("version conflicts: a stale version is 409 version-conflict naming the current version, nothing changes", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const created = yield* create(owner, createBody({ slug: "conflicts" }))
      const id = created.body.data.id
      expect((yield* call("PATCH", offerPath(id), { session: owner, body: { version: 1, title: "v2" } })).status).toBe(200)
      for (
        const [method, suffix, body] of [
          ["PATCH", "", { version: 1, title: "stale" }],
          ["PUT", "/prices", { version: 1, prices: [{ networkPublicId: null, assetPublicId: DemoAssets.usdc.id, units: "1" }] }],
          ["POST", "/terms", { version: 1, termsMarkdown: "stale" }],
          ["POST", "/publish", { version: 1 }],
          ["POST", "/retire", { version: 3 }]
        ] as const
      ) {
        const reply = yield* call(method, `${offerPath(id)}${suffix}`, { session: owner, body })
        expectProblem(reply, 409, "version-conflict")
        expect(reply.body.detail).toMatch(/\bversion 2\b/)
      }
      const now = yield* call("GET", offerPath(id), { session: owner })
      expect(now.body.data).toMatchObject({ version: 2, title: "v2", state: "DRAFT", prices: [] })
      expect(now.body.data.termsRevision.revision).toBe(1)
    }))

  it.effect("visibility and roles: a non-member gets 404, a VIEWER 403, anonymous 401", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const viewer = yield* signIn("admin") // VIEWER of Acme
      // creating for an agent of another workspace: 404 agent-not-found; for an unknown agent too
      expectProblem(yield* create(outsider, createBody({ slug: "not-mine" })), 404, "agent-not-found")
      expectProblem(yield* create(outsider, createBody({ agentId: randomUUID(), slug: "nobody" })), 404, "agent-not-found")
      expectProblem(yield* create(viewer, createBody({ slug: "viewer" })), 403, "role-required")
      expectProblem(yield* call("POST", "/api/v1/offers", { body: createBody({ slug: "anon" }) }), 401, "unauthenticated")
      // the outsider sells Cobalt
      const own = yield* create(outsider, createBody({ agentId: cobalt.id, slug: "cobalt-trades" }))
      expect(own.status, own.text).toBe(201)
      const id = own.body.data.id
      // Acme's owner cannot see or change the outsider's draft
      const owner = yield* signIn("owner")
      expectProblem(yield* call("GET", offerPath(id), { session: owner }), 404, "offer-not-found")
      for (
        const [method, suffix, body] of [
          ["PATCH", "", { version: 1, title: "mine now" }],
          ["PUT", "/prices", { version: 1, prices: [{ networkPublicId: null, assetPublicId: DemoAssets.usdc.id, units: "1" }] }],
          ["POST", "/terms", { version: 1, termsMarkdown: "mine" }],
          ["POST", "/pause", { version: 1 }],
          ["POST", "/retire", { version: 1 }]
        ] as const
      ) {
        expectProblem(yield* call(method, `${offerPath(id)}${suffix}`, { session: owner, body }), 404, "offer-not-found")
      }
      // a VIEWER of Acme reads Acme's drafts but cannot change them
      const draft = DemoOffers.spare.id
      expect((yield* call("GET", offerPath(draft), { session: viewer })).status).toBe(200)
      expectProblem(yield* call("PATCH", offerPath(draft), { session: viewer, body: { version: 1, title: "x" } }), 403, "role-required")
      expectProblem(yield* call("POST", `${offerPath(draft)}/retire`, { session: viewer, body: { version: 1 } }), 403, "role-required")
      // unknown offer
      expectProblem(yield* call("GET", offerPath(randomUUID())), 404, "offer-not-found")
      expectProblem(yield* call("PATCH", offerPath(randomUUID()), { session: owner, body: { version: 1, title: "x" } }), 404, "offer-not-found")
    }))

  it.effect("validation problems name the field and the rule, never the value", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectInvalid(yield* create(owner, createBody({ slug: "Bad Slug" })), "/slug")
      expectInvalid(yield* create(owner, createBody({ title: "   " })), "/title")
      expectInvalid(yield* create(owner, createBody({ pricingModel: "FREE" })), "/pricingModel")
      expectInvalid(yield* create(owner, createBody({ termsMarkdown: "" })), "/termsMarkdown")
      expectInvalid(yield* create(owner, createBody({ agentId: "nope" })), "/agentId")
      expectInvalid(yield* create(owner, { ...createBody(), extra: 1 }), "/extra")
      const created = yield* create(owner, createBody({ slug: "validated" }))
      const id = created.body.data.id
      const prices = (body: unknown) => call("PUT", `${offerPath(id)}/prices`, { session: owner, body })
      const usdc = { networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "1" }
      const bad = yield* prices({ version: 1, prices: [{ ...usdc, units: "01" }] })
      expectInvalid(bad, "/prices/0/units")
      expect(bad.text).not.toContain("\"01\"")
      expectInvalid(yield* prices({ version: 1, prices: [{ ...usdc, units: 5 }] }), "/prices/0/units")
      expectInvalid(yield* prices({ version: 1, prices: [] }), "/prices")
      expectInvalid(yield* prices({ version: 1, prices: [usdc, usdc] }), "/prices/1")
      expectInvalid(yield* prices({ version: 1, prices: [{ ...usdc, assetPublicId: DemoAssets.sol.id }] }), "/prices/0/assetPublicId")
      expectInvalid(yield* prices({ version: 1, prices: [{ ...usdc, assetPublicId: randomUUID() }] }), "/prices/0/assetPublicId")
      expectInvalid(yield* prices({ version: 1, prices: [{ ...usdc, networkPublicId: null, x402: true }] }), "/prices/0/networkPublicId")
      expectInvalid(
        yield* prices({ version: 1, prices: [{ ...usdc, x402ResourceTemplate: "http://insecure.example/x" }] }),
        "/prices/0/x402ResourceTemplate"
      )
      expectInvalid(yield* prices({ version: 1, effectiveFrom: "2020-01-01T00:00:00Z", prices: [usdc] }), "/effectiveFrom")
      expectInvalid(
        yield* prices({ version: 1, effectiveFrom: TestEpoch.toISOString(), effectiveUntil: TestEpoch.toISOString(), prices: [usdc] }),
        "/effectiveUntil"
      )
      // nothing was written
      const offer = yield* call("GET", offerPath(id), { session: owner })
      expect(offer.body.data).toMatchObject({ version: 1, prices: [] })
    }))

  it.effect("the agent's offers are cursor pages; an altered cursor or one of another agent is 400", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      // Atlas has one published demo offer; publish two more
      for (const slug of ["page-one", "page-two"]) {
        const created = yield* create(owner, createBody({ agentId: atlas.id, slug }))
        const id = created.body.data.id
        yield* call("PUT", `${offerPath(id)}/prices`, {
          session: owner,
          body: { version: 1, prices: [{ networkPublicId: DemoNetworks.base.id, assetPublicId: DemoAssets.usdc.id, units: "7" }] }
        })
        const published = yield* call("POST", `${offerPath(id)}/publish`, { session: owner, body: { version: 2 } })
        expect(published.status, published.text).toBe(200)
      }
      const all = yield* call("GET", `/api/v1/agents/${atlas.id}/offers?limit=100`)
      expect(all.status, all.text).toBe(200)
      const ids = all.body.data.map((o: any) => o.id)
      expect(ids).toContain(DemoOffers.published.id)
      expect(all.body.data.every((o: any) => o.state === "PUBLISHED")).toBe(true)
      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const page: Reply = yield* call("GET", `/api/v1/agents/${atlas.id}/offers?limit=1${cursor === null ? "" : `&cursor=${cursor}`}`)
        expect(page.status, page.text).toBe(200)
        seen.push(...page.body.data.map((o: any) => o.id))
        cursor = page.body.nextCursor
      } while (cursor !== null)
      expect(seen).toEqual(ids)
      const first = yield* call("GET", `/api/v1/agents/${atlas.id}/offers?limit=1`)
      const next = first.body.nextCursor as string
      expectProblem(yield* call("GET", `/api/v1/agents/${beacon.id}/offers?cursor=${next}`), 400, "invalid-cursor")
      expectProblem(yield* call("GET", `/api/v1/agents/${atlas.id}/offers?cursor=${next.slice(0, -2)}xx`), 400, "invalid-cursor")
      expectProblem(yield* call("GET", `/api/v1/agents/${randomUUID()}/offers`), 404, "agent-not-found")
      // an agent with none: an empty list
      const none = yield* call("GET", `/api/v1/agents/${DemoAgents[7].id}/offers`)
      expect(none.body).toMatchObject({ data: [], nextCursor: null })
    }))

  it.effect("the fulfillment policy: defaults, validated on create and update, its version bumped only when it changes", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const plain = yield* create(owner, createBody({ slug: "plain-policy" }))
      expect(plain.status, plain.text).toBe(201)
      expect(plain.body.data.fulfillment).toEqual({
        entitlementCode: "PLAIN_POLICY",
        entitlementDays: null,
        graceDays: 0,
        runtimeAccess: false,
        runQuota: null,
        payoutAddress: null
      })
      const lower = "0x52908400098527886e0f7030069857d2e4169ee7"
      const created = yield* create(owner, createBody({
        slug: "runtime-access",
        fulfillment: { entitlementCode: "BEACON_RUNS", entitlementDays: 30, graceDays: 3, runtimeAccess: true, runQuota: 100, payoutAddress: lower }
      }))
      expect(created.status, created.text).toBe(201)
      const id = created.body.data.id
      // stored in EIP-55 form
      expect(created.body.data.fulfillment).toEqual({
        entitlementCode: "BEACON_RUNS",
        entitlementDays: 30,
        graceDays: 3,
        runtimeAccess: true,
        runQuota: 100,
        payoutAddress: "0x52908400098527886E0F7030069857D2E4169EE7"
      })
      expect(created.body.data.fulfillmentPolicyVersion).toBe(1)
      // the same policy again: version + 1, policy version unchanged
      const same = yield* call("PATCH", offerPath(id), {
        session: owner,
        body: {
          version: 1,
          fulfillment: { entitlementCode: "BEACON_RUNS", entitlementDays: 30, graceDays: 3, runtimeAccess: true, runQuota: 100, payoutAddress: "0x52908400098527886E0F7030069857D2E4169EE7" }
        }
      })
      expect(same.status, same.text).toBe(200)
      expect(same.body.data).toMatchObject({ version: 2, fulfillmentPolicyVersion: 1 })
      // another policy (absent fields take their defaults): policy version 2
      const changed = yield* call("PATCH", offerPath(id), { session: owner, body: { version: 2, fulfillment: { entitlementDays: 365 } } })
      expect(changed.status, changed.text).toBe(200)
      expect(changed.body.data).toMatchObject({ version: 3, fulfillmentPolicyVersion: 2 })
      expect(changed.body.data.fulfillment).toEqual({
        entitlementCode: "RUNTIME_ACCESS",
        entitlementDays: 365,
        graceDays: 0,
        runtimeAccess: false,
        runQuota: null,
        payoutAddress: null
      })
      // a title change leaves the policy version alone
      const titled = yield* call("PATCH", offerPath(id), { session: owner, body: { version: 3, title: "Runs of Beacon" } })
      expect(titled.body.data).toMatchObject({ version: 4, fulfillmentPolicyVersion: 2 })
      // validation names the field
      const bad = (fulfillment: unknown) => create(owner, createBody({ slug: "bad-policy", fulfillment }))
      expectInvalid(yield* bad({ payoutAddress: "0x1234" }), "/fulfillment/payoutAddress")
      // a mixed-case address with a wrong checksum
      expectInvalid(yield* bad({ payoutAddress: "0x52908400098527886E0F7030069857D2E4169Ee7" }), "/fulfillment/payoutAddress")
      expectInvalid(yield* bad({ entitlementDays: 0 }), "/fulfillment/entitlementDays")
      expectInvalid(yield* bad({ entitlementDays: 3661 }), "/fulfillment/entitlementDays")
      expectInvalid(yield* bad({ runQuota: 0 }), "/fulfillment/runQuota")
      expectInvalid(yield* bad({ graceDays: -1 }), "/fulfillment/graceDays")
      expectInvalid(yield* bad({ entitlementCode: "lower-case" }), "/fulfillment/entitlementCode")
      expectInvalid(yield* bad({ runtimeAccess: "yes" }), "/fulfillment/runtimeAccess")
      expectInvalid(yield* bad({ extra: true }), "/fulfillment/extra")
      expectInvalid(
        yield* call("PATCH", offerPath(id), { session: owner, body: { version: 4, fulfillment: { runQuota: 1.5 } } }),
        "/fulfillment/runQuota"
      )
    }))
})
