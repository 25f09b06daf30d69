/**
 * Services_PublishServiceOffer (spec §2.5, §4.1, §4.3, §7):
 * POST /api/v1/offers/{offerId}/publish with body {version}.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectMeta, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { countIdempotencyRecords, type DemoOfferName, publish, publishPath, readOffer, restoreOffers } from "./support.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { DemoOffers, DemoServices } from "../../demo/services/seed.js"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/

/** Asserts a full ServiceOffer (spec §2.5) in the PUBLISHED state, published at the test epoch. */
const expectPublishedOffer = (reply: Reply, offer: DemoOfferName, version: number) => {
  expect(reply.status, reply.text).toBe(200)
  expect(reply.headers["content-type"]).toMatch(/^application\/json/)
  expect(reply.headers["cache-control"]).toBe("no-store")
  expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
  expectMeta(reply)
  expect(reply.body.meta.generatedAt).toBe(TestEpoch.toISOString())
  const data = reply.body.data
  const demo = DemoOffers[offer]
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
  expect(data.id).toBe(demo.id)
  expect(data.serviceId).toBe(DemoServices[demo.service].id)
  expect(data.state).toBe("PUBLISHED")
  expect(data.version).toBe(version)
  expect(data.title).toBe(demo.title)
  expect(data.slug).toBe(demo.slug)
  expect(typeof data.description).toBe("string")
  expect(typeof data.pricingModel).toBe("string")
  expect(Number.isInteger(data.fulfillmentPolicyVersion)).toBe(true)
  expect(data.publishedAt).toBe("2026-06-01T00:00:00.000Z")
  expect(data.publishedAt).toBe(TestEpoch.toISOString())
  // termsRevision: {id, revision, termsMarkdown, createdAt}
  expect(Object.keys(data.termsRevision).sort()).toEqual(["createdAt", "id", "revision", "termsMarkdown"])
  expect(data.termsRevision.id).toMatch(uuidPattern)
  expect(Number.isInteger(data.termsRevision.revision) && data.termsRevision.revision > 0).toBe(true)
  expect(typeof data.termsRevision.termsMarkdown).toBe("string")
  expect(data.termsRevision.createdAt).toMatch(dateTimePattern)
  // prices: units are decimal strings (spec §2.1)
  expect(Array.isArray(data.prices)).toBe(true)
  expect(data.prices.length).toBeGreaterThan(0)
  for (const price of data.prices) {
    expect(Object.keys(price).sort()).toEqual([
      "assetPublicId",
      "effectiveFrom",
      "effectiveUntil",
      "id",
      "networkPublicId",
      "units",
      "version",
      "x402ResourceTemplate"
    ])
    expect(price.id).toMatch(uuidPattern)
    expect(Number.isInteger(price.version)).toBe(true)
    expect(typeof price.units).toBe("string")
    expect(price.units).toMatch(/^(?:0|[1-9][0-9]{0,77})$/)
    expect(price.assetPublicId).toBe(DemoAssets.usdc.id)
    expect(price.networkPublicId).toBe(DemoNetworks.base.id)
    expect(price.effectiveFrom).toMatch(dateTimePattern)
    expect(price.effectiveUntil === null || dateTimePattern.test(price.effectiveUntil)).toBe(true)
    expect(price.x402ResourceTemplate === null || typeof price.x402ResourceTemplate === "string").toBe(true)
  }
  return data
}

/** Asserts that an offer's row still has its demo state and version. */
const expectUnchanged = (offer: DemoOfferName) =>
  Effect.gen(function*() {
    const row = yield* readOffer(offer)
    expect(row.state).toBe(DemoOffers[offer].state)
    expect(row.version).toBe(DemoOffers[offer].version)
    if (DemoOffers[offer].state !== "PUBLISHED") expect(row.publishedAt).toBeNull()
  })

const successServer = makeTestServer()

layer(successServer.layer)("Services_PublishServiceOffer: success", (it) => {
  it.effect("publishes a DRAFT offer: PUBLISHED, version 2, publishedAt = the clock, full offer with prices and terms", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const before = yield* readOffer("starter")
      expect(before).toMatchObject({ state: "DRAFT", version: 1, publishedAt: null })
      const reply = yield* publish("starter", { session: owner, body: { version: 1 } })
      const data = expectPublishedOffer(reply, "starter", 2)
      // the starter offer carries the first demo price
      expect(data.prices).toHaveLength(1)
      expect(data.prices[0].units).toBe("5000000")
      expect(data.prices[0].x402ResourceTemplate).toBe("https://api.atlas.example/x402/{offerId}")
      expect(data.termsRevision.revision).toBe(1)
      const after = yield* readOffer("starter")
      expect(after).toEqual({
        state: "PUBLISHED",
        version: 2,
        publishedAt: TestEpoch.toISOString(),
        updatedAt: TestEpoch.toISOString()
      })
    }))

  it.effect("publishes a REVIEW offer at version 2 (→ version 3)", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("review", { session: owner, body: { version: 2 } })
      expectPublishedOffer(reply, "review", 3)
      const row = yield* readOffer("review")
      expect(row).toMatchObject({ state: "PUBLISHED", version: 3, publishedAt: TestEpoch.toISOString() })
    }))

  it.effect("publishes a PAUSED offer at version 4 (→ version 5)", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("paused", { session: owner, body: { version: 4 } })
      expectPublishedOffer(reply, "paused", 5)
      const row = yield* readOffer("paused")
      expect(row).toMatchObject({ state: "PUBLISHED", version: 5, publishedAt: TestEpoch.toISOString() })
    }))

  it.effect("an EDITOR member can publish", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const member = yield* signIn("member")
      const reply = yield* publish("spare", { session: member, body: { version: 1 } })
      expectPublishedOffer(reply, "spare", 2)
      expect((yield* readOffer("spare")).state).toBe("PUBLISHED")
    }))

  it.effect("accepts an upper-case offer id and Idempotency-Key (uuid input is case-insensitive)", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish(DemoOffers.starter.id.toUpperCase(), {
        session: owner,
        body: { version: 1 },
        idempotencyKey: randomUUID().toUpperCase()
      })
      expectPublishedOffer(reply, "starter", 2)
    }))

  it.effect("publishing an already published offer at its new version is an invalid-state conflict", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      expectPublishedOffer(yield* publish("review", { session: owner, body: { version: 2 } }), "review", 3)
      const reply = yield* publish("review", { session: owner, body: { version: 3 } })
      expectProblem(reply, 409, "invalid-state")
      const again = yield* publish("review", { session: owner, body: { version: 2 } })
      expectProblem(again, 409, "version-conflict")
      expect(again.body.detail).toContain("version 3")
      expect((yield* readOffer("review")).version).toBe(3)
    }))
})

const refusalServer = makeTestServer()

layer(refusalServer.layer)("Services_PublishServiceOffer: refusals", (it) => {
  it.effect("409 version-conflict for a stale version; the detail names the current version", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const stale = yield* publish("review", { session: owner, body: { version: 1 } })
      expectProblem(stale, 409, "version-conflict")
      expect(stale.body.detail).toMatch(/\bversion 2\b/)
      expect(stale.body.instance).toBe(publishPath("review"))
      const ahead = yield* publish("paused", { session: owner, body: { version: 5 } })
      expectProblem(ahead, 409, "version-conflict")
      expect(ahead.body.detail).toMatch(/\bversion 4\b/)
      // a stale version wins over the state: the PUBLISHED offer at version 2
      const publishedStale = yield* publish("published", { session: owner, body: { version: 2 } })
      expectProblem(publishedStale, 409, "version-conflict")
      expect(publishedStale.body.detail).toMatch(/\bversion 3\b/)
      yield* expectUnchanged("review")
      yield* expectUnchanged("paused")
      yield* expectUnchanged("published")
    }))

  it.effect("409 invalid-state for the PUBLISHED offer at its current version", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const before = yield* readOffer("published")
      const reply = yield* publish("published", { session: owner, body: { version: 3 } })
      expectProblem(reply, 409, "invalid-state")
      expect(reply.body.detail).toContain("PUBLISHED")
      expect(yield* readOffer("published")).toEqual(before)
    }))

  it.effect("409 offer-incomplete for an offer without a current price", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("unpriced", { session: owner, body: { version: 1 } })
      expectProblem(reply, 409, "offer-incomplete")
      expect(reply.body.detail).toMatch(/price/)
      yield* expectUnchanged("unpriced")
    }))

  it.effect("404 for an offer in another workspace and for an unknown id, with the same kind", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const foreign = yield* publish("foreign", { session: owner, body: { version: 1 } })
      expectProblem(foreign, 404)
      const unknown = yield* publish(randomUUID(), { session: owner, body: { version: 1 } })
      expectProblem(unknown, 404)
      // an invisible offer is indistinguishable from a missing one
      expect(foreign.body.type).toBe(unknown.body.type)
      expect(foreign.body.title).toBe(unknown.body.title)
      yield* expectUnchanged("foreign")
    }))

  it.effect("the outsider cannot publish Acme's offers (404) but can publish its own", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const outsider = yield* signIn("outsider")
      const acme = yield* publish("spare", { session: outsider, body: { version: 1 } })
      expectProblem(acme, 404)
      yield* expectUnchanged("spare")
      const own = yield* publish("foreign", { session: outsider, body: { version: 1 } })
      expectPublishedOffer(own, "foreign", 2)
    }))

  it.effect("403 role-required for a VIEWER of the offer's workspace", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const admin = yield* signIn("admin")
      const reply = yield* publish("spare", { session: admin, body: { version: 1 } })
      expectProblem(reply, 403, "role-required")
      // the role check comes before the version check
      const stale = yield* publish("spare", { session: admin, body: { version: 7 } })
      expectProblem(stale, 403, "role-required")
      yield* expectUnchanged("spare")
    }))

  it.effect("401 without a session", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const reply = yield* publish("spare", { body: { version: 1 } })
      expectProblem(reply, 401, "unauthenticated")
      const badCookie = yield* publish("spare", {
        body: { version: 1 },
        headers: { cookie: "session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }
      })
      expectProblem(badCookie, 401, "unauthenticated")
      yield* expectUnchanged("spare")
    }))

  it.effect("403 csrf-token-invalid without (or with a wrong) X-CSRF-Token", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const missing = yield* publish("spare", { session: owner, csrf: null, body: { version: 1 } })
      expectProblem(missing, 403, "csrf-token-invalid")
      const member = yield* signIn("member")
      const wrong = yield* publish("spare", { session: owner, csrf: member.csrf, body: { version: 1 } })
      expectProblem(wrong, 403, "csrf-token-invalid")
      yield* expectUnchanged("spare")
    }))
})

const validationServer = makeTestServer()

/** Asserts a 400 whose `errors` has an entry at `pointer` (in `where`). */
const expectInvalid = (reply: Reply, pointer: string, where: "body" | "path" | "header", kind = "invalid-request") => {
  expectProblem(reply, 400, kind)
  expect(Array.isArray(reply.body.errors), reply.text).toBe(true)
  const entry = reply.body.errors.find((e: { pointer: string }) => e.pointer === pointer)
  expect(entry, reply.text).toBeDefined()
  expect(entry.in).toBe(where)
  expect(typeof entry.detail).toBe("string")
}

layer(validationServer.layer)("Services_PublishServiceOffer: input validation", (it) => {
  it.effect("rejects an unknown body key (/extra)", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("starter", { session: owner, body: { version: 1, extra: true } })
      expectInvalid(reply, "/extra", "body")
      yield* expectUnchanged("starter")
    }))

  it.effect("rejects a missing version", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("starter", { session: owner, body: {} })
      expectInvalid(reply, "/version", "body")
      yield* expectUnchanged("starter")
    }))

  it.effect("rejects version 0, \"1\" (string), 1.5, -1, null and 2^53", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      for (const version of [0, "1", 1.5, -1, null]) {
        const reply = yield* publish("starter", { session: owner, body: { version } })
        expectInvalid(reply, "/version", "body")
      }
      // 9007199254740992 = MAX_SAFE_INTEGER + 1, sent as raw JSON text
      const tooBig = yield* publish("starter", { session: owner, raw: `{"version":9007199254740992}` })
      expectInvalid(tooBig, "/version", "body")
      yield* expectUnchanged("starter")
    }))

  it.effect("rejects a body that is not an object", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      for (const raw of ["[1]", "1", "null"]) {
        const reply = yield* publish("starter", { session: owner, raw })
        expectProblem(reply, 400)
      }
      yield* expectUnchanged("starter")
    }))

  it.effect("rejects a non-uuid offerId in the path (400, pointer /offerId)", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("not-a-uuid", { session: owner, body: { version: 1 } })
      expectInvalid(reply, "/offerId", "path")
      // uuid version 0 is not a uuid of spec §2.1
      const v0 = yield* publish("01900008-0000-0000-8000-000000000001", { session: owner, body: { version: 1 } })
      expectInvalid(v0, "/offerId", "path")
      yield* expectUnchanged("starter")
    }))

  it.effect("400 malformed-body for invalid JSON", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("starter", { session: owner, raw: "{" })
      expectProblem(reply, 400, "malformed-body")
      expect(reply.body.errors).toEqual([{ in: "body", pointer: "", detail: expect.any(String) }])
      yield* expectUnchanged("starter")
    }))

  it.effect("400 unsupported-content-type for a text/plain body", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("starter", { session: owner, raw: `{"version":1}`, contentType: "text/plain" })
      expectProblem(reply, 400, "unsupported-content-type")
      expect(reply.body.errors[0]).toMatchObject({ in: "header", pointer: "/content-type" })
      yield* expectUnchanged("starter")
    }))

  it.effect("400 idempotency-key-required without an Idempotency-Key", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const reply = yield* publish("starter", { session: owner, idempotencyKey: null, body: { version: 1 } })
      expectInvalid(reply, "/idempotency-key", "header", "idempotency-key-required")
      yield* expectUnchanged("starter")
    }))

  it.effect("400 for an Idempotency-Key that is not a uuid", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      for (const key of ["not-a-uuid", "", "12345"]) {
        const reply = yield* publish("starter", { session: owner, idempotencyKey: key, body: { version: 1 } })
        expectProblem(reply, 400)
        const entry = reply.body.errors.find((e: { pointer: string }) => e.pointer === "/idempotency-key")
        expect(entry, reply.text).toMatchObject({ in: "header" })
      }
      yield* expectUnchanged("starter")
    }))

  it.effect("rejected requests store nothing; a valid request then publishes", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const rejected = [
        { body: { version: 1, extra: true } },
        { body: { version: 0 } },
        { raw: "{" },
        { raw: `{"version":1}`, contentType: "text/plain" }
      ]
      for (const options of rejected) {
        const key = randomUUID()
        expectProblem(yield* publish("starter", { session: owner, idempotencyKey: key, ...options }), 400)
        expect(yield* countIdempotencyRecords(key)).toBe(0)
      }
      yield* expectUnchanged("starter")
      const reply = yield* publish("starter", { session: owner, body: { version: 1 } })
      expectPublishedOffer(reply, "starter", 2)
    }))
})
