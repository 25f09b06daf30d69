/** `CHAIN_RPC_URLS` (layers/AppConfig.ts): CAIP-2 chain id → http(s) URL entries, validated at start-up. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { loadAppConfig, parseChainRpcUrls } from "../../layers/AppConfig.js"

describe("CHAIN_RPC_URLS", () => {
  it("parses comma-separated <CAIP-2>=<URL> entries; empty is none", () => {
    const parsed = parseChainRpcUrls(" eip155:8453=https://base.example/rpc , eip155:1=http://127.0.0.1:8545 ,")
    expect(parsed).toEqual(new Map([["eip155:8453", "https://base.example/rpc"], ["eip155:1", "http://127.0.0.1:8545/"]]))
    expect(parseChainRpcUrls("")).toEqual(new Map())
  })

  it("names the rule an entry breaks", () => {
    expect(parseChainRpcUrls("base=https://x.example")).toMatch(/CAIP-2/)
    expect(parseChainRpcUrls("eip155:1=ftp://x.example")).toMatch(/http or https/)
    expect(parseChainRpcUrls("eip155:1=not a url")).toMatch(/http or https/)
    expect(parseChainRpcUrls("eip155:1=https://a.example,eip155:1=https://b.example")).toMatch(/twice/)
  })

  it.effect("stops the configuration load with a clear message", () =>
    Effect.gen(function*() {
      const load = (value: string) =>
        Effect.either(loadAppConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["CHAIN_RPC_URLS", value]])))))
      const bad = yield* load("eip155=https://x.example")
      expect(Either.isLeft(bad) && String(bad.left)).toMatch(/CHAIN_RPC_URLS/)
      const good = yield* load("eip155:8453=https://x.example")
      expect(Either.isRight(good) && good.right.chainRpcUrls.get("eip155:8453")).toBe("https://x.example/")
    }))
})
