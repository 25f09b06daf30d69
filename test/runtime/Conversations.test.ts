/**
 * Runtime_CreateConversation, Runtime_ListConversations and Runtime_ListMessages
 * through the HTTP stack: creation (roles, retired agent, replay),
 * who sees which conversation, cursor pages in their order.
 */
import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoConversations, DemoRuns, DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { tamper } from "../support/cursor.js"
import { call, type CallOptions, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { awaitRun } from "./support.js"

const server = makeTestServer()
const agentPath = (agent: string) => `/api/v1/agents/${agent}/conversations`
const messagesPath = (conversation: string) => `/api/v1/conversations/${conversation}/messages`

type Account = keyof typeof DemoAccounts

const as = (method: "GET" | "POST", path: string, account: Account, options: CallOptions = {}) =>
  Effect.gen(function*() {
    return yield* call(method, path, { session: yield* signIn(account), ...options })
  })

const create = (body: unknown, account: Account = "member", agent: string = DemoRuntimeAgents.configured, options: CallOptions = {}) =>
  as("POST", agentPath(agent), account, { body, ...options })

/** Every page of a cursor list, following `nextCursor`; returns the items and the cursors seen. */
const allPages = (path: string, account: Account, limit: number) =>
  Effect.gen(function*() {
    const session = yield* signIn(account)
    const items: Array<any> = []
    const cursors: Array<string> = []
    let cursor: string | null = null
    for (let i = 0; i < 50; i++) {
      const query: string = `limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
      const reply = yield* call("GET", `${path}?${query}`, { session })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data.length).toBeLessThanOrEqual(limit)
      items.push(...reply.body.data)
      cursor = reply.body.nextCursor
      if (cursor === null) return { items, cursors }
      cursors.push(cursor)
    }
    throw new Error("too many pages")
  })

const conversationKeys = [
  "activeRunId", "authorAccountId", "createdAt", "entityPublicId", "id", "kind", "lastMessageAt", "title", "updatedAt"
]

layer(server.layer)("Runtime conversations", (it) => {
  it.effect("201 Runtime_CreateConversation: the caller's conversation, its messages' URL in Location", () =>
    Effect.gen(function*() {
      const reply = yield* create({ title: "Pricing research", kind: "PLAYGROUND" })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      const conversation = reply.body.data
      expect(Object.keys(conversation).sort()).toEqual(conversationKeys)
      expect(conversation).toEqual({
        id: conversation.id,
        entityPublicId: DemoRuntimeAgents.configured,
        kind: "PLAYGROUND",
        title: "Pricing research",
        authorAccountId: DemoAccounts.member.id,
        createdAt: "2026-06-01T00:00:00.000Z",
        updatedAt: "2026-06-01T00:00:00.000Z",
        lastMessageAt: null,
        activeRunId: null
      })
      expect(reply.headers["location"]).toBe(`/api/v1/conversations/${conversation.id}/messages`)
      // the Location names its (empty) messages
      const messages = yield* as("GET", reply.headers["location"]!, "member")
      expect(messages.status, messages.text).toBe(200)
      expect(messages.body).toMatchObject({ data: [], nextCursor: null })

      // defaults: CHAT, no title
      const plain = yield* create({})
      expect(plain.status, plain.text).toBe(201)
      expect(plain.body.data).toMatchObject({ kind: "CHAT", title: null, authorAccountId: DemoAccounts.member.id })
      expect(plain.body.data.id).not.toBe(conversation.id)
    }))

  it.effect("201 replayed for the same Idempotency-Key: same conversation, same Location, one row", () =>
    Effect.gen(function*() {
      const key = randomUUID()
      const session = yield* signIn("owner")
      const first = yield* call("POST", agentPath(DemoRuntimeAgents.configured), { session, idempotencyKey: key, body: { title: "Once" } })
      expect(first.status, first.text).toBe(201)
      const again = yield* call("POST", agentPath(DemoRuntimeAgents.configured), { session, idempotencyKey: key, body: { title: "Once" } })
      expect(again.status, again.text).toBe(201)
      expect(again.body.data).toEqual(first.body.data)
      expect(again.headers["location"]).toBe(first.headers["location"])
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT id FROM conversations WHERE title = 'Once'`
      expect(rows.map((r) => r["id"])).toEqual([first.body.data.id])
      // another body with the same key is a conflict, not a second conversation
      expectProblem(
        yield* call("POST", agentPath(DemoRuntimeAgents.configured), { session, idempotencyKey: key, body: { title: "Twice" } }),
        409,
        "idempotency-key-reuse"
      )
    }))

  it.effect("no runtime needed: the unconfigured agent takes a conversation", () =>
    Effect.gen(function*() {
      const reply = yield* create({ title: "Before configuring" }, "owner", DemoRuntimeAgents.unconfigured)
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data.entityPublicId).toBe(DemoRuntimeAgents.unconfigured)
    }))

  it.effect("403 role-required for a VIEWER; 404 agent-not-found outside the caller's workspaces", () =>
    Effect.gen(function*() {
      // the admin account is a VIEWER of Acme
      expectProblem(yield* create({ title: "x" }, "admin"), 403, "role-required")
      expectProblem(yield* create({ title: "x" }, "outsider"), 404, "agent-not-found")
      expectProblem(yield* create({ title: "x" }, "member", DemoRuntimeAgents.foreign), 404, "agent-not-found")
      expectProblem(yield* create({ title: "x" }, "member", DemoRuntimeAgents.unoperated), 404, "agent-not-found")
      expectProblem(yield* create({ title: "x" }, "member", randomUUID()), 404, "agent-not-found")
      const sql = yield* SqlClient.SqlClient
      expect(yield* sql`SELECT id FROM conversations WHERE title = 'x'`).toEqual([])
    }))

  it.effect("409 invalid-state for a retired agent", () =>
    Effect.gen(function*() {
      const agent = yield* as("POST", "/api/v1/agents", "owner", {
        body: { workspaceId: DemoWorkspaces.acme.id, name: "Soon Retired", canonicalSlug: "soon-retired" }
      })
      expect(agent.status, agent.text).toBe(201)
      const id = agent.body.data.entityId
      expect((yield* create({ title: "alive" }, "member", id)).status).toBe(201)
      const retired = yield* as("POST", `/api/v1/agents/${id}/retire`, "owner", { body: { expectedVersion: agent.body.data.version } })
      expect(retired.status, retired.text).toBe(200)
      const refused = yield* create({ title: "too late" }, "member", id)
      expectProblem(refused, 409, "invalid-state")
      // but its conversations can still be read
      const list = yield* as("GET", agentPath(id), "member")
      expect(list.status, list.text).toBe(200)
      expect(list.body.data.map((c: any) => c.title)).toEqual(["alive"])
    }))

  it.effect("400 on a bad body: the field and the rule, never the value", () =>
    Effect.gen(function*() {
      const empty = yield* create({ title: "" })
      expectProblem(empty, 400)
      expect(empty.body.errors.map((e: any) => e.pointer)).toContain("/title")
      const long = yield* create({ title: "y".repeat(201) })
      expectProblem(long, 400)
      expect(long.text).not.toContain("y".repeat(201))
      const kind = yield* create({ kind: "GROUP_CHAT" })
      expectProblem(kind, 400)
      expect(kind.body.errors.map((e: any) => e.pointer)).toContain("/kind")
      expect(kind.text).not.toContain("GROUP_CHAT")
      const extra = yield* create({ title: "ok", authorAccountId: DemoAccounts.owner.id })
      expectProblem(extra, 400)
      expectProblem(yield* create({ title: "ok" }, "member", DemoRuntimeAgents.configured, { idempotencyKey: null }), 400, "idempotency-key-required")
    }))

  it.effect("Runtime_ListConversations: OWNER sees all of the agent's, others only their own, newest update first", () =>
    Effect.gen(function*() {
      const owner = yield* as("GET", agentPath(DemoRuntimeAgents.configured), "owner")
      expect(owner.status, owner.text).toBe(200)
      expect(owner.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(owner)
      expect(Object.keys(owner.body).sort()).toEqual(["data", "meta", "nextCursor"])
      const all = owner.body.data as Array<any>
      // the demo's three and every one the tests above created, of both authors
      for (const c of Object.values(DemoConversations)) expect(all.map((x) => x.id)).toContain(c.id)
      expect(new Set(all.map((c) => c.authorAccountId))).toEqual(new Set([DemoAccounts.owner.id, DemoAccounts.member.id]))
      expect(all.every((c) => c.entityPublicId === DemoRuntimeAgents.configured)).toBe(true)
      // most recently updated first, ties by id descending
      const sorted = [...all].sort((a, b) => a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : (a.updatedAt < b.updatedAt ? 1 : -1))
      expect(all.map((c) => c.id)).toEqual(sorted.map((c) => c.id))
      // the demo's active playground: its last message and its running run
      const active = all.find((c) => c.id === DemoConversations.active.id)
      expect(active).toMatchObject({ kind: "PLAYGROUND", title: null, activeRunId: DemoRuns[3].id, lastMessageAt: "2026-03-24T00:03:00.000Z" })
      expect(all.find((c) => c.id === DemoConversations.chat.id)).toMatchObject({ activeRunId: null, authorAccountId: DemoAccounts.member.id })

      const member = yield* as("GET", agentPath(DemoRuntimeAgents.configured), "member")
      expect(member.status, member.text).toBe(200)
      expect(member.body.data.length).toBeGreaterThan(1)
      expect(member.body.data.every((c: any) => c.authorAccountId === DemoAccounts.member.id)).toBe(true)
      expect(member.body.data.map((c: any) => c.id)).toEqual(all.filter((c) => c.authorAccountId === DemoAccounts.member.id).map((c) => c.id))

      // a VIEWER who started none sees none; outside the workspace the agent is not found
      const viewer = yield* as("GET", agentPath(DemoRuntimeAgents.configured), "admin")
      expect(viewer.status, viewer.text).toBe(200)
      expect(viewer.body).toMatchObject({ data: [], nextCursor: null })
      expectProblem(yield* as("GET", agentPath(DemoRuntimeAgents.configured), "outsider"), 404, "agent-not-found")
      expectProblem(yield* as("GET", agentPath(randomUUID()), "owner"), 404, "agent-not-found")
    }))

  it.effect("cursor pages: every conversation once, in order; a tampered or foreign cursor is 400", () =>
    Effect.gen(function*() {
      const full = yield* as("GET", `${agentPath(DemoRuntimeAgents.configured)}?limit=100`, "owner")
      const ids = full.body.data.map((c: any) => c.id)
      expect(ids.length).toBeGreaterThanOrEqual(5)
      const paged = yield* allPages(agentPath(DemoRuntimeAgents.configured), "owner", 2)
      expect(paged.items.map((c) => c.id)).toEqual(ids)
      expect(paged.cursors.length).toBe(Math.ceil(ids.length / 2) - 1)

      const cursor = paged.cursors[0]!
      const bad = yield* as("GET", `${agentPath(DemoRuntimeAgents.configured)}?cursor=${encodeURIComponent(tamper(cursor, 3))}`, "owner")
      expectProblem(bad, 400, "invalid-cursor")
      expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: "/cursor" })])
      // bound to the caller and to the agent
      expectProblem(yield* as("GET", `${agentPath(DemoRuntimeAgents.configured)}?cursor=${encodeURIComponent(cursor)}`, "member"), 400, "invalid-cursor")
      expectProblem(yield* as("GET", `${agentPath(DemoRuntimeAgents.unconfigured)}?cursor=${encodeURIComponent(cursor)}`, "owner"), 400, "invalid-cursor")
      expectProblem(yield* as("GET", `${agentPath(DemoRuntimeAgents.configured)}?limit=0`, "owner"), 400)
      expectProblem(yield* as("GET", `${agentPath(DemoRuntimeAgents.configured)}?limit=101`, "owner"), 400)
    }))

  it.effect("sending moves the conversation to the front, with its last message and active run", () =>
    Effect.gen(function*() {
      server.clock.advance(60_000)
      const created = yield* create({ title: "Will be first" }, "owner")
      expect(created.status, created.text).toBe(201)
      const conversation = created.body.data.id
      server.clock.advance(60_000)
      // another conversation, newer: the first one is not at the front any more
      expect((yield* create({ title: "Newer" }, "owner")).status).toBe(201)
      server.clock.advance(60_000)
      const sent = yield* as("POST", messagesPath(conversation), "owner", { body: { content: "Hello" } })
      expect(sent.status, sent.text).toBe(202)
      const at = "2026-06-01T00:03:00.000Z"
      const list = yield* as("GET", agentPath(DemoRuntimeAgents.configured), "owner")
      expect(list.body.data[0]).toMatchObject({ id: conversation, updatedAt: at, lastMessageAt: at })
      expect([null, sent.body.data.run.id]).toContain(list.body.data[0].activeRunId)
      expect((yield* awaitRun(sent.body.data.run.id)).state).toBe("SUCCEEDED")
      const after = yield* as("GET", agentPath(DemoRuntimeAgents.configured), "owner")
      expect(after.body.data[0]).toMatchObject({ id: conversation, activeRunId: null, createdAt: "2026-06-01T00:01:00.000Z" })
    }))

  it.effect("Runtime_ListMessages: ordinal order across pages; messages added later come on later pages", () =>
    Effect.gen(function*() {
      const created = yield* create({ title: "Many messages" })
      const conversation = created.body.data.id
      for (const content of ["one", "two", "three"]) {
        const sent = yield* as("POST", messagesPath(conversation), "member", { body: { content } })
        expect(sent.status, sent.text).toBe(202)
        expect((yield* awaitRun(sent.body.data.run.id)).state).toBe("SUCCEEDED")
      }
      const first = yield* as("GET", messagesPath(conversation), "member")
      expect(first.status, first.text).toBe(200)
      expect(first.headers["cache-control"]).toBe("private, no-cache")
      expectMeta(first)
      expect(first.body.nextCursor).toBeNull()
      expect(first.body.data.map((m: any) => [m.ordinal, m.role, m.state])).toEqual([
        ["1", "user", "COMPLETE"], ["2", "assistant", "COMPLETE"], ["3", "user", "COMPLETE"],
        ["4", "assistant", "COMPLETE"], ["5", "user", "COMPLETE"], ["6", "assistant", "COMPLETE"]
      ])
      expect(first.body.data[4].contentText).toBe("three")
      expect(first.body.data[5].contentText).toMatch(/^demo-echo-1 received: "three"/)

      const paged = yield* allPages(messagesPath(conversation), "member", 4)
      expect(paged.items).toEqual(first.body.data)
      expect(paged.cursors.length).toBe(1)
      // a page's cursor still works after more messages arrive: they come after it
      const sent = yield* as("POST", messagesPath(conversation), "member", { body: { content: "four" } })
      expect((yield* awaitRun(sent.body.data.run.id)).state).toBe("SUCCEEDED")
      const rest = yield* as("GET", `${messagesPath(conversation)}?limit=4&cursor=${encodeURIComponent(paged.cursors[0]!)}`, "member")
      expect(rest.status, rest.text).toBe(200)
      expect(rest.body.data.map((m: any) => m.ordinal)).toEqual(["5", "6", "7", "8"])
      expect(rest.body.nextCursor).toBeNull()

      // the cursor is bound to the conversation and the caller
      const cursor = encodeURIComponent(paged.cursors[0]!)
      expectProblem(yield* as("GET", `${messagesPath(DemoConversations.chat.id)}?cursor=${cursor}`, "member"), 400, "invalid-cursor")
      expectProblem(yield* as("GET", `${messagesPath(conversation)}?cursor=${cursor}`, "owner"), 400, "invalid-cursor")
      expectProblem(
        yield* as("GET", `${messagesPath(conversation)}?cursor=${encodeURIComponent(tamper(paged.cursors[0]!, 1))}`, "member"),
        400,
        "invalid-cursor"
      )
    }))

  it.effect("Runtime_ListMessages visibility: the author and OWNER/ADMIN; other members and outsiders get 404", () =>
    Effect.gen(function*() {
      // the member's demo chat
      const own = yield* as("GET", messagesPath(DemoConversations.chat.id), "member")
      expect(own.status, own.text).toBe(200)
      expect(own.body.data.slice(0, 2).map((m: any) => [m.ordinal, m.role, m.contentText])).toEqual([
        ["1", "user", "Size the EU market."], ["2", "assistant", "About 2.1 billion EUR in 2026."]
      ])
      expect(own.body.data[0].runId).toBe(DemoRuns[2].id)
      const byOwner = yield* as("GET", messagesPath(DemoConversations.chat.id), "owner")
      expect(byOwner.status, byOwner.text).toBe(200)
      expect(byOwner.body.data).toEqual(own.body.data)
      // the owner's playground: not the member's (an EDITOR), nor the VIEWER's
      expectProblem(yield* as("GET", messagesPath(DemoConversations.playground.id), "member"), 404, "conversation-not-found")
      expectProblem(yield* as("GET", messagesPath(DemoConversations.chat.id), "admin"), 404, "conversation-not-found")
      expectProblem(yield* as("GET", messagesPath(DemoConversations.chat.id), "outsider"), 404, "conversation-not-found")
      expectProblem(yield* as("GET", messagesPath(randomUUID()), "member"), 404, "conversation-not-found")
      expectProblem(yield* as("GET", messagesPath("not-a-uuid"), "member"), 400)
    }))
})
