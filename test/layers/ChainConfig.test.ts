/** The chain layer's settings (layers/ChainConfig.ts): each variable parsed, and its rule named when broken. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { loadAppConfig } from "../../layers/AppConfig.js"
import { parseConfirmations, parseContracts, parseExplorerUrls } from "../../layers/ChainConfig.js"

const load = (env: Record<string, string>) =>
  Effect.either(loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("chain settings", () => {
  it("CHAIN_CONFIRMATIONS: depths by CAIP-2 id, 1..1000, each chain once", () => {
    expect(parseConfirmations("eip155:8453=3, eip155:1=12")).toEqual(new Map([["eip155:8453", 3], ["eip155:1", 12]]))
    expect(parseConfirmations("eip155:1=0")).toMatch(/1\.\.1000/)
    expect(parseConfirmations("base=3")).toMatch(/CAIP-2/)
    expect(parseConfirmations("eip155:1=2,eip155:1=3")).toMatch(/twice/)
  })

  it("CHAIN_EXPLORER_URLS: http(s) base URLs, trailing slash dropped", () => {
    expect(parseExplorerUrls("eip155:8453=https://basescan.org/")).toEqual(new Map([["eip155:8453", "https://basescan.org"]]))
    expect(parseExplorerUrls("eip155:8453=ftp://x")).toMatch(/http or https/)
  })

  it("CHAIN_CONTRACTS: <role>@<CAIP-2>=<address>, addresses checksummed (EIP-55)", () => {
    const parsed = parseContracts("identityRegistry@eip155:31337=0x5fbdb2315678afecb367f032d93f642f64180aa3")
    expect(typeof parsed !== "string" && parsed.get("eip155:31337")?.get("identityRegistry")).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3")
    expect(parseContracts("eip155:1=0x5fbdb2315678afecb367f032d93f642f64180aa3")).toMatch(/<role>@/)
    expect(parseContracts("escrow@eip155:1=0x12")).toMatch(/40 hex/)
    expect(parseContracts("escrow@eip155:1=0x5fbdb2315678afecb367f032d93f642f64180aa3,escrow@eip155:1=0x5fbdb2315678afecb367f032d93f642f64180aa3"))
      .toMatch(/twice/)
  })

  it.effect("the signer key is redacted and checked without repeating it", () =>
    Effect.gen(function*() {
      const key = `0x${"ab".repeat(32)}`
      const good = yield* load({ CHAIN_SIGNER_PRIVATE_KEY: key })
      expect(Either.isRight(good) && Option.map(good.right.chain.signerKey, Redacted.value)).toEqual(Option.some(key))
      expect(Either.isRight(good) && String(good.right.chain.signerKey)).not.toContain("abab")
      const bad = yield* load({ CHAIN_SIGNER_PRIVATE_KEY: "0xdeadbeef" })
      expect(Either.isLeft(bad) && String(bad.left)).toMatch(/CHAIN_SIGNER_PRIVATE_KEY must be 0x and 64 hex/)
      expect(Either.isLeft(bad) && String(bad.left)).not.toContain("deadbeef")
    }))
})
