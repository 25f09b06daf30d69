/**
 * Agents_CreateAgent, Agents_UpdateAgent, Agents_RetireAgent: agents
 * registered through the API show in every existing read (list, profile, activity), on
 * both databases, through the real HTTP stack.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, type CallOptions, expectMeta, expectProblem, type Reply, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const create = (body: unknown, options: CallOptions = {}) => call("POST", "/api/v1/agents", { body, ...options })
const update = (id: string, body: unknown, options: CallOptions = {}) =>
  call("PATCH", `/api/v1/agents/${id}`, { body, ...options })
const retire = (id: string, body: unknown, options: CallOptions = {}) =>
  call("POST", `/api/v1/agents/${id}/retire`, { body, ...options })
const get = (id: string) => call("GET", `/api/v1/agents/${id}`)
/** The directory list filtered by `q`, newest first. */
const listed = (q: string) =>
  call("GET", `/api/v1/agents?sort=newest&q=${encodeURIComponent(q)}`).pipe(
    Effect.map((reply) => reply.body.data.map((a: { canonicalSlug: string }) => a.canonicalSlug) as Array<string>)
  )

let n = 0
/** A valid create body with a slug of its own. */
const valid = (over: Record<string, unknown> = {}) => ({
  workspaceId: DemoWorkspaces.acme.id,
  name: "Iris Indexer",
  canonicalSlug: `iris-indexer-${++n}`,
  tagline: "Indexes research papers",
  description: "Reads new papers every night.",
  links: [{ label: "Website", url: "https://iris.example/" }],
  ...over
})

const countAgents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM agents`)[0]!.n
}).pipe(Effect.orDie)

const expectInvalidBody = (reply: Reply, pointer: string) => {
  expectProblem(reply, 400, "invalid-request")
  const entry = reply.body.errors.find((e: { pointer: string }) => e.pointer === pointer)
  expect(entry, reply.text).toMatchObject({ in: "body" })
  return entry as { detail: string }
}

/** Creates an agent as `session` and returns its profile. */
const created = (session: Session, over: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const reply = yield* create(valid(over), { session })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data
  })

const server = makeTestServer()

layer(server.layer)("Agents registration", (it) => {
  it.effect("201: the profile of Agents_GetAgent, a Location, UNVERIFIED and listed at once; every read shows it", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const body = valid()
      const reply = yield* create(body, { session: owner })
      expect(reply.status, reply.text).toBe(201)
      expectMeta(reply)
      const data = reply.body.data
      expect(reply.headers["location"]).toBe(`/api/v1/agents/${data.entityId}`)
      expect(data).toMatchObject({
        entityId: data.publicId,
        canonicalSlug: body.canonicalSlug,
        name: body.name,
        tagline: body.tagline,
        description: body.description,
        links: body.links,
        rank: null,
        starCount: "0",
        verificationState: "UNVERIFIED",
        state: "ACTIVE",
        retiredAt: null,
        version: 1,
        listedAt: TestEpoch.toISOString(),
        networks: [],
        protocols: [],
        locators: [],
        offers: [],
        trust: { ratingPpm: null, feedbackCount: "0", verifiedFeedbackCount: "0", latestFeedbackAt: null }
      })
      expect(data.canonicalUrl).toMatch(new RegExp(`/api/v1/agents/${data.entityId}$`))
      // exactly what Agents_GetAgent answers
      const profile = yield* get(data.entityId)
      expect(profile.status).toBe(200)
      // but its rank: the reputation projector ranks a new listed agent within seconds
      expect({ ...profile.body.data, rank: null }).toEqual(data)
      // the list, its filters and its sorts
      expect(yield* listed(body.canonicalSlug)).toEqual([body.canonicalSlug])
      const unverified = yield* call("GET", `/api/v1/agents?verificationStates=UNVERIFIED&sort=newest&limit=100`)
      expect(unverified.body.data.map((a: { publicId: string }) => a.publicId)).toContain(data.entityId)
      const byName = yield* call("GET", `/api/v1/agents?sort=name&q=iris`)
      expect(byName.status).toBe(200)
      // its public activity: the registration only; and its runtime area sees the operating workspace
      const activity = yield* call("GET", `/api/v1/agents/${data.entityId}/activity`)
      expect(activity.status, activity.text).toBe(200)
      expect(activity.body.data).toEqual([expect.objectContaining({
        activityKey: "agent.registered",
        sourceKind: "DOMAIN_EVENT",
        summary: `Registered as ${body.name} and listed in the directory.`,
        occurredAt: data.listedAt
      })])
      const tools = yield* call("GET", `/api/v1/agents/${data.entityId}/tools`, { session: owner })
      expectProblem(tools, 422, "configuration-missing") // a member sees the agent: no runtime yet, not 404
    }))

  it.effect("defaults: tagline null, description empty, no links; an EDITOR may register", () =>
    Effect.gen(function*() {
      const member = yield* signIn("member")
      const reply = yield* create({ workspaceId: DemoWorkspaces.acme.id, name: "Kappa", canonicalSlug: "kappa-agent" }, { session: member })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data).toMatchObject({ tagline: null, description: "", links: [] })
    }))

  it.effect("409 slug-taken for a slug another agent holds (the field named), nothing written", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const before = yield* countAgents
      const reply = yield* create(valid({ canonicalSlug: DemoAgents[0].slug }), { session: owner })
      expectProblem(reply, 409, "slug-taken")
      expect(reply.body.detail).toContain("canonicalSlug")
      expect(reply.text).not.toContain(DemoAgents[0].slug)
      expect(yield* countAgents).toBe(before)
    }))

  it.effect("400 naming /canonicalSlug and the rule for a slug that breaks it; other fields likewise", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      for (const slug of ["ab", "Abc-def", "-abc", "abc-", "ab--cd", "1abc", "ab_cd", "ab cd", "a".repeat(65), "", 7]) {
        const entry = expectInvalidBody(yield* create(valid({ canonicalSlug: slug }), { session: owner }), "/canonicalSlug")
        if (typeof slug === "string" && slug !== "") {
          expect(entry.detail).toContain("lower-case letters, digits and single hyphens")
          expect(entry.detail).not.toContain(slug)
        }
      }
      expectInvalidBody(yield* create(valid({ name: "   " }), { session: owner }), "/name")
      expectInvalidBody(yield* create(valid({ links: [{ label: "x", url: "javascript:alert(1)" }] }), { session: owner }), "/links/0/url")
      const many = Array.from({ length: 21 }, (_, i) => ({ label: `L${i}`, url: `https://l${i}.example` }))
      expect(expectInvalidBody(yield* create(valid({ links: many }), { session: owner }), "/links").detail).toBe("must be at most 20 links")
      expectInvalidBody(yield* create(valid({ tagline: "" }), { session: owner }), "/tagline")
      expectInvalidBody(yield* create(valid({ workspaceId: "nope" }), { session: owner }), "/workspaceId")
      expectInvalidBody(yield* create({ ...valid(), verificationState: "VERIFIED" }, { session: owner }), "/verificationState")
    }))

  it.effect("PATCH: changes only the fields sent (tagline null clears it), version + 1; a stale version is 409", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const agent = yield* created(owner)
      const reply = yield* update(agent.entityId, { expectedVersion: 1, name: "Iris Indexer Pro", tagline: null }, { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expectMeta(reply)
      expect(reply.body.data).toEqual({ ...agent, name: "Iris Indexer Pro", tagline: null, version: 2, rank: reply.body.data.rank })
      // (the rank is the reputation projector's, which may rank the new agent between the two reads)
      const reread = (yield* get(agent.entityId)).body.data
      expect({ ...reread, rank: reply.body.data.rank }).toEqual(reply.body.data)
      // a new slug and links
      const renamed = yield* update(agent.entityId, { expectedVersion: 2, canonicalSlug: `${agent.canonicalSlug}-x`, links: [] }, { session: owner })
      expect(renamed.status, renamed.text).toBe(200)
      expect(renamed.body.data).toMatchObject({ canonicalSlug: `${agent.canonicalSlug}-x`, links: [], version: 3 })
      // stale version
      const stale = yield* update(agent.entityId, { expectedVersion: 2, description: "Again." }, { session: owner })
      expectProblem(stale, 409, "version-conflict")
      expect((yield* get(agent.entityId)).body.data.version).toBe(3)
      // a slug another agent holds, at the current version
      const taken = yield* update(agent.entityId, { expectedVersion: 3, canonicalSlug: DemoAgents[1].slug }, { session: owner })
      expectProblem(taken, 409, "slug-taken")
      // nothing to change; a bad field; an unknown agent
      const empty = yield* update(agent.entityId, { expectedVersion: 3 }, { session: owner })
      expectProblem(empty, 400, "invalid-request")
      expectInvalidBody(yield* update(agent.entityId, { expectedVersion: 3, canonicalSlug: "No" }, { session: owner }), "/canonicalSlug")
      expectInvalidBody(yield* update(agent.entityId, { expectedVersion: 0, name: "x" }, { session: owner }), "/expectedVersion")
      expectProblem(yield* update(randomUUID(), { expectedVersion: 1, name: "x" }, { session: owner }), 404, "agent-not-found")
    }))

  it.effect("retire: RETIRED, unlisted, still answered by Agents_GetAgent; final (retire or edit again → 409 invalid-state)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const agent = yield* created(owner)
      expect(yield* listed(agent.canonicalSlug)).toEqual([agent.canonicalSlug])
      expectProblem(yield* retire(agent.entityId, { expectedVersion: 2 }, { session: owner }), 409, "version-conflict")
      const reply = yield* retire(agent.entityId, { expectedVersion: 1 }, { session: owner })
      expect(reply.status, reply.text).toBe(200)
      // its rank: the projector's (ranked once projected, unranked by the projection after retirement)
      expect(reply.body.data).toEqual({
        ...agent, state: "RETIRED", retiredAt: TestEpoch.toISOString(), listedAt: null, version: 2, rank: reply.body.data.rank
      })
      expect(yield* listed(agent.canonicalSlug)).toEqual([])
      const profile = yield* get(agent.entityId)
      expect(profile.status).toBe(200)
      expect(profile.body.data.state).toBe("RETIRED")
      expectProblem(yield* retire(agent.entityId, { expectedVersion: 2 }, { session: owner }), 409, "invalid-state")
      expectProblem(yield* update(agent.entityId, { expectedVersion: 2, name: "Back" }, { session: owner }), 409, "invalid-state")
      // nothing more is added to a retired agent: no identity proof, import or MCP connection
      const base = `/api/v1/agents/${agent.entityId}`
      const refusals = [
        yield* call("POST", `${base}/identity-challenges`, {
          session: owner,
          body: { networkFamily: "EVM", network: "eip155:8453", protocol: null, registry: null, locatorKind: "ADDRESS", nativeId: "0x0000000000000000000000000000000000000001" }
        }),
        yield* call("POST", `${base}/imports`, { session: owner, body: { kind: "A2A_AGENT_CARD", url: "https://retired.example/.well-known/agent-card.json" } }),
        yield* call("POST", `${base}/mcp/connections`, { session: owner, body: { serverUrl: "https://retired.example/mcp" } })
      ]
      for (const refused of refusals) expectProblem(refused, 409, "invalid-state")
      // its slug stays taken
      expectProblem(yield* create(valid({ canonicalSlug: agent.canonicalSlug }), { session: owner }), 409, "slug-taken")
    }))

  it.effect("Idempotency-Key: the same request replays the 201 with its Location; another body with the key is 409", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = randomUUID()
      const body = valid()
      const first = yield* create(body, { session: owner, idempotencyKey: key })
      expect(first.status, first.text).toBe(201)
      const before = yield* countAgents
      const again = yield* create(body, { session: owner, idempotencyKey: key })
      expect(again.status).toBe(201)
      expect(again.headers["idempotent-replayed"]).toBe("true")
      expect(again.headers["location"]).toBe(first.headers["location"])
      expect(again.body.data).toEqual(first.body.data)
      expect(yield* countAgents).toBe(before)
      expectProblem(yield* create({ ...body, name: "Other" }, { session: owner, idempotencyKey: key }), 409, "idempotency-key-reuse")
      expectProblem(yield* create(valid(), { session: owner, idempotencyKey: null }), 400, "idempotency-key-required")
      // a replayed PATCH answers the same profile and bumps nothing
      const patchKey = randomUUID()
      const id = first.body.data.entityId
      const patched = yield* update(id, { expectedVersion: 1, name: "Once" }, { session: owner, idempotencyKey: patchKey })
      const replayed = yield* update(id, { expectedVersion: 1, name: "Once" }, { session: owner, idempotencyKey: patchKey })
      expect(replayed.status).toBe(200)
      expect(replayed.body.data).toEqual(patched.body.data)
      expect((yield* get(id)).body.data.version).toBe(2)
    }))

  it.effect("refused: a VIEWER (403), a non-member (404), no session (401), an API key (403: session-only), no CSRF token (403)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const agent = yield* created(owner)
      const before = yield* countAgents
      const viewer = yield* signIn("admin") // VIEWER of Acme
      expectProblem(yield* create(valid(), { session: viewer }), 403, "role-required")
      expectProblem(yield* update(agent.entityId, { expectedVersion: 1, name: "x" }, { session: viewer }), 403, "role-required")
      expectProblem(yield* retire(agent.entityId, { expectedVersion: 1 }, { session: viewer }), 403, "role-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* create(valid(), { session: outsider }), 404, "workspace-not-found")
      expectProblem(yield* create(valid({ workspaceId: randomUUID() }), { session: owner }), 404, "workspace-not-found")
      expectProblem(yield* update(agent.entityId, { expectedVersion: 1, name: "x" }, { session: outsider }), 404, "agent-not-found")
      expectProblem(yield* retire(agent.entityId, { expectedVersion: 1 }, { session: outsider }), 404, "agent-not-found")
      // a seeded agent no workspace operates cannot be edited by anyone
      expectProblem(yield* update(DemoAgents[3].id, { expectedVersion: 1, name: "x" }, { session: owner }), 404, "agent-not-found")
      expectProblem(yield* create(valid()), 401)
      expectProblem(yield* create(valid(), { headers: { "x-api-key": DemoApiKeys.public.key } }), 403, "session-required")
      expectProblem(yield* create(valid(), { session: owner, csrf: null }), 403)
      expect(yield* countAgents).toBe(before)
      expect((yield* get(agent.entityId)).body.data.version).toBe(1)
    }))
})
