/** `MODEL_PROFILES` / `MODEL_PROFILES_FILE` (layers/ModelProfiles.ts, layers/AppConfig.ts): validated at start-up, keys Redacted. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Redacted } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadAppConfig } from "../../layers/AppConfig.js"
import { costMicroUsd, parseModelProfiles } from "../../layers/ModelProfiles.js"

const Key = "sk-secret-profile-key-42"

const load = (env: Record<string, string>) =>
  Effect.either(loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("model profiles", () => {
  it("parses kinds, base URLs, Redacted keys and prices; empty is none", () => {
    const parsed = parseModelProfiles(JSON.stringify({
      local: { kind: "openai", baseUrl: "http://127.0.0.1:8000/v1/", apiKey: Key,
        prices: { m: { inputMicroUsdPerMillionTokens: 1, outputMicroUsdPerMillionTokens: 2 } } },
      claude: { kind: "anthropic" }
    }), "MODEL_PROFILES")
    if (typeof parsed === "string") throw new Error(parsed)
    expect(parsed["local"]!.baseUrl).toBe("http://127.0.0.1:8000/v1")
    expect(Redacted.isRedacted(parsed["local"]!.apiKey)).toBe(true)
    expect(Redacted.value(parsed["local"]!.apiKey!)).toBe(Key)
    expect(String(parsed["local"]!.apiKey)).not.toContain(Key)
    expect(parsed["claude"]).toEqual({ kind: "anthropic", baseUrl: undefined, apiKey: undefined, prices: {} })
    expect(parseModelProfiles("  ", "MODEL_PROFILES")).toEqual({})
  })

  it("names the profile and field a document breaks, never a key", () => {
    const bad = (doc: unknown) => parseModelProfiles(typeof doc === "string" ? doc : JSON.stringify(doc), "MODEL_PROFILES") as string
    expect(bad(`{"x": {"kind": "openai", "apiKey": "${Key}"`)).toBe("MODEL_PROFILES is not valid JSON")
    expect(bad({ x: { kind: "gemini", apiKey: Key } })).toBe('MODEL_PROFILES: profile "x": kind must be "openai" or "anthropic"')
    expect(bad({ deterministic: { kind: "openai" } })).toMatch(/"deterministic": the name deterministic is reserved/)
    expect(bad({ x: { kind: "openai", baseUrl: "ftp://h", apiKey: Key } })).toMatch(/profile "x": baseUrl must be/)
    expect(bad({ x: { kind: "openai", apiKey: 42 } })).toMatch(/profile "x": apiKey must be/)
    expect(bad({ x: { kind: "openai", apiKey: Key, prices: { m: { inputMicroUsdPerMillionTokens: -1, outputMicroUsdPerMillionTokens: 1 } } } }))
      .toMatch(/profile "x": prices.m must be/)
    expect(bad({ x: { kind: "openai", key: Key } })).toBe('MODEL_PROFILES: profile "x": unknown field "key"')
    expect(bad({ "bad name": { kind: "openai" } })).toMatch(/profile name must match/)
    expect(bad([])).toMatch(/JSON object keyed by profile name/)
  })

  it("costs round up to a whole micro-USD; no price, no cost", () => {
    const price = { inputMicroUsdPerMillionTokens: 400_000, outputMicroUsdPerMillionTokens: 1_600_000 }
    expect(costMicroUsd(price, 1200, 30)).toBe(528n)
    expect(costMicroUsd(price, 1, 0)).toBe(1n)
    expect(costMicroUsd(price, 0, 0)).toBe(0n)
    expect(costMicroUsd(undefined, 10, 10)).toBeNull()
  })

  it.effect("start-up reads MODEL_PROFILES and MODEL_PROFILES_FILE, refuses a name in both, and never echoes a key", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "profiles-"))
      const file = join(dir, "profiles.json")
      writeFileSync(file, JSON.stringify({ claude: { kind: "anthropic", apiKey: Key } }))
      const both = yield* load({ MODEL_PROFILES: JSON.stringify({ local: { kind: "openai" } }), MODEL_PROFILES_FILE: file })
      if (Either.isLeft(both)) throw new Error(String(both.left))
      expect(Object.keys(both.right.modelProfiles).sort()).toEqual(["claude", "local"])
      expect(Redacted.value(both.right.modelProfiles["claude"]!.apiKey!)).toBe(Key)

      const twice = yield* load({ MODEL_PROFILES: JSON.stringify({ claude: { kind: "openai" } }), MODEL_PROFILES_FILE: file })
      expect(Either.isLeft(twice) && String(twice.left)).toMatch(/"claude" is defined by both/)

      const badKind = yield* load({ MODEL_PROFILES: JSON.stringify({ local: { kind: "x", apiKey: Key } }) })
      expect(Either.isLeft(badKind) && String(badKind.left)).toMatch(/profile "local": kind/)
      expect(Either.isLeft(badKind) && String(badKind.left)).not.toContain(Key)

      const missing = yield* load({ MODEL_PROFILES_FILE: join(dir, "absent.json") })
      expect(Either.isLeft(missing) && String(missing.left)).toMatch(/MODEL_PROFILES_FILE names a file that cannot be read/)

      const none = yield* load({})
      expect(Either.isRight(none) && none.right.modelProfiles).toEqual({})
    }))
})
