/** Password hashing: scrypt, salted, verified in constant time. */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { DummyHash, hashPassword, verifyPassword } from "../../layers/Password.js"

it.effect("verifies the password it hashed and nothing else", () =>
  Effect.gen(function*() {
    const hash = yield* hashPassword("correct horse battery staple")
    expect(hash).toMatch(/^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    expect(hash).not.toContain("correct horse")
    expect(yield* verifyPassword("correct horse battery staple", hash)).toBe(true)
    expect(yield* verifyPassword("correct horse battery stapl", hash)).toBe(false)
  }))

it.effect("salts every hash, and never matches a malformed hash or the dummy", () =>
  Effect.gen(function*() {
    const [a, b] = yield* Effect.all([hashPassword("same"), hashPassword("same")])
    expect(a).not.toBe(b)
    expect(yield* verifyPassword("same", "plaintext")).toBe(false)
    expect(yield* verifyPassword("", DummyHash)).toBe(false)
  }))
