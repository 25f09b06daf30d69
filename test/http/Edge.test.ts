/**
 * The request edge (src/http/RequestBody.ts, schema/common.ts):
 * media type, U+0000, nesting depth, body size, strict query integers, and problems
 * that name the field and the rule but never echo the value sent. Through the real
 * HTTP stack; raw `node:http` where the client must keep sending while the server answers.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import http from "node:http"
import { randomUUID } from "node:crypto"
import { call, expectProblem, type Reply, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { TextRule } from "../../src/http/RequestText.js"
import { DemoOffers } from "../../demo/services/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"

const signInPath = "/api/v1/auth/sign-in"
const publishPath = `/api/v1/offers/${DemoOffers[Object.keys(DemoOffers)[0] as keyof typeof DemoOffers].id}/publish`
const favoritesPath = "/api/v1/agents/favorites"

/** A problem body stays small whatever the input. */
const expectSmall = (reply: Reply) => expect(Buffer.byteLength(reply.text)).toBeLessThan(4096)

/** The test server's TCP port. */
const serverPort = Effect.map(HttpServer.HttpServer, (server) => (server.address as HttpServer.TcpAddress).port)

interface RawReply {
  readonly status: number
  readonly text: string
  /** Bytes of the body written when the response arrived. */
  readonly sentWhenAnswered: number
}

/**
 * POSTs `total` bytes of JSON-ish filler in 64 KiB chunks through `node:http`, never
 * ending the request, and resolves with the response (or the cut connection) as soon
 * as it arrives.
 */
const postWithoutEnd = (port: number, headers: Record<string, string>, total: number) =>
  Effect.async<RawReply>((resume) => {
    let sent = 0
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: signInPath, headers })
    // a connection the server cut resolves as status 0
    req.on("error", () => resume(Effect.succeed({ status: 0, text: "", sentWhenAnswered: sent })))
    req.on("response", (res) => {
      const answeredAt = sent
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => {
        req.destroy()
        resume(Effect.succeed({ status: res.statusCode ?? 0, text, sentWhenAnswered: answeredAt }))
      })
    })
    const chunk = Buffer.alloc(64 * 1024, "a")
    const pump = () => {
      while (sent < total && !req.destroyed) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
    }
    req.write(`{"email":"a@b.c","password":"`)
    pump()
    return Effect.sync(() => req.destroy())
  })

layer(makeTestServer().layer)("The request edge", (it) => {
  it.effect("refuses a body whose media type is not exactly application/json with 400 unsupported-content-type", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const body = JSON.stringify({ email: "owner@demo.agent-directory.dev", password: "x" })
      for (const contentType of ["multipart/form-data; boundary=x", "application/jsonx", "application/json-patch+json", "text/plain", "application/x-www-form-urlencoded"]) {
        const signInReply = yield* call("POST", signInPath, { raw: body, contentType })
        expectProblem(signInReply, 400, "unsupported-content-type")
        expect(signInReply.body.errors).toEqual([{ in: "header", pointer: "/content-type", detail: "must be application/json" }])
        const publishReply = yield* call("POST", publishPath, { raw: `{"version":1}`, contentType, session: owner })
        expectProblem(publishReply, 400, "unsupported-content-type")
      }
    }))

  it.effect("accepts application/json with parameters, in any case", () =>
    Effect.gen(function*() {
      for (const contentType of ["application/json; charset=utf-8", "Application/JSON"]) {
        const reply = yield* call("POST", signInPath, {
          raw: JSON.stringify({ email: "owner@demo.agent-directory.dev", password: "demo-owner-password" }),
          contentType
        })
        expect(reply.status, reply.text).toBe(200)
      }
    }))

  it.effect("refuses U+0000 in any request string with a 400 naming the field (body, query, path)", () =>
    Effect.gen(function*() {
      const body = yield* call("POST", signInPath, { raw: `{"email":"\\u0000@b.c","password":"x"}` })
      expectProblem(body, 400, "invalid-request")
      expect(body.body.errors).toEqual([{ in: "body", pointer: "/email", detail: TextRule }])

      const password = yield* call("POST", signInPath, { raw: `{"email":"a@b.c","password":"x\\u0000"}` })
      expectProblem(password, 400, "invalid-request")
      expect(password.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/password"])

      const owner = yield* signIn("owner")
      const query = yield* call("GET", `${favoritesPath}?cursor=%00`, { session: owner })
      expectProblem(query, 400, "invalid-request")
      expect(query.body.errors).toEqual([{ in: "query", pointer: "/cursor", detail: TextRule }])

      const path = yield* call("DELETE", "/api/v1/me/sessions/a%00b", { session: owner })
      expectProblem(path, 400, "invalid-request")
      expect(path.body.errors).toEqual([{ in: "path", pointer: "/sessionId", detail: TextRule }])
    }))

  it.effect("refuses JSON nested deeper than 64 levels with 400 nesting-too-deep, before decoding", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const deepArray = `{"email":${"[".repeat(5000)}${"]".repeat(5000)},"password":"x"}`
      const a = yield* call("POST", signInPath, { raw: deepArray })
      expectProblem(a, 400, "nesting-too-deep")
      expectSmall(a)
      const deepObject = `{"version":${`{"a":`.repeat(5000)}1${"}".repeat(5000)}}`
      const b = yield* call("POST", publishPath, { raw: deepObject, session: owner })
      expectProblem(b, 400, "nesting-too-deep")
      // 64 levels is allowed (and then fails validation as an ordinary 400)
      const ok = yield* call("POST", signInPath, { raw: `${"[".repeat(64)}${"]".repeat(64)}` })
      expectProblem(ok, 400, "invalid-request")
      // brackets inside strings do not count: this body is admitted (and the credential refused)
      const inString = yield* call("POST", signInPath, { raw: JSON.stringify({ email: "[".repeat(300), password: "\"{" }) })
      expectProblem(inString, 401, "unauthenticated")
    }))

  it.effect("refuses a 2 MiB body with 400 body-too-large", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", signInPath, { body: { email: "a@b.c", password: "p".repeat(2 * 1024 * 1024) } })
      expectProblem(reply, 400, "body-too-large")
      expect(reply.body.errors).toEqual([{ in: "body", pointer: "", detail: "must be at most 1048576 bytes" }])
      expectSmall(reply)
    }))

  it.effect("stops reading a chunked body at the limit, while the client is still sending", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const total = 64 * 1024 * 1024
      const reply = yield* postWithoutEnd(port, { "content-type": "application/json", "transfer-encoding": "chunked" }, total)
      // the answer arrives while the client is still sending (the rest flows by unread, the
      // connection is not cut), long before its end
      expect(reply.status, reply.text).toBe(400)
      expect(JSON.parse(reply.text).type).toBe("https://agent-directory.dev/problems/body-too-large")
      expect(reply.sentWhenAnswered).toBeLessThan(total / 4)
    }))

  it.effect("refuses a declared Content-Length over the limit without reading the body", () =>
    Effect.gen(function*() {
      const port = yield* serverPort
      const total = 4 * 1024 * 1024
      const reply = yield* postWithoutEnd(port, { "content-type": "application/json", "content-length": String(total) }, 0)
      expect(reply.status, reply.text).toBe(400)
      expect(JSON.parse(reply.text).type).toBe("https://agent-directory.dev/problems/body-too-large")
      expect(reply.sentWhenAnswered).toBe(0)
    }))

  it.effect("names the field and the rule, never the value: a 1,025-character password", () =>
    Effect.gen(function*() {
      const password = "S3cr3t-".repeat(147).slice(0, 1025)
      const reply = yield* call("POST", signInPath, { body: { email: "owner@demo.agent-directory.dev", password } })
      expectProblem(reply, 400, "invalid-request")
      expect(reply.body.errors).toEqual([{ in: "body", pointer: "/password", detail: "must be a string of 1-1024 characters without U+0000" }])
      expect(reply.text).not.toContain("S3cr3t")
      expectSmall(reply)
    }))

  it.effect("answers a 10,000-character limit with a small 400 that does not echo it", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", `${favoritesPath}?limit=${"7".repeat(10_000)}`, { session: owner })
      expectProblem(reply, 400, "invalid-request")
      expect(reply.body.errors).toEqual([{ in: "query", pointer: "/limit", detail: "must be an integer 1-100 in decimal digits" }])
      expect(reply.text).not.toContain("7777")
      expectSmall(reply)
    }))

  it.effect("accepts only canonical decimal digits for integer query parameters", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const workspacePath = `/api/v1/workspaces/${DemoWorkspaces.acme.id}`
      for (const limit of ["1e1", "0x10", "%205", "5%20", "%2B5", "05", "5.0", "-0", "1_0"]) {
        for (const path of [favoritesPath, workspacePath]) {
          const reply = yield* call("GET", `${path}?limit=${limit}`, { session: owner })
          expectProblem(reply, 400, "invalid-request")
          expect(reply.body.errors, limit).toEqual([{ in: "query", pointer: "/limit", detail: "must be an integer 1-100 in decimal digits" }])
        }
      }
      for (const path of [favoritesPath, workspacePath]) {
        expect((yield* call("GET", `${path}?limit=10`, { session: owner })).status).toBe(200)
      }
    }))

  it.effect("caps the errors of a 400 and keeps excess keys short", () =>
    Effect.gen(function*() {
      const body: Record<string, number> = { email: 1, password: 2 }
      for (let i = 0; i < 200; i++) body[`k${i}-${"x".repeat(500)}`] = i
      const reply = yield* call("POST", signInPath, { body })
      expectProblem(reply, 400, "invalid-request")
      expect(reply.body.errors.length).toBeLessThanOrEqual(20)
      expect(reply.text).not.toContain("x".repeat(300))
      expectSmall(reply)
    }))

  it.effect("publishes integer query parameters as integers in OpenAPI", () =>
    Effect.gen(function*() {
      const spec = (yield* call("GET", "/openapi.json")).body
      const limitOf = (path: string) =>
        spec.paths[path].get.parameters.find((p: { name: string; in: string }) => p.name === "limit" && p.in === "query")
      expect(limitOf("/api/v1/agents/favorites").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 })
      expect(limitOf("/api/v1/workspaces/{workspacePublicId}").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 })
    }))
})

layer(makeTestServer({ maxBodyBytes: 8 * 1024 * 1024 }).layer)("The request edge with an 8 MiB body limit", (it) => {
  it.effect("answers a 5 MiB password with a small 400 that does not contain it", () =>
    Effect.gen(function*() {
      const password = `${randomUUID()}${"p".repeat(5 * 1024 * 1024)}`
      const reply = yield* call("POST", signInPath, { body: { email: "owner@demo.agent-directory.dev", password } })
      expectProblem(reply, 400, "invalid-request")
      expect(reply.body.errors).toEqual([{ in: "body", pointer: "/password", detail: "must be a string of 1-1024 characters without U+0000" }])
      expect(reply.text).not.toContain(password.slice(0, 36))
      expect(reply.text).not.toContain("pppp")
      expectSmall(reply)
    }))
})
