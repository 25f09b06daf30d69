/**
 * Public agent activity filled by the agent's own actions (spec §2.21,
 * Agents_GetPublicAgentActivity), through the real HTTP stack and the run engine: a new agent
 * registered, proving an identity, publishing an offer, completing a run and receiving feedback
 * lists exactly those items, newest first, with their source kinds, network and evidence; an
 * idempotent replay of each action records nothing twice; refused actions (rolled back),
 * playground runs and feedback edits record nothing; the read path's filters (sourceKinds, networks by key or CAIP-2, activityKeys) apply.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { DemoAssets, DemoNetworks } from "../../../demo/common.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { call, type CallOptions, type Reply, type Session, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { awaitRun } from "../../runtime/support.js"
import { IdsLive } from "../../../layers/Ids.js"
import { recordRunCompleted } from "../../../src/runtime/loop/RunActivity.js"

const server = makeTestServer()
const minute = 60_000

interface Item {
  readonly publicId: string
  readonly activityKey: string
  readonly eventVersion: number
  readonly summary: string | null
  readonly sourceKind: string
  readonly network: { readonly key: string; readonly displayName: string } | null
  readonly transactionReference: string | null
  readonly explorerUrl: string | null
  readonly evidencePublicId: string | null
  readonly occurredAt: string
}

/** The agent's public activity (anonymous), newest first; `query` adds filters. */
const activity = (agent: string, query = "") =>
  Effect.gen(function*() {
    const reply = yield* call("GET", `/api/v1/agents/${agent}/activity?limit=100${query}`)
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data as Array<Item>
  })
const keys = (items: ReadonlyArray<Item>) => items.map((i) => i.activityKey)

/** Sends a write twice with one Idempotency-Key: the second answer is the stored replay. */
const twice = (method: "POST" | "PUT", path: string, body: unknown, session: Session) =>
  Effect.gen(function*() {
    const options: CallOptions = { body, session, idempotencyKey: randomUUID() }
    const first = yield* call(method, path, options)
    const replay = yield* call(method, path, options)
    expect(replay.headers["idempotent-replayed"], replay.text).toBe("true")
    expect(replay.text).toBe(first.text)
    return first
  })
const expectStatus = (reply: Reply, status: number) => expect(reply.status, reply.text).toBe(status)

let n = 0
/** Registers a new agent in Acme as its owner (twice, with one key). */
const register = (owner: Session) =>
  Effect.gen(function*() {
    const slug = `activity-agent-${++n}-${randomUUID().slice(0, 8)}`
    const reply = yield* twice("POST", "/api/v1/agents", {
      workspaceId: DemoWorkspaces.acme.id,
      name: `Vela Activity ${n}`,
      canonicalSlug: slug,
      tagline: null,
      description: "Acts, so that its activity fills.",
      links: []
    }, owner)
    expectStatus(reply, 201)
    return reply.body.data as { publicId: string; name: string }
  })

/** A DRAFT offer (with terms and a current price) of a new service of `agent`, inserted as the demo seed does. */
const insertOffer = (agent: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [serviceId, offerId] = [randomUUID(), randomUUID()]
    const at = new Date("2026-05-01T00:00:00.000Z")
    yield* sql`INSERT INTO services (id, workspace_id, agent_id, name) VALUES (${serviceId}, ${DemoWorkspaces.acme.id}, ${agent}, 'Vela desk')`
    yield* sql`INSERT INTO service_offers (id, service_id, state, version, title, slug, description, pricing_model,
                 fulfillment_policy_version, published_at, created_at, updated_at)
               VALUES (${offerId}, ${serviceId}, 'DRAFT', 1, 'Vela weekly digest', ${`vela-digest-${offerId.slice(0, 8)}`},
                 'A weekly digest.', 'FIXED', 1, NULL, ${at}, ${at})`
    yield* sql`INSERT INTO service_offer_terms (id, offer_id, revision, terms_markdown, created_at)
               VALUES (${randomUUID()}, ${offerId}, 1, '# Terms', ${at})`
    yield* sql`INSERT INTO service_offer_prices (id, offer_id, version, network_id, asset_id, units, effective_from, effective_until,
                 x402_resource_template)
               VALUES (${randomUUID()}, ${offerId}, 1, ${DemoNetworks.base.id}, ${DemoAssets.usdc.id}, '5000000', ${at}, NULL, NULL)`
    return offerId
  }).pipe(Effect.orDie)

/** Challenges and proves an EVM address (network eip155:8453; a fresh one by default) of `agent`, the proof sent twice with one key. */
const proveAddress = (agent: string, owner: Session, account = privateKeyToAccount(generatePrivateKey())) =>
  Effect.gen(function*() {
    const c = yield* call("POST", `/api/v1/agents/${agent}/identity-challenges`, {
      body: { networkFamily: "EVM", network: "eip155:8453", protocol: null, registry: null, locatorKind: "ADDRESS", nativeId: account.address },
      session: owner
    })
    expectStatus(c, 201)
    const signature = yield* Effect.promise(() => account.signMessage({ message: c.body.data.message }))
    const proved = yield* twice("POST", `/api/v1/agents/${agent}/identities`, { challengeId: c.body.data.challengeId, signature }, owner)
    expectStatus(proved, 201)
    return { account, identity: proved.body.data as { publicId: string; locator: string } }
  })

/** Starts a conversation of `kind` with `agent` and sends one message (twice, one key); waits for the run. */
const completeRun = (agent: string, owner: Session, kind: "CHAT" | "PLAYGROUND") =>
  Effect.gen(function*() {
    const conversation = yield* call("POST", `/api/v1/agents/${agent}/conversations`, { body: { title: null, kind }, session: owner })
    expectStatus(conversation, 201)
    const sent = yield* twice("POST", `/api/v1/conversations/${conversation.body.data.id}/messages`, { content: "Hello Vela" }, owner)
    expectStatus(sent, 202)
    const runId = sent.body.data.run.id as string
    expect((yield* awaitRun(runId)).state).toBe("SUCCEEDED")
    return runId
  })

layer(server.layer)("public activity of an agent that acts", (it) => {
  it.effect("an agent that did nothing has no activity: []", () =>
    Effect.gen(function*() {
      // an agent row with no action behind it (no registration through the API)
      const sql = yield* SqlClient.SqlClient
      const id = randomUUID()
      const at = new Date("2026-05-01T00:00:00.000Z")
      yield* sql`INSERT INTO agents (id, canonical_slug, name, rank, tagline, description, star_count, verification_state,
                   listed_at, workspace_id, links, created_at, updated_at)
                 VALUES (${id}, ${`quiet-${id.slice(0, 8)}`}, 'Quiet Agent', NULL, NULL, 'Does nothing.', '0', 'UNVERIFIED',
                   ${at}, ${DemoWorkspaces.acme.id}, '[]', ${at}, ${at})`.pipe(Effect.orDie)
      expect(yield* activity(id)).toEqual([])
    }))

  it.effect("registered, proven, offer published, run completed, feedback received: those five items, newest first; replays add none", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const outsider = yield* signIn("outsider")
      const t0 = server.clock.unsafeCurrentTimeMillis()
      const at = (k: number) => new Date(t0 + k * minute).toISOString()

      // registered (a replay of the same key answers the stored 201 and records nothing)
      const agent = yield* register(owner)
      const id = agent.publicId
      const registered = yield* activity(id)
      expect(registered).toEqual([{
        publicId: expect.any(String),
        activityKey: "agent.registered",
        eventVersion: 1,
        summary: `Registered as ${agent.name} and listed in the directory.`,
        sourceKind: "DOMAIN_EVENT",
        network: null,
        transactionReference: null,
        explorerUrl: null,
        evidencePublicId: null,
        occurredAt: at(0)
      }])

      // an identity proven, on Base: the item names the network by the networks row
      server.clock.advance(minute)
      const { account, identity } = yield* proveAddress(id, owner)
      const proven = (yield* activity(id))[0]!
      expect(proven).toMatchObject({
        activityKey: "identity.proven",
        sourceKind: "DOMAIN_EVENT",
        summary: `Proved control of the identity ${identity.locator}.`,
        network: { key: DemoNetworks.base.key, displayName: DemoNetworks.base.displayName },
        evidencePublicId: null,
        occurredAt: at(1)
      })
      // proving the same identity again (a new challenge) is no new item
      server.clock.advance(minute)
      yield* proveAddress(id, owner, account)
      expect(keys(yield* activity(id))).toEqual(["identity.proven", "agent.registered"])

      // a refused proof (a signature by another key) rolls back: no item
      const stranger = privateKeyToAccount(generatePrivateKey())
      const refused = yield* call("POST", `/api/v1/agents/${id}/identity-challenges`, {
        body: { networkFamily: "EVM", network: "base", protocol: null, registry: null, locatorKind: "ADDRESS", nativeId: account.address },
        session: owner
      })
      expectStatus(refused, 201)
      const badProof = yield* call("POST", `/api/v1/agents/${id}/identities`, {
        body: {
          challengeId: refused.body.data.challengeId,
          signature: yield* Effect.promise(() => stranger.signMessage({ message: refused.body.data.message }))
        },
        session: owner
      })
      expect(badProof.status, badProof.text).toBe(422)
      expect(keys(yield* activity(id))).toEqual(["identity.proven", "agent.registered"])

      // an offer of the agent's service published; a refused publish (stale version) first records nothing
      server.clock.advance(minute)
      const offerId = yield* insertOffer(id)
      expectStatus(yield* call("POST", `/api/v1/offers/${offerId}/publish`, { body: { version: 7 }, session: owner }), 409)
      expect(keys(yield* activity(id))).toEqual(["identity.proven", "agent.registered"])
      expectStatus(yield* twice("POST", `/api/v1/offers/${offerId}/publish`, { version: 1 }, owner), 200)
      expect((yield* activity(id))[0]).toMatchObject({
        activityKey: "offer.published",
        sourceKind: "DOMAIN_EVENT",
        summary: "Published the offer Vela weekly digest.",
        network: null,
        evidencePublicId: null,
        occurredAt: at(3)
      })

      // a run completed: a playground run records nothing, a chat run its evidence (no content of it)
      server.clock.advance(minute)
      expectStatus(
        yield* call("PUT", `/api/v1/agents/${id}/runtime`, {
          body: { provider: "deterministic", model: "demo-echo-1", instructions: "You are Vela." },
          session: owner
        }),
        201
      )
      yield* completeRun(id, owner, "PLAYGROUND")
      expect(keys(yield* activity(id))).toEqual(["offer.published", "identity.proven", "agent.registered"])
      const runId = yield* completeRun(id, owner, "CHAT")
      const ran = (yield* activity(id))[0]!
      expect(ran).toMatchObject({
        activityKey: "run.completed",
        sourceKind: "PRODUCT_EVIDENCE",
        summary: "Completed a run answering a message.",
        network: null,
        evidencePublicId: runId,
        occurredAt: at(4)
      })
      expect(ran.summary).not.toContain("Hello Vela")

      // feedback published by another workspace; its edit records nothing more
      server.clock.advance(minute)
      const feedbackBody = {
        workspaceId: DemoWorkspaces.outsider.id,
        category: "QUALITY",
        ratingPpm: 800_000,
        title: "Sharp digests",
        body: "Private-sounding detail that stays in the feedback."
      }
      const feedback = yield* twice("POST", `/api/v1/agents/${id}/feedback`, feedbackBody, outsider)
      expectStatus(feedback, 201)
      server.clock.advance(minute)
      const edited = yield* call("POST", `/api/v1/agents/${id}/feedback`, {
        body: { ...feedbackBody, ratingPpm: 900_000, expectedRevision: 1 },
        session: outsider
      })
      expect(edited.status, edited.text).toBeLessThan(300)

      const all = yield* activity(id)
      expect(all.map((i) => [i.activityKey, i.sourceKind, i.occurredAt])).toEqual([
        ["feedback.published", "PRODUCT_EVIDENCE", at(5)],
        ["run.completed", "PRODUCT_EVIDENCE", at(4)],
        ["offer.published", "DOMAIN_EVENT", at(3)],
        ["identity.proven", "DOMAIN_EVENT", at(1)],
        ["agent.registered", "DOMAIN_EVENT", at(0)]
      ])
      expect(all[0]).toMatchObject({
        summary: "Received published feedback on quality.",
        evidencePublicId: feedback.body.data.publicId
      })
      for (const item of all) {
        expect(item.summary).not.toContain("Private-sounding")
        expect(item.summary).not.toContain("@")
      }

      // the read path's filters
      expect(keys(yield* activity(id, "&sourceKinds=PRODUCT_EVIDENCE"))).toEqual(["feedback.published", "run.completed"])
      expect(keys(yield* activity(id, "&sourceKinds=DOMAIN_EVENT&sourceKinds=PRODUCT_EVIDENCE"))).toHaveLength(5)
      expect(keys(yield* activity(id, "&networks=base"))).toEqual(["identity.proven"])
      expect(keys(yield* activity(id, "&networks=eip155:8453"))).toEqual(["identity.proven"])
      expect(keys(yield* activity(id, "&networks=solana"))).toEqual([])
      expect(keys(yield* activity(id, "&activityKeys=run.completed&activityKeys=agent.registered")))
        .toEqual(["run.completed", "agent.registered"])

      // the demo agents' activity is untouched by all this
      expect(keys(yield* activity(DemoAgents[1].id))).not.toContain("feedback.published")
    }))

  it.effect("run.completed: a SUCCEEDED scheduled run once however often its finish is retried; playground and failed runs never", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const { publicId: agent } = yield* register(owner)
      const sql = yield* SqlClient.SqlClient
      const at = new Date(server.clock.unsafeCurrentTimeMillis())
      const insertRun = (trigger: string, state: string, playground: boolean) =>
        Effect.gen(function*() {
          const id = randomUUID()
          const conversation = playground ? randomUUID() : null
          if (conversation !== null) {
            yield* sql`INSERT INTO conversations (id, agent_id, account_id, kind, title, created_at, updated_at)
                       SELECT ${conversation}, ${agent}, id, 'PLAYGROUND', NULL, ${at}, ${at} FROM accounts LIMIT 1`
          }
          yield* sql`INSERT INTO runs (id, conversation_id, agent_id, trigger_type, state, version, is_playground,
                       retention_expires_at, created_at, started_at, completed_at, updated_at)
                     VALUES (${id}, ${conversation}, ${agent}, ${trigger}, ${state}, 3, ${playground}, ${at}, ${at}, ${at}, ${at}, ${at})`
          return id
        }).pipe(Effect.orDie)
      const scheduled = yield* insertRun("SCHEDULE", "SUCCEEDED", false)
      const playground = yield* insertRun("PLAYGROUND", "SUCCEEDED", true)
      const failed = yield* insertRun("MESSAGE", "FAILED", false)
      // the finishing step run again (an engine retry after a crash): still one item
      for (const run of [scheduled, scheduled, playground, failed]) {
        yield* sql.withTransaction(recordRunCompleted(run, at)).pipe(Effect.orDie, Effect.provide(IdsLive))
      }
      const items = yield* activity(agent, "&sourceKinds=PRODUCT_EVIDENCE")
      expect(items).toEqual([expect.objectContaining({
        activityKey: "run.completed",
        summary: "Completed a scheduled run.",
        evidencePublicId: scheduled,
        network: null
      })])
    }))
})
