/**
 * The success examples of the served description are the demo
 * data's true answers, and cannot drift from them.
 *
 * `demo/examples/` holds, by operationId, the status and body each demo manifest
 * request (demo/manifest.ts) gets from the server on a freshly seeded database, sent
 * in the manifest's order as its `as` principal: one JSON file per demo area, none over
 * 1000 lines, and their index (test/support/examples.ts). It is generated, not written:
 * this file writes it when run as `npm run docs:examples` (EXAMPLES_WRITE=1), and otherwise
 * sends the same requests and checks every answer equals its stored example, apart from the
 * values that change per request (see {@link normalise}), and that the files are laid out as
 * the generator writes them. Each example also decodes with its endpoint's success Schema,
 * and the served `/openapi.json` carries it as the `example` of the operation's success response.
 */
import { isDeepStrictEqual } from "node:util"
import { HttpApi } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Option, Schema } from "effect"
import { Api } from "../../src/api/Api.js"
import { Policy } from "../../src/api/operation.js"
import { successExamples } from "../../demo/examples/index.js"
import { demoManifest } from "../../demo/manifest.js"
import { MaxLines, renderExamples, writeExamples, writtenExamples } from "../support/examples.js"
import { call, expectProblem } from "../support/http.js"
import { sendManifestRequest, WholeManifestTimeoutMs } from "../support/manifest.js"
import { eventsOf, parseSse } from "../support/sse.js"
import { makeTestServer } from "../support/TestServer.js"

const writing = process.env["EXAMPLES_WRITE"] === "1"

type Rule = (value: string) => string

/** A placeholder for the value at `path` of `operationId`'s answer. */
const placeholder = (operationId: string, path: string): Rule => () => `<${operationId} ${path}>`

/**
 * The values that change per request (or per seeding), where they are (`*` is any key or
 * index), each with its rule. Besides these, every id the test server mints while
 * answering (its Ids sequence, `0000000b-…`), alone or inside a string, is `<minted id>`, and a value a rule
 * replaced is replaced wherever it comes back in a later answer (the new API key's prefix
 * in Accounts_ListApiKeys). Timestamps the requests take are the test clock's (fixed),
 * so they are compared as they are.
 */
const PerRequest: Record<string, ReadonlyArray<readonly [string, Rule]>> = {
  // every success envelope: the request id and when the answer was generated
  "*": [["meta.requestId", placeholder("*", "meta.requestId")], ["meta.generatedAt", placeholder("*", "meta.generatedAt")]],
  // random secrets minted by the request
  Accounts_SignIn: [["data.csrfToken", placeholder("Accounts_SignIn", "data.csrfToken")]],
  Accounts_EnrollTotp: [
    ["data.secret", placeholder("Accounts_EnrollTotp", "data.secret")],
    ["data.otpauthUri", placeholder("Accounts_EnrollTotp", "data.otpauthUri")],
    ["data.qrSvg", placeholder("Accounts_EnrollTotp", "data.qrSvg")]
  ],
  // the challenge's nonce is random; the rest of the message is compared
  Agents_CreateIdentityChallenge: [["data.message", (m) => m.replace(/\nNonce: [0-9a-f]+\n/, "\nNonce: <nonce>\n")]],
  Accounts_CreateApiKey: [
    ["data.key", placeholder("Accounts_CreateApiKey", "data.key")],
    ["data.apiKey.prefix", placeholder("Accounts_CreateApiKey", "data.apiKey.prefix")]
  ],
  Workspaces_CreateWebhookSubscription: [["data.secret", placeholder("Workspaces_CreateWebhookSubscription", "data.secret")]],
  Workspaces_RotateWebhookSecret: [["data.secret", placeholder("Workspaces_RotateWebhookSecret", "data.secret")]],
  // the OAuth state and PKCE challenge are random; the rest of the URL is compared
  MCP_BeginMcpOAuth: [[
    "data.authorizationUrl",
    (url) => url.replace(/([?&]state=)[^&]*/, "$1<state>").replace(/([?&]code_challenge=)[^&]*/, "$1<code_challenge>")
  ]],
  // the seed's wall clock (the database's now() when the demo API keys were inserted)
  Accounts_ListApiKeys: [["data.*.createdAt", placeholder("Accounts_ListApiKeys", "createdAt")]],
  Accounts_RevokeApiKey: [["data.createdAt", placeholder("Accounts_RevokeApiKey", "createdAt")]]
}

const MintedId = /0000000b-0000-7000-8000-[0-9a-f]{12}/g

const matches = (pattern: ReadonlyArray<string>, path: ReadonlyArray<string>) =>
  pattern.length === path.length && pattern.every((p, i) => p === "*" || p === path[i])

/**
 * The answers, in the manifest's order, with the values of {@link PerRequest} replaced
 * (each replaced value is remembered, for the later answers that repeat it).
 */
const normalise = (answers: Record<string, { status: number; body: unknown }>) => {
  const seen = new Map<string, string>()
  const out: Record<string, { status: number; body: unknown }> = {}
  for (const [operationId, { body, status }] of Object.entries(answers)) {
    const rules = [...PerRequest["*"]!, ...(PerRequest[operationId] ?? [])].map(([p, rule]) => [p.split("."), rule] as const)
    const go = (value: unknown, path: ReadonlyArray<string>): unknown => {
      if (Array.isArray(value)) return value.map((v, i) => go(v, [...path, String(i)]))
      if (typeof value === "object" && value !== null) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, go(v, [...path, k])]))
      }
      if (typeof value !== "string") return value
      const rule = rules.find(([pattern]) => matches(pattern, path))
      if (rule !== undefined) {
        const replaced = rule[1](value)
        if (replaced !== value && !path.includes("meta")) seen.set(value, replaced)
        return replaced
      }
      return seen.get(value) ?? value.replace(MintedId, "<minted id>")
    }
    out[operationId] = { status, body: go(body, []) }
  }
  return out
}

/**
 * The answers to write: an answer that differs from the stored example only in per-request
 * values keeps the stored text, so a new operation does not rewrite every other example (their
 * request and minted ids come from one sequence). The values a kept example holds in place of
 * this run's (ids, key prefixes) are put in the rewritten answers too, so an example that
 * repeats an earlier one's value (the audit event of a created key) stays consistent with it.
 */
const keepStored = (answers: Record<string, { status: number; body: unknown }>) => {
  const storedExamples = successExamples as Record<string, { status: number; body: unknown }>
  const stored = normalise(storedExamples)
  const got = normalise(answers)
  const kept = new Set(Object.keys(answers).filter((id) => id in storedExamples && isDeepStrictEqual(stored[id], got[id])))
  const renames = new Map<string, string>()
  const pair = (now: unknown, before: unknown): void => {
    if (typeof now === "string" && typeof before === "string") {
      if (now !== before) renames.set(now, before)
    } else if (typeof now === "object" && now !== null && typeof before === "object" && before !== null) {
      for (const [k, v] of Object.entries(now)) pair(v, (before as Record<string, unknown>)[k])
    }
  }
  for (const id of kept) pair(answers[id]!.body, storedExamples[id]!.body)
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename)
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)]))
    if (typeof value !== "string") return value
    return renames.get(value) ?? value.replace(MintedId, (id) => renames.get(id) ?? id)
  }
  return Object.fromEntries(Object.entries(answers).map(([id, answer]) => [
    id,
    kept.has(id) ? storedExamples[id]! : { status: answer.status, body: rename(answer.body) }
  ]))
}

const server = makeTestServer()

/** The operations the manifest documents with a problem on the demo data (`ManifestOperation.problem`): no success example. */
const problemOnly = new Set(Object.entries(demoManifest.operations).flatMap(([id, op]) => op.problem === undefined ? [] : [id]))

/** The success Schemas of each operation, by status (null: no body). */
const successSchemas = new Map<string, ReadonlyMap<number, Schema.Schema<any, any> | null>>()
HttpApi.reflect(Api, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, successes }) => {
    // null: a success with no body (204 No Content)
    successSchemas.set(Context.unsafeGet(endpoint.annotations as Context.Context<Policy>, Policy).operationId, new Map([...successes].map(([status, s]) => [status, Option.isSome(s.ast) ? Schema.make(s.ast.value) : null] as const)))
  }
})

layer(server.layer)("success examples", (it) => {
  it.effect(writing ? "are written from the seeded server's answers" : "are the seeded server's answers to the manifest requests", () =>
    Effect.gen(function*() {
      const answers: Record<string, { status: number; body: unknown }> = {}
      for (const [operationId, op] of Object.entries(demoManifest.operations)) {
        const reply = yield* sendManifestRequest(operationId, op)
        if (op.problem !== undefined) {
          // documented as a problem on the demo data (ManifestOperation.problem): no success example
          expectProblem(reply, op.problem.status, op.problem.type)
          continue
        }
        expect(reply.status, `${operationId}: ${reply.text}`).toBeGreaterThanOrEqual(200)
        expect(reply.status, `${operationId}: ${reply.text}`).toBeLessThan(300)
        // a Server-Sent Events stream (Runtime_StreamRunEvents): its example is its first event, as `{kind, data}`
        const stream = /^text\/event-stream/.test(reply.headers["content-type"] ?? "")
        const first = stream ? eventsOf(parseSse(reply.text))[0] : undefined
        answers[operationId] = { status: reply.status, body: first === undefined ? reply.body : { kind: first.event, data: first.data } }
      }
      if (writing) {
        writeExamples(renderExamples(keepStored(answers)))
        return
      }
      // a failure here: the demo data or an answer changed; `npm run docs:examples` writes the new examples
      expect(Object.keys(successExamples)).toEqual(Object.keys(answers))
      const stored = normalise(successExamples as Record<string, { status: number; body: unknown }>)
      const got = normalise(answers)
      for (const operationId of Object.keys(answers)) expect(got[operationId], operationId).toEqual(stored[operationId])
    }), WholeManifestTimeoutMs)

  // writing: the stored examples are the old ones until the next run
  if (writing) return

  it("are laid out as `npm run docs:examples` writes them: one file per area, none over the line limit", () => {
    const expected = renderExamples(successExamples)
    const written = writtenExamples()
    expect([...written.keys()].sort()).toEqual([...expected.keys()].sort())
    for (const [path, content] of expected) expect(written.get(path), path).toBe(content)
    for (const [path, content] of written) expect(content.split("\n").length - 1, path).toBeLessThanOrEqual(MaxLines)
  })

  it("decode with their endpoint's success Schema", () => {
    expect(Object.keys(successExamples).sort()).toEqual([...successSchemas.keys()].filter((id) => !problemOnly.has(id)).sort())
    for (const [operationId, { body, status }] of Object.entries(successExamples)) {
      const schema = successSchemas.get(operationId)?.get(status)
      expect(schema, `${operationId} ${status}`).toBeDefined()
      if (schema === null) {
        expect(body, `${operationId} ${status}: a success with no body`).toBeUndefined()
        continue
      }
      const decoded = Schema.decodeUnknownEither(schema!)(body)
      expect(decoded._tag, `${operationId}: ${decoded._tag === "Left" ? String(decoded.left) : ""}`).toBe("Right")
    }
  })

  it.effect("are the examples of every operation's success response in /openapi.json", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/openapi.json")).body
      let count = 0
      for (const methods of Object.values<Record<string, any>>(doc.paths)) {
        for (const op of Object.values<any>(methods)) {
          if (problemOnly.has(op.operationId)) continue
          const stored = successExamples[op.operationId]
          expect(stored, op.operationId).toBeDefined()
          if (stored!.body === undefined) {
            // a success with no body (204): nothing to show
            expect(op.responses[String(stored!.status)], op.operationId).toBeDefined()
            expect(op.responses[String(stored!.status)].content, op.operationId).toBeUndefined()
            count++
            continue
          }
          const content = op.responses[String(stored!.status)]?.content as Record<string, { example?: unknown }>
          expect(Object.keys(content).length, op.operationId).toBeGreaterThan(0)
          for (const media of Object.values(content)) expect(media.example, op.operationId).toEqual(stored!.body)
          count++
        }
      }
      expect(count).toBe(Object.keys(demoManifest.operations).length - problemOnly.size)
    }))
})
