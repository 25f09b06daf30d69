/**
 * Bad input never answers 500 nor goes unanswered, for every operation of the contract
 * (src/http/RequestText.ts, src/http/RequestBody.ts): each operation is probed with its
 * demo manifest request (demo/manifest.ts: a valid path, query, body and principal)
 * altered in one way at a time:
 *
 * - every uuid path parameter set to the nil and the max uuid (valid by spec §2.1): an
 *   answer below 500 among the statuses the served `/openapi.json` documents;
 * - every string of the JSON body, every query value and every path parameter holding
 *   U+0000 or an unpaired surrogate (or, in the URL, bytes that are not UTF-8): 400
 *   `invalid-request` naming each field by its JSON pointer, never echoing the value;
 * - a large body on DELETE and GET, declared or streamed, over a real socket: answered,
 *   on a connection that stays usable.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { request as httpRequest, Agent, type IncomingMessage } from "node:http"
import { Uuid } from "../../schema/common.js"
import { demoManifest, type ManifestOperation } from "../../demo/manifest.js"
import { EncodingRule, TextRule } from "../../src/http/RequestText.js"
import { call, type CallOptions, expectProblem, type Reply, type Session, signIn } from "../support/http.js"
import { routeOf } from "../support/manifest.js"
import { makeTestServer } from "../support/TestServer.js"

const NilUuid = "00000000-0000-0000-0000-000000000000"
const MaxUuid = "ffffffff-ffff-ffff-ffff-ffffffffffff"
const isUuid = Schema.is(Uuid)

type Method = "GET" | "POST" | "DELETE" | "PATCH" | "PUT"

const manifest = Object.entries(demoManifest.operations) as ReadonlyArray<readonly [string, ManifestOperation]>

/** Sends `op` of `operationId` with `path`, `query` and `body` (each default: the manifest's) as its principal. */
const makeSender = () => {
  const sessions = new Map<string, Session>()
  return (
    operationId: string,
    op: ManifestOperation,
    change: { readonly path?: Record<string, string>; readonly rawQuery?: string; readonly raw?: string }
  ) =>
    Effect.gen(function*() {
      const [method, pattern] = routeOf(operationId) as [Method, string]
      const pathValues = change.path ?? Object.fromEntries(Object.entries(op.path).map(([k, v]) => [k, encodeURIComponent(v)]))
      const path = pattern.replace(/:(\w+)/g, (_, name: string) => pathValues[name]!)
      const query = change.rawQuery ??
        new URLSearchParams(Object.entries(op.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      let session: Session | undefined
      if (op.as !== "anonymous" && op.as !== "apiKey:public") {
        session = sessions.get(op.as) ?? (yield* signIn(op.as))
        sessions.set(op.as, session)
      }
      const options: CallOptions = {
        ...(change.raw !== undefined ? { raw: change.raw } : op.body !== null ? { body: op.body } : {}),
        headers: { ...(op.as === "apiKey:public" ? { "x-api-key": demoManifest.apiKeys.public.key } : {}), ...op.headers },
        ...(session !== undefined ? { session } : {})
      }
      return yield* call(method, query === "" ? path : `${path}?${query}`, options)
    })
}

/** The JSON pointers of every string in `value` (keys escaped per RFC 6901). */
const stringPointers = (value: unknown, pointer = ""): ReadonlyArray<string> =>
  typeof value === "string"
    ? [pointer]
    : Array.isArray(value)
    ? value.flatMap((v, i) => stringPointers(v, `${pointer}/${i}`))
    : typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([k, v]) => stringPointers(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`))
    : []

/** `value` with every string replaced by `bad`. */
const replaceStrings = (value: unknown, bad: string): unknown =>
  typeof value === "string"
    ? bad
    : Array.isArray(value)
    ? value.map((v) => replaceStrings(v, bad))
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, bad)]))
    : value

/** Asserts a 400 `invalid-request` naming exactly `expected` (`in` and pointer) with `rule`, and not echoing `bad`. */
const expectNamed = (label: string, reply: Reply, expected: ReadonlyArray<readonly [string, string]>, rule: string) => {
  expect(reply.status, `${label}: ${reply.text}`).toBe(400)
  expectProblem(reply, 400, "invalid-request")
  const named = (reply.body.errors as ReadonlyArray<{ in: string; pointer: string; detail: string }>)
  expect(named.map((e) => [e.in, e.pointer]).sort(), label).toEqual([...expected].map(([i, p]) => [i, p]).sort())
  for (const e of named) expect(e.detail, label).toBe(rule)
}

/** The raw text of a reply can hold neither U+0000 nor a surrogate, escaped or not. */
const expectNoEcho = (label: string, reply: Reply) => {
  expect(reply.text, label).not.toMatch(/\\u0000|\u0000|\\ud[89a-f]|[\ud800-\udfff]/i)
}

/** One answer over `agent`'s socket: status, whether the socket was reused, and the body. */
const rawRequest = (
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: { readonly bytes: number; readonly chunked: boolean } | undefined
) =>
  Effect.async<{ status: number; reused: boolean; text: string }, Error>((resume) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, agent, headers }, (res: IncomingMessage) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (c: string) => (text += c))
      res.on("end", () => resume(Effect.succeed({ status: res.statusCode!, reused: req.reusedSocket, text })))
      res.on("error", (e) => resume(Effect.fail(e)))
    })
    req.on("error", (e) => resume(Effect.fail(e)))
    if (body === undefined) return void req.end()
    // node:http chunks no DELETE or GET body by default: the framing is stated either way
    req.setHeader(body.chunked ? "transfer-encoding" : "content-length", body.chunked ? "chunked" : String(body.bytes))
    // a JSON string, sent in 64 KiB pieces (one write per piece, as a streaming client does)
    const piece = Buffer.alloc(64 * 1024, "a")
    let left = body.bytes - 2
    req.write("\"")
    const pump = (): void => {
      while (left > 0) {
        const n = Math.min(left, piece.length)
        left -= n
        if (!req.write(piece.subarray(0, n))) return void req.once("drain", pump)
      }
      req.end("\"")
    }
    pump()
  })

const { layer: server } = makeTestServer()

/** POSTs `body` (raw bytes) as JSON to `path` over `node:http`; resolves with the status and text. */
const postBytes = (port: number, path: string, body: Buffer) =>
  Effect.async<{ status: number; text: string }, Error>((resume) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path,
      headers: { "content-type": "application/json", "content-length": String(body.length) }
    }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (c: string) => (text += c))
      res.on("end", () => resume(Effect.succeed({ status: res.statusCode!, text })))
    })
    req.on("error", (e) => resume(Effect.fail(e)))
    req.end(body)
  })

layer(server, { timeout: 120_000 })("Bad input, for every operation", (it) => {
  it.effect("the nil and max uuids in every uuid path parameter answer a documented status below 500", () =>
    Effect.gen(function*() {
      const document = (yield* call("GET", "/openapi.json")).body as {
        paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>
      }
      const documented = new Map<string, ReadonlyArray<number>>()
      for (const item of Object.values(document.paths)) {
        for (const op of Object.values(item)) documented.set(op.operationId, Object.keys(op.responses).map(Number))
      }
      const send = makeSender()
      let probed = 0
      for (const [operationId, op] of manifest) {
        const uuidParams = Object.keys(op.path).filter((name) => isUuid(op.path[name]))
        for (const name of uuidParams) {
          for (const id of [NilUuid, MaxUuid]) {
            const path = Object.fromEntries(Object.entries(op.path).map(([k, v]) => [k, k === name ? id : encodeURIComponent(v)]))
            const reply = yield* send(operationId, op, { path })
            const label = `${operationId} ${name}=${id}: ${reply.status} ${reply.text.slice(0, 300)}`
            expect(reply.status, label).toBeLessThan(500)
            expect(documented.get(operationId), label).toContain(reply.status)
            probed++
          }
        }
      }
      // the class is large: most operations address a resource by uuid
      expect(probed).toBeGreaterThan(100)
    }))

  it.effect("U+0000 or an unpaired surrogate in any string of any JSON body is a 400 naming each string", () =>
    Effect.gen(function*() {
      const send = makeSender()
      let probed = 0
      for (const [operationId, op] of manifest) {
        const pointers = stringPointers(op.body)
        if (pointers.length === 0) continue
        // the escapes as a client sends them: JSON.parse accepts each
        for (const [bad, escaped] of [["\u0000", "\\u0000"], ["\ud800", "\\ud800"], ["x\udfffy", "x\\udfffy"]] as const) {
          const raw = JSON.stringify(replaceStrings(op.body, bad)).replaceAll(JSON.stringify(bad).slice(1, -1), escaped)
          expect(raw).toContain(escaped)
          const reply = yield* send(operationId, op, { raw })
          const label = `${operationId} ${escaped}`
          expectNamed(label, reply, pointers.slice(0, 20).map((p) => ["body", p]), TextRule)
          expectNoEcho(label, reply)
          probed++
        }
      }
      expect(probed).toBeGreaterThan(50)
    }))

  it.effect("U+0000, a surrogate or bytes that are not UTF-8 in any query or path parameter are a 400 naming it", () =>
    Effect.gen(function*() {
      const send = makeSender()
      let probed = 0
      for (const [operationId, op] of manifest) {
        const queryNames = Object.keys(op.query)
        const pathNames = Object.keys(op.path)
        for (const [bad, rule] of [["%00", TextRule], ["a%ED%A0%80", EncodingRule], ["%FF", EncodingRule]] as const) {
          if (queryNames.length > 0) {
            const rawQuery = queryNames.map((k) => `${encodeURIComponent(k)}=${bad}`).join("&")
            const reply = yield* send(operationId, op, { rawQuery })
            expectNamed(`${operationId} query ${bad}`, reply, queryNames.map((k) => ["query", `/${k}`]), rule)
            expectNoEcho(`${operationId} query ${bad}`, reply)
            probed++
          }
          if (pathNames.length > 0) {
            const path = Object.fromEntries(pathNames.map((k) => [k, bad]))
            const reply = yield* send(operationId, op, { path })
            expectNamed(`${operationId} path ${bad}`, reply, pathNames.map((k) => ["path", `/${k}`]), rule)
            probed++
          }
        }
      }
      expect(probed).toBeGreaterThan(100)
    }))

  it.effect("malformed OAuth callback parameters are problems, never a 500", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const path = "/api/v1/mcp/oauth/callback"
      for (const query of ["state=%00&code=x", "state=a%00b&code=x", "state=s&code=%00", "state=%ED%A0%80&code=x", "state=%FF"]) {
        const reply = yield* call("GET", `${path}?${query}`, { session: owner })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.body.errors.length, query).toBe(1)
        expect(reply.body.errors[0].in, query).toBe("query")
      }
      for (const query of ["", "code=x", `state=${"s".repeat(4000)}&code=x`, `state=s&code=${"c".repeat(5000)}`, "state=&code=x"]) {
        const reply = yield* call("GET", `${path}?${query}`, { session: owner })
        expectProblem(reply, 400, "invalid-request")
        expect(reply.text).not.toContain("sss")
      }
      // a well-formed but unknown state: the flow's own 400
      const unknown = yield* call("GET", `${path}?state=nope&code=x`, { session: owner })
      expectProblem(unknown, 400, "oauth-state-invalid")
    }))

  it.effect("a body that is not UTF-8 is a 400 malformed-body (no silent U+FFFD)", () =>
    Effect.gen(function*() {
      const port = ((yield* HttpServer.HttpServer).address as HttpServer.TcpAddress).port
      for (const bytes of [[0xff], [0xed, 0xa0, 0x80], [0xc3]]) {
        const body = Buffer.concat([Buffer.from('{"email":"a'), Buffer.from(bytes), Buffer.from('@b.c","password":"x"}')])
        const reply = yield* postBytes(port, "/api/v1/auth/sign-in", body)
        expect(reply.status, reply.text).toBe(400)
        expect(JSON.parse(reply.text).type).toBe("https://agent-directory.dev/problems/malformed-body")
        expect(JSON.parse(reply.text).errors).toEqual([{ in: "body", pointer: "", detail: "is not valid UTF-8" }])
      }
    }))

  it.effect("a large body on DELETE or GET, declared or streamed, is answered, and the connection stays usable", () =>
    Effect.gen(function*() {
      const port = ((yield* HttpServer.HttpServer).address as HttpServer.TcpAddress).port
      const owner = yield* signIn("owner")
      const op = demoManifest.operations["Runtime_DeleteAgentSchedule"]!
      const deletePath = routeOf("Runtime_DeleteAgentSchedule")[1].replace(/:(\w+)/g, (_, n: string) => op.path[n]!)
      const headers = {
        cookie: owner.cookie,
        "x-csrf-token": owner.csrf,
        "idempotency-key": "01900000-0000-7000-8000-0000000000aa",
        "content-type": "application/json"
      }
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        for (const chunked of [true, false]) {
          // over the test limit (1 MiB): refused, but answered
          const del = yield* rawRequest(agent, port, "DELETE", deletePath, headers, { bytes: 3 * 1024 * 1024, chunked })
          expect(del.status, `DELETE chunked=${chunked}: ${del.text}`).toBe(400)
          expect(JSON.parse(del.text).type).toBe("https://agent-directory.dev/problems/body-too-large")
          const get = yield* rawRequest(agent, port, "GET", "/api/v1/protocols", { "content-type": "application/json" }, {
            bytes: 3 * 1024 * 1024,
            chunked
          })
          // a body on GET is ignored
          expect(get.status, `GET chunked=${chunked}: ${get.text}`).toBe(200)
          // the same connection answers the next request
          const next = yield* rawRequest(agent, port, "GET", "/api/v1/protocols", {}, undefined)
          expect(next.status).toBe(200)
          expect(next.reused).toBe(true)
        }
      } finally {
        agent.destroy()
      }
    }))
})
