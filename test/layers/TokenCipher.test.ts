/** layers/TokenCipher.ts: AES-256-GCM sealing bound to its place, key rotation, and the MCP_TOKEN_KEYS rules. */
import { describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { makeTokenCipher, parseTokenKeys, type TokenKey } from "../../layers/TokenCipher.js"

const key = (kid: string): TokenKey => ({ kid, key: Redacted.make(randomBytes(32)) })

describe("TokenCipher", () => {
  it("seals with the first key, opens with any key of the ring, only where it was sealed", () => {
    const k0 = key("k0")
    const k1 = key("k1")
    const old = makeTokenCipher([k0])
    const sealedOld = old.seal(Redacted.make("secret-token"), "mcp:access_token:a")
    expect(sealedOld).toMatch(/^v1\.k0\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
    expect(sealedOld).not.toContain("secret-token")
    // two seals of one value differ (random IV)
    expect(old.seal(Redacted.make("secret-token"), "mcp:access_token:a")).not.toBe(sealedOld)

    const rotated = makeTokenCipher([k1, k0])
    expect(Redacted.value(rotated.open(sealedOld, "mcp:access_token:a"))).toBe("secret-token")
    const sealedNew = rotated.seal(Redacted.make("secret-token"), "mcp:access_token:a")
    expect(rotated.kidOf(sealedNew)).toBe("k1")
    expect(() => old.open(sealedNew, "mcp:access_token:a")).toThrow()
    // bound to its row and column
    expect(() => rotated.open(sealedOld, "mcp:access_token:b")).toThrow()
    expect(() => rotated.open(sealedOld, "mcp:refresh_token:a")).toThrow()
    // altered
    const parts = sealedOld.split(".")
    const flipped = Buffer.from(parts[3]!, "base64url")
    flipped[0] = flipped[0]! ^ 1
    expect(() => rotated.open([...parts.slice(0, 3), flipped.toString("base64url")].join("."), "mcp:access_token:a")).toThrow()
  })

  it("MCP_TOKEN_KEYS: kid:base64 of 32 bytes, comma-separated, distinct ids, at least one", () => {
    const b64 = randomBytes(32).toString("base64")
    const ring = parseTokenKeys(`new:${b64}, old:${randomBytes(32).toString("base64url")}`)
    expect(Array.isArray(ring) && ring.map((k) => k.kid)).toEqual(["new", "old"])
    expect(parseTokenKeys("")).toBe("MCP_TOKEN_KEYS must name at least one key")
    expect(parseTokenKeys(`:${b64}`)).toMatch(/kid of 1-32/)
    expect(parseTokenKeys(`k:${randomBytes(16).toString("base64")}`)).toMatch(/exactly 32 bytes/)
    expect(parseTokenKeys(`k:${b64},k:${b64}`)).toMatch(/twice/)
    // the problem never repeats the key
    expect(String(parseTokenKeys(`k:${randomBytes(16).toString("base64")}`))).not.toContain(b64)
  })
})
