/** The Cursor layer on its own: signed positions bound to their list, query and caller. */
import { expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { Cursor, CursorLive } from "../../layers/Cursor.js"
import { testConfig, testConfigLayer } from "../support/config.js"

const Position = Schema.Tuple(Schema.String, Schema.Number)
const binding = { operation: "Test_List", principal: "account:1" }
const TestCursor = CursorLive.pipe(Layer.provide(testConfigLayer()))

it.effect("decodes what it encoded, for the same binding", () =>
  Effect.gen(function*() {
    const cursor = yield* Cursor
    const encoded = cursor.encode(Position, ["2026-01-01T00:00:00.000000Z", 7], binding)
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
    expect(yield* cursor.decode(Position, encoded, { ...binding }, "cursor")).toEqual(["2026-01-01T00:00:00.000000Z", 7])
  }).pipe(Effect.provide(TestCursor)))

it.effect("refuses another binding, another key and an altered position", () =>
  Effect.gen(function*() {
    const cursor = yield* Cursor
    const encoded = cursor.encode(Position, ["a", 1], binding)
    const other = yield* cursor.decode(Position, encoded, { ...binding, principal: "account:2" }, "cursor").pipe(Effect.flip)
    expect(other.errors).toEqual([{ in: "query", pointer: "/cursor", detail: expect.any(String) }])
    const [, mac] = encoded.split(".")
    const forged = `${Buffer.from(JSON.stringify(["a", 2])).toString("base64url")}.${mac}`
    expect((yield* cursor.decode(Position, forged, binding, "cursor").pipe(Effect.flip))._tag).toBe("InvalidCursor")
    const otherKey = CursorLive.pipe(Layer.provide(testConfigLayer({
      keys: { ...testConfig().keys, cursor: testConfig().keys.apiKeyVerifier }
    })))
    const refused = yield* Effect.flatMap(Cursor, (c) => c.decode(Position, encoded, binding, "cursor")).pipe(
      Effect.provide(otherKey),
      Effect.flip
    )
    expect(refused.status).toBe(400)
  }).pipe(Effect.provide(TestCursor)))

it.effect("pages a keyset: limit rows, and a cursor only when more follow", () =>
  Effect.gen(function*() {
    const cursor = yield* Cursor
    const rows = [1, 2, 3, 4, 5]
    const fetch = (after: number | undefined, take: number) =>
      Effect.succeed(rows.filter((r) => after === undefined || r > after).slice(0, take))
    const page = (c: string | undefined) =>
      cursor.page({ position: Schema.Number, cursor: c, param: "cursor", binding, limit: 2, fetch, positionOf: (r) => r })
    const first = yield* page(undefined)
    const second = yield* page(first.nextCursor!)
    const third = yield* page(second.nextCursor!)
    expect([first.rows, second.rows, third.rows]).toEqual([[1, 2], [3, 4], [5]])
    expect(third.nextCursor).toBeNull()
  }).pipe(Effect.provide(TestCursor)))
