/**
 * The OpenAPI description (spec §4.1, §9) is derived from the contract and says
 * what the spec says: operationIds, tags, x-* extensions, security, the
 * Idempotency-Key header, and exactly the listed statuses as problem+json.
 */
import { OpenApi } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/api/Api.js"
import { call } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

/** What spec §4 (and, for sign-in and sessions, issue 2) lists per operation. */
const expected = {
  Accounts_SignIn: { method: "post", path: "/api/v1/auth/sign-in", tag: "Accounts", auth: "public", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 429, 500, 503] },
  Accounts_ListSessions: { method: "get", path: "/api/v1/me/sessions", tag: "Accounts", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Accounts_RevokeSession: { method: "delete", path: "/api/v1/me/sessions/{sessionId}", tag: "Accounts", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 423, 429, 500] },
  // ours (issue 6 §4), not in the spec: the admin's view of background job runs
  Admin_ListJobRuns: { method: "get", path: "/api/v1/admin/jobs", tag: "Admin", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Agents_ListFavoriteAgents: { method: "get", path: "/api/v1/agents/favorites", tag: "Agents", auth: "required-user", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 500, 503] },
  Commerce_ListCommerceOrders: { method: "get", path: "/api/v1/orders", tag: "Commerce", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  // spec §4.3 lists 200, 500, 503; a presented API key that is not valid is refused
  // with the one 401 of spec §5.3 (403 without the scope), so those are declared too
  Protocols_GetProtocolCatalog: { method: "get", path: "/api/v1/protocols", tag: "Protocols", auth: "public", cache: "public-catalog", scopes: ["public:read"], idempotency: false, statuses: [200, 401, 403, 500, 503] },
  Services_PublishServiceOffer: { method: "post", path: "/api/v1/offers/{offerId}/publish", tag: "Services", auth: "required-user", cache: "none", scopes: [], idempotency: true, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Workspaces_GetWorkspace: { method: "get", path: "/api/v1/workspaces/{workspacePublicId}", tag: "Workspaces", auth: "required-user", cache: "private", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 423, 500] },
  // issue 9 admin operations (spec §4.2); several groups share the Growth and Jobs tags
  Growth_ListAdminTokenOperations: { method: "get", path: "/api/v1/admin/token-operations", tag: "Growth", auth: "required-admin", cache: "none", scopes: [], idempotency: false, statuses: [200, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_ResolveBountyDispute: { method: "post", path: "/api/v1/admin/bounties/{bountyId}/disputes/{disputeId}/resolution", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] },
  Jobs_SyncPartnerJobSource: { method: "post", path: "/api/v1/admin/jobs/sources/{sourceId}/sync", tag: "Jobs", auth: "required-admin", cache: "none", scopes: [], idempotency: true, statuses: [202, 400, 401, 403, 404, 409, 500, 503] }
} as const

const server = makeTestServer()

layer(server.layer)("GET /openapi.json", (it) => {
  it.effect("is the description derived from Api, with the spec's info", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/openapi.json")
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(JSON.parse(JSON.stringify(OpenApi.fromApi(Api))))
      expect(reply.body.openapi).toBe("3.1.1")
      expect(reply.body.info).toMatchObject({ title: "Agent Directory API", version: "1.0.0" })
      expect(reply.body.components.securitySchemes).toEqual({
        cookieAuth: expect.objectContaining({ type: "apiKey", in: "cookie", name: "session" }),
        apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" })
      })
    }))

  it.effect("lists exactly the spec's operations, each with its extensions, security and statuses", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const found: Record<string, unknown> = {}
      for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(methods)) found[op.operationId] = { path, method, op }
      }
      expect(Object.keys(found).sort()).toEqual(Object.keys(expected).sort())
      const tagNames = (doc.tags as Array<{ name: string }>).map((t) => t.name)
      expect(tagNames).toEqual([...new Set(tagNames)])
      for (const [id, spec] of Object.entries(expected)) {
        const { method, op, path } = found[id] as { path: string; method: string; op: any }
        expect({ id, path, method }).toEqual({ id, path: spec.path, method: spec.method })
        expect(op.tags).toEqual([spec.tag])
        expect(op["x-auth-mode"]).toBe(spec.auth)
        expect(op["x-cache-policy"]).toBe(spec.cache)
        expect(op["x-required-scopes"]).toEqual(spec.scopes)
        expect(op["x-rate-cost"]).toBe(1)
        expect(op["x-stability"]).toBe("STABLE")
        expect(op.security).toEqual(spec.auth === "public" ? [{}, { apiKeyAuth: [] }] : [{ cookieAuth: [] }])
        expect(Object.keys(op.responses).map(Number).sort((a, b) => a - b), id).toEqual([...spec.statuses])
        for (const status of spec.statuses.filter((s) => s >= 400)) {
          expect(Object.keys(op.responses[String(status)].content), `${id} ${status}`).toEqual(["application/problem+json"])
        }
        const key = (op.parameters as Array<any>).find((p) => p.in === "header" && p.name === "Idempotency-Key")
        if (spec.idempotency) {
          expect(key, id).toMatchObject({ required: true, schema: expect.objectContaining({ format: "uuid" }) })
        } else {
          expect(key, id).toBeUndefined()
        }
      }
    }))

  it.effect("describes problems with the RFC 9457 members and request bodies as closed objects", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const problem = doc.components.schemas.Problem
      expect(problem.required).toEqual(["type", "title", "status", "detail", "instance", "requestId"])
      expect(problem.properties.errors.type).toBe("array")
      const publish = doc.paths["/api/v1/offers/{offerId}/publish"].post
      const body = publish.requestBody.content["application/json"].schema
      const resolved = body.$ref ? doc.components.schemas[body.$ref.split("/").pop()] : body
      expect(resolved).toMatchObject({ type: "object", required: ["version"], additionalProperties: false })
    }))
})

layer(server.layer)("GET /docs", (it) => {
  it.effect("serves the API reference UI", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/docs")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^text\/html/)
      expect(reply.text).toContain("Agent Directory API")
    }))
})
