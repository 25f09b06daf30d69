/**
 * The OpenAPI description (spec §4.1, §9) is derived from the contract and says
 * what the spec says: operationIds, tags, x-* extensions, security, the
 * Idempotency-Key header, and exactly the listed statuses as problem+json. It is
 * also usable: every operation is described with the problem types of
 * each status, its examples are the demo manifest's requests (whose answers test/openapi/Examples.test.ts checks), Spectral's `spectral:oas`
 * ruleset finds nothing, and `/docs` loads nothing from outside the server.
 */
import { OpenApi } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import spectralCore from "@stoplight/spectral-core"
import spectralParsers from "@stoplight/spectral-parsers"
import { oas } from "@stoplight/spectral-rulesets"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Effect } from "effect"
import { existsSync, readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { problemCatalogue } from "../../src/api/docs.js"
import { Api } from "../../src/api/Api.js"
import { demoManifest, type ManifestOperation } from "../../demo/manifest.js"
import { documentedApi } from "../../demo/DocumentedApi.js"
import { onPostgres } from "../support/database.js"
import { call } from "../support/http.js"
import { routeOf } from "../support/manifest.js"
import { makeTestServer } from "../support/TestServer.js"
import { areaOperations, type OperationExpectation } from "./operations.js"

/** Every operation of the description: the areas' expectations (`test/<area>/operations.ts`), merged. */
const expected: Readonly<Record<string, OperationExpectation>> = Object.assign({}, ...Object.values(areaOperations))

/** The test/ folder. */
const testRoot = join(dirname(fileURLToPath(import.meta.url)), "..")

const server = makeTestServer()

layer(server.layer)("GET /openapi.json", (it) => {
  it.effect("is the description derived from Api (with the demo examples of the assembly), with the spec's info", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/openapi.json")
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(JSON.parse(JSON.stringify(OpenApi.fromApi(documentedApi(Api)))))
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
      // each operation is one area's, and every area test folder with expectations is assembled (this folder's
      // operations.ts is the assembly)
      const listed = Object.values(areaOperations).flatMap((rows) => Object.keys(rows))
      expect(listed.length).toBe(new Set(listed).size)
      const folders = readdirSync(testRoot, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== "openapi" && existsSync(join(testRoot, entry.name, "operations.ts")))
        .map((entry) => entry.name)
      expect(folders.sort()).toEqual(Object.keys(areaOperations).sort())
      const tagNames = (doc.tags as Array<{ name: string }>).map((t) => t.name)
      expect(tagNames).toEqual([...new Set(tagNames)])
      for (const [id, spec] of Object.entries(expected)) {
        const { method, op, path } = found[id] as { path: string; method: string; op: any }
        expect({ id, path, method }).toEqual({ id, path: spec.path, method: spec.method })
        expect(op.tags).toEqual([spec.tag])
        expect(op["x-auth-mode"]).toBe(spec.auth)
        expect(op["x-cache-policy"]).toBe(spec.cache)
        expect(op["x-required-scopes"]).toEqual(spec.scopes)
        expect(op["x-rate-cost"]).toBe(spec.cost ?? 1)
        expect(op["x-stability"]).toBe("STABLE")
        expect(op.security).toEqual(
          spec.auth === "public" ? [{}, { apiKeyAuth: [] }]
            : spec.auth === "optional-user" ? [{}, { apiKeyAuth: [] }, { cookieAuth: [] }]
            : [{ cookieAuth: [] }]
        )
        expect(Object.keys(op.responses).map(Number).sort((a, b) => a - b), id).toEqual([...spec.statuses])
        for (const status of spec.statuses.filter((s) => s >= 400)) {
          expect(Object.keys(op.responses[String(status)].content), `${id} ${status}`).toEqual(["application/problem+json"])
        }
        const key = (op.parameters as Array<any>).find((p) => p.in === "header" && p.name === "Idempotency-Key")
        if (spec.idempotency === "optional") {
          expect(key, id).toMatchObject({ required: false, schema: expect.objectContaining({ format: "uuid" }) })
        } else if (spec.idempotency) {
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
  it.effect("publishes Agents_ListAgents's repeated filters as arrays with their bounds", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/openapi.json")
      const params = reply.body.paths["/api/v1/agents"].get.parameters as ReadonlyArray<any>
      const schemaOf = (name: string) => params.find((p) => p.name === name && p.in === "query")?.schema
      expect(schemaOf("networks")).toMatchObject({ type: "array", maxItems: 20 })
      expect(schemaOf("protocols")).toMatchObject({ type: "array", maxItems: 20 })
      expect(schemaOf("verificationStates")).toMatchObject({ type: "array", maxItems: 6 })
      expect(JSON.stringify(schemaOf("verificationStates").items)).toContain("CONFLICTED")
      expect(schemaOf("limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 })
    }))

  it.effect("serves the API reference UI", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/docs")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^text\/html/)
      expect(reply.text).toContain("Agent Directory API")
    }))
})

/** Every operation of the served description, with its path and method. */
const operationsOf = (doc: any): Array<{ path: string; method: string; op: any }> =>
  Object.entries<Record<string, any>>(doc.paths).flatMap(([path, methods]) =>
    Object.entries<any>(methods).map(([method, op]) => ({ path, method, op }))
  )

layer(server.layer)("GET /openapi.json is usable", (it) => {
  it.effect("describes every operation, with the problem types each listed status can carry", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const catalogue = problemCatalogue(Api)
      for (const { op } of operationsOf(doc)) {
        const id = op.operationId
        // the operation's own text comes first, before the generated "Try it" and problem sections
        expect((op.description as string).split("\n\n")[0]!.length, id).toBeGreaterThan(60)
        for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
          // the problem response names its kinds, and the description links each under its status
          const kinds = op.responses[status].description.split(": ")[1].split(", ")
          expect(kinds.length, `${id} ${status}`).toBeGreaterThan(0)
          const line = (op.description as string).split("\n").find((l) => l.startsWith(`- ${status}: `))
          expect(line, `${id} ${status}`).toBeDefined()
          for (const kind of kinds) {
            const cause = catalogue.find((c) => c.slug === kind && c.status === Number(status))
            expect(cause, `${id} ${status} ${kind}`).toBeDefined()
            expect(line, `${id} ${status}`).toContain(cause!.type)
          }
        }
      }
      const publish = operationsOf(doc).find((o) => o.op.operationId === "Services_PublishServiceOffer")!.op
      expect(publish.responses["409"].description).toMatch(/version-conflict, invalid-state, offer-incomplete, conflict, idempotency-key-reuse/)
      expect(publish.responses["403"].description).toMatch(/role-required.*csrf-token-invalid/)
      const revoke = operationsOf(doc).find((o) => o.op.operationId === "Accounts_RevokeSession")!.op
      expect(revoke.responses["423"].description).toBe("Locked: policy-locked")
      expect(revoke.responses["403"].description).toContain("reauthentication-required")
    }))

  it.effect("names the running server, a contact and a license", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })])
      expect(doc.info.contact).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^https:/) })
      expect(doc.info.license).toMatchObject({ name: expect.any(String) })
    }))

  // the description does not depend on the database: the two slow linters run in the embedded pass only
  it.effect.skipIf(onPostgres)("has no Spectral spectral:oas finding", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).text
      const spectral = new spectralCore.Spectral()
      spectral.setRuleset({ extends: [[oas as never, "recommended"]] })
      const findings = yield* Effect.promise(() => spectral.run(new spectralCore.Document(doc, spectralParsers.Json)))
      expect(findings.map((f) => `${f.code} ${f.path.join(".")}: ${f.message}`)).toEqual([])
    }), 240_000)

  it.effect.skipIf(onPostgres)("is valid OpenAPI 3.1 for a strict validator (@seriousme/openapi-schema-validator)", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const validator = new Validator()
      const result = yield* Effect.promise(() => validator.validate(doc))
      expect(result.errors).toBeUndefined()
      expect(result.valid).toBe(true)
      expect(validator.version).toBe("3.1")
      // what it once refused: Schema.Unknown's "$id": "/schemas/unknown", twice; no schema has an $id now
      expect(JSON.stringify(doc)).not.toContain('"$id"')
    }), 120_000)

  it.effect("has a meta without placeholder members (closed Meta)", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      expect(doc.components.schemas.Meta.additionalProperties).toBe(false)
      expect(JSON.stringify(doc)).not.toContain("propertyName")
    }))

  it.effect("declares no framework decode error (the api copy of src/api/Api.ts still holds)", () =>
    Effect.gen(function*() {
      expect(Api.errorSchema.ast._tag).toBe("NeverKeyword")
      const doc = (yield* call("GET", "/openapi.json")).text
      expect(doc).not.toContain("HttpApiDecodeError")
    }))

  it.effect("carries examples that are the demo manifest's requests, built as the docs' request panel builds them", () =>
    Effect.gen(function*() {
      // the answers to these requests are checked by test/openapi/Examples.test.ts (success, or the documented
      // problem, equal to the stored example); here: the description alone rebuilds exactly those requests
      const doc = (yield* call("GET", "/openapi.json")).body
      for (const { method, op, path } of operationsOf(doc)) {
        const id: string = op.operationId
        const params: Array<any> = op.parameters
        for (const p of params.filter((p) => p.required)) expect(p.example, `${id} ${p.in} ${p.name}`).toBeDefined()
        const content = op.requestBody?.content ?? {}
        for (const type of Object.keys(content)) expect(content[type].example, `${id} body`).toBeDefined()
        const command = method !== "get"
        const session = op.security.some((s: any) => "cookieAuth" in s)
        const csrf = params.find((p) => p.in === "header" && p.name === "X-CSRF-Token")
        expect(csrf !== undefined, `${id} X-CSRF-Token`).toBe(command && session)
        const key = params.find((p) => p.in === "header" && p.name === "Idempotency-Key")
        if (key !== undefined) expect(key.example, id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        const manifest = (demoManifest.operations as Record<string, ManifestOperation>)[id]!
        const [manifestMethod, pattern] = routeOf(id)
        expect(method.toUpperCase(), id).toBe(manifestMethod)
        // the request from the description alone, beside the manifest's
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params.find((p) => p.name === name).example))
        expect(url, id).toBe(pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(manifest.path[name]!)))
        const query = Object.fromEntries(params.filter((p) => p.in === "query" && p.example !== undefined).map((p) => [p.name, String(p.example)]))
        expect(query, id).toEqual(Object.fromEntries(Object.entries(manifest.query).map(([k, v]) => [k, String(v)])))
        expect(content["application/json"]?.example ?? null, id).toEqual(manifest.body)
        const headers = Object.fromEntries(
          params.filter((p) => p.in === "header" && p.example !== undefined && !["Idempotency-Key", "X-CSRF-Token", "X-API-Key"].includes(p.name))
            .map((p) => [p.name.toLowerCase(), String(p.example)])
        )
        expect(headers, id).toEqual(manifest.headers ?? {})
        // the caller the "Try it" line names
        if (manifest.as !== "anonymous" && manifest.as !== "apiKey:public") expect(op.description, id).toContain(demoManifest.accounts[manifest.as].email)
      }
    }))
})

layer(server.layer)("GET /docs and GET /", (it) => {
  it.effect("the docs page references nothing outside the server and asks for no web fonts", () =>
    Effect.gen(function*() {
      const html = (yield* call("GET", "/docs")).text
      // the inlined Scalar bundle mentions URLs in its strings; what the page loads is in attributes and its configuration
      const withoutScripts = html.replace(/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g, "")
      expect(withoutScripts).not.toMatch(/https?:\/\//)
      expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/)
      // the configuration is the data block's attribute (no inline script: the page runs under a CSP, SecurityHeaders.test.ts)
      const config = /data-configuration="([^"]*)"/.exec(html)
      // in development the request panel is pre-filled with the demo public key, not Scalar's "YOUR_SECRET_TOKEN"
      expect(JSON.parse(config![1]!.replace(/&quot;/g, "\"").replace(/&amp;/g, "&"))).toMatchObject({
        withDefaultFonts: false,
        authentication: { securitySchemes: { apiKeyAuth: { value: demoManifest.apiKeys.public.key } } }
      })
    }))

  it.effect("GET / links to the docs and the description", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/")
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toMatch(/^application\/json/)
      expect(reply.body.links).toEqual({
        docs: "/docs",
        openapi: "/openapi.json",
        mcp: "/mcp",
        agentCard: "/.well-known/agent-card.json"
      })
      // the MCP endpoint answers MCP requests (POST, Streamable HTTP), tested in test/mcp; the others are documents
      const { mcp: _, ...documents } = reply.body.links
      for (const link of Object.values<string>(documents)) expect((yield* call("GET", link)).status).toBe(200)
    }))
})
