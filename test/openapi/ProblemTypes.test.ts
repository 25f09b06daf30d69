/**
 * The problem causes as the contract declares them: the OpenAPI document lists, per
 * error status, the `oneOf` of the cause components an operation can answer with
 * (each with its `type` and `status` constant), and a typed client derived from the
 * `Api` decodes a problem into the class of its cause.
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { VersionConflict } from "../../schema/errors.js"
import { ProblemTypeBase } from "../../schema/problem.js"
import { Api } from "../../src/api/Api.js"
import { problemCatalogue } from "../../src/api/docs.js"
import { call, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { restoreOffers } from "../services/support.js"
import { DemoOffers } from "../../demo/services/seed.js"

const server = makeTestServer()

/** The names of the component schemas `node` refers to, transitively. */
const reachableFrom = (node: unknown, schemas: Record<string, any>, seen = new Set<string>()): Set<string> => {
  if (Array.isArray(node)) for (const item of node) reachableFrom(item, schemas, seen)
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const name = value.split("/").pop()!
        if (!seen.has(name)) {
          seen.add(name)
          reachableFrom(schemas[name], schemas, seen)
        }
      } else reachableFrom(value, schemas, seen)
    }
  }
  return seen
}

layer(server.layer)("problem types in /openapi.json", (it) => {
  it.effect("declares every problem type as a constant of a component reachable from an operation", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      const schemas: Record<string, any> = doc.components.schemas
      const operations = Object.values<Record<string, any>>(doc.paths).flatMap((methods) => Object.values<any>(methods))
      const reachable = reachableFrom(operations, schemas)
      // the type of each cause component, and whether an operation reaches it
      const constants = new Map<string, string>()
      for (const [name, schema] of Object.entries(schemas)) {
        const type = schema?.properties?.type?.const
        if (typeof type !== "string") continue
        expect(reachable.has(name), name).toBe(true)
        expect(type.startsWith(ProblemTypeBase), name).toBe(true)
        expect(schema.properties.status.const, name).toEqual(expect.any(Number))
        expect(schema.required, name).toEqual(["type", "title", "status", "detail", "instance", "requestId"])
        constants.set(type, name)
      }
      // every problem type the document names (descriptions included) is one of those constants
      const named = new Set(JSON.stringify(doc).match(/https:\/\/agent-directory\.dev\/problems\/[a-z0-9-]+/g))
      for (const type of named) expect(constants.has(type), type).toBe(true)
      // each error status: a oneOf of cause components of that status, the ones its description lists
      for (const op of operations) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) < 400) continue
          const members = response.content["application/problem+json"].schema.oneOf as Array<{ $ref: string }>
          expect(members.length, `${op.operationId} ${status}`).toBeGreaterThan(0)
          const types = members.map(({ $ref }) => {
            const component = schemas[$ref.split("/").pop()!]
            expect(component.properties.status.const, `${op.operationId} ${status} ${$ref}`).toBe(Number(status))
            return component.properties.type.const as string
          })
          const line = (op.description as string).split("\n").find((l) => l.startsWith(`- ${status}: `))!
          expect(new Set(line.match(/https:\/\/agent-directory\.dev\/problems\/[a-z0-9-]+/g)), `${op.operationId} ${status}`)
            .toEqual(new Set(types))
        }
      }
      // the catalogue derived from the Api holds the same types, with the two the old hand-kept list lacked
      const catalogue = problemCatalogue(Api)
      expect(new Set(catalogue.map((c) => c.type))).toEqual(new Set(constants.keys()))
      expect(catalogue.find((c) => c.slug === "sign-in-throttled")).toMatchObject({ status: 429, tag: "SignInThrottled" })
    }))
})

layer(server.layer)("a typed client of the Api", (it) => {
  it.effect("receives a VersionConflict for a stale publish of an offer", () =>
    Effect.gen(function*() {
      yield* restoreOffers
      const owner = yield* signIn("owner")
      const client = yield* HttpApiClient.make(Api, {
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeaders({ cookie: owner.cookie, "x-csrf-token": owner.csrf }))
      })
      const error = yield* client.Services.publishServiceOffer({
        path: { offerId: DemoOffers.review.id },
        payload: { version: 1 },
        headers: { "idempotency-key": "0190ffff-0000-7000-8000-0000000000c1" }
      }).pipe(Effect.flip)
      expect(error._tag).toBe("VersionConflict")
      expect(error).toBeInstanceOf(VersionConflict)
      expect(error).toMatchObject({ status: 409, type: `${ProblemTypeBase}version-conflict`, title: "Conflict" })
      expect((error as VersionConflict).detail).toMatch(/\bversion 2\b/)
    }))
})
