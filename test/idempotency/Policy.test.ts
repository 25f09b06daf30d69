/**
 * Idempotency follows each operation's contract (spec §4.1; src/http/group.ts): a
 * test-only group whose handlers contain no idempotency code at all, one operation
 * per policy (required, optional, none), served through the real HTTP stack. Plus
 * the contract check that every POST/DELETE of the Api declares its policy.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { Data } from "../../schema/envelope.js"
import { IdempotencyKeyOptional, IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { IdempotencyLive } from "../../layers/Idempotency.js"
import { Api } from "../../src/api/Api.js"
import { operation, Policy } from "../../src/api/operation.js"
import { Envelope } from "../../src/http/Envelope.js"
import { group, idempotencyPolicyOf } from "../../src/http/group.js"
import { serveTestApi } from "../auth/testApi.js"
import { call, expectProblem } from "../support/http.js"
import { expectNotReplayed, expectReplayOf } from "../services/support.js"

const Count = Schema.Struct({ name: Schema.String, runs: Schema.Number })
const Body = Schema.Struct({ by: Schema.Int })

const testOperation = (id: `${string}_${string}`) =>
  operation({ id, auth: "public", cache: "none", statuses: [400, 401, 403, 409, 500], description: "Test: counts its runs." })

class PolicyTestGroup extends HttpApiGroup.make("PolicyTest")
  .add(
    HttpApiEndpoint.post("required", "/api/v1/test-idempotency/required/:name")
      .setPath(Schema.Struct({ name: Schema.String }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(Body)
      .addSuccess(Data(Count))
      .pipe(testOperation("PolicyTest_Required"))
  )
  .add(
    HttpApiEndpoint.post("optional", "/api/v1/test-idempotency/optional/:name")
      .setPath(Schema.Struct({ name: Schema.String }))
      .setHeaders(IdempotencyKeyOptional)
      .setPayload(Body)
      .addSuccess(Data(Count), { status: 202 })
      .pipe(testOperation("PolicyTest_Optional"))
  )
  .add(
    HttpApiEndpoint.post("none", "/api/v1/test-idempotency/none/:name")
      .setPath(Schema.Struct({ name: Schema.String }))
      .setPayload(Body)
      .addSuccess(Data(Count))
      .pipe(testOperation("PolicyTest_None"))
  )
{}

class PolicyTestApi extends HttpApi.make("PolicyTestApi").add(PolicyTestGroup) {}

/** How many times each handler body ran, by counter name. */
const runs = new Map<string, number>()

/** A handler as any later endpoint writes it: no Idempotency-Key, no fingerprint, no transaction. */
const count = (name: string) =>
  Effect.flatMap(Envelope, (envelope) => {
    const n = (runs.get(name) ?? 0) + 1
    runs.set(name, n)
    return envelope.data({ name, runs: n })
  })

const PolicyTestGroupLive = group(PolicyTestApi, "PolicyTest", (handlers) =>
  Effect.succeed(
    handlers
      .handle("required", ({ path }) => count(path.name))
      .handle("optional", ({ path }) => count(path.name))
      .handle("none", ({ path }) => count(path.name))
  )).pipe(Layer.provide(IdempotencyLive))

const server = serveTestApi(PolicyTestApi, HttpApiBuilder.api(PolicyTestApi).pipe(Layer.provide(PolicyTestGroupLive)))

const post = (policy: "required" | "optional" | "none", name: string, options: { key?: string | null; by?: number } = {}) =>
  call("POST", `/api/v1/test-idempotency/${policy}/${name}`, {
    idempotencyKey: options.key === undefined ? null : options.key,
    body: { by: options.by ?? 1 }
  })

layer(server.layer)("idempotency from the operation's policy", (it) => {
  it.effect("required: a handler without any idempotency code is replayed for the same key and body", () =>
    Effect.gen(function*() {
      const key = randomUUID()
      const first = yield* post("required", "r1", { key })
      expect(first.status, first.text).toBe(200)
      expectNotReplayed(first)
      expect(first.body.data).toEqual({ name: "r1", runs: 1 })
      const second = yield* post("required", "r1", { key })
      expectReplayOf(second, first)
      expect(runs.get("r1")).toBe(1)
      // another key runs again
      const other = yield* post("required", "r1", { key: randomUUID() })
      expect(other.body.data).toEqual({ name: "r1", runs: 2 })
    }))

  it.effect("required: the key with another body or another path is 409 idempotency-key-reuse; nothing runs", () =>
    Effect.gen(function*() {
      const key = randomUUID()
      const first = yield* post("required", "r2", { key, by: 1 })
      expect(first.status, first.text).toBe(200)
      const otherBody = yield* post("required", "r2", { key, by: 2 })
      expectProblem(otherBody, 409, "idempotency-key-reuse")
      expectNotReplayed(otherBody)
      const otherPath = yield* post("required", "r2-other", { key, by: 1 })
      expectProblem(otherPath, 409, "idempotency-key-reuse")
      expect(runs.get("r2")).toBe(1)
      expect(runs.get("r2-other")).toBeUndefined()
    }))

  it.effect("required: no key is 400 idempotency-key-required and the handler does not run", () =>
    Effect.gen(function*() {
      const reply = yield* post("required", "r3")
      expectProblem(reply, 400, "idempotency-key-required")
      expect(runs.get("r3")).toBeUndefined()
    }))

  it.effect("optional: without a key it runs every time; with a key it is replayed", () =>
    Effect.gen(function*() {
      const a = yield* post("optional", "o1")
      const b = yield* post("optional", "o1")
      expect(a.status, a.text).toBe(202)
      expect(b.status, b.text).toBe(202)
      expectNotReplayed(a)
      expectNotReplayed(b)
      expect(b.body.data).toEqual({ name: "o1", runs: 2 })
      const key = randomUUID()
      const keyed = yield* post("optional", "o1", { key })
      const again = yield* post("optional", "o1", { key })
      expect(keyed.body.data).toEqual({ name: "o1", runs: 3 })
      expectReplayOf(again, keyed)
      expect(runs.get("o1")).toBe(3)
    }))

  it.effect("none: an Idempotency-Key header is ignored; every request runs", () =>
    Effect.gen(function*() {
      const key = randomUUID()
      const a = yield* post("none", "n1", { key })
      const b = yield* post("none", "n1", { key })
      expect(a.status, a.text).toBe(200)
      expectNotReplayed(b)
      expect(b.body.data).toEqual({ name: "n1", runs: 2 })
    }))
})

describe("the contract declares an idempotency policy on every command", () => {
  // Accounts_SignIn is not a §4 operation (spec §5.2 sign-in): no key, and neither do the other steps of
  // coming in (sign-up, email verification, password reset, the second factor): their bodies hold passwords,
  // tokens and codes that an idempotency record's fingerprint would keep, and each is safe to repeat.
  // Agents_ResolveAgentIdentities (spec §9, not §4) is a read-only POST: nothing to make idempotent.
  // Commerce_ReceiveProcessorWebhook is a processor's delivery (spec §5.1.4), which sends no key of ours:
  // each event is applied once by its own id (provider, event id)
  // Commerce_PurchaseOfferWithX402 is an x402 resource: the client repeats the request with the payment
  // added (a stored 402 would answer it), and the payment's own natural key makes it apply once
  const withoutKey = new Set([
    "Accounts_SignIn",
    "Accounts_SignUp",
    "Accounts_VerifyEmail",
    "Accounts_RequestPasswordReset",
    "Accounts_CompletePasswordReset",
    "Accounts_VerifyMfa",
    "Agents_ResolveAgentIdentities",
    "Commerce_ReceiveProcessorWebhook",
    "Commerce_PurchaseOfferWithX402"
  ])
  // spec §4.1: "required on every POST or DELETE except where stated optional"
  const optional = new Set(["Social_IngestProductEvent"])
  const commands: Array<{ id: string; policy: string }> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (endpoint.method !== "POST" && endpoint.method !== "DELETE") return
      const id = Option.getOrThrow(Context.getOption(endpoint.annotations, Policy)).operationId
      commands.push({ id, policy: idempotencyPolicyOf(endpoint) })
    }
  })

  it("every POST/DELETE requires Idempotency-Key, except the spec's optional ones and the steps of signing in", () => {
    expect(commands.length).toBeGreaterThan(0)
    for (const { id, policy } of commands) {
      const expected = withoutKey.has(id) ? "none" : optional.has(id) ? "optional" : "required"
      expect(`${id}: ${policy}`).toBe(`${id}: ${expected}`)
    }
  })
})
