/**
 * `npm run demo:chain`'s setup (demo/chain/setup.ts): a real anvil with the service's contracts
 * deployed from `contracts/`, the treasury token minted to the platform signer, the payment token
 * to the demo buyer, the local x402 facilitator running, and server
 * settings the configuration accepts (layers/ChainConfig.ts, layers/AppConfig.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { erc20Abi } from "viem"
import { compileContracts } from "../../demo/chain/contracts.js"
import { DemoContractRoles, DemoPaymentUnits, DemoTreasuryUnits, setupChainDemo } from "../../demo/chain/setup.js"
import { chainOptions } from "../../layers/ChainConfig.js"

describe("demo:chain setup", () => {
  it("deploys every known contract of contracts/, mints treasury tokens to the signer, and returns valid settings", { timeout: 120_000 }, async () => {
    const demo = await setupChainDemo()
    try {
      const present = Object.keys(DemoContractRoles).filter((name) => compileContracts()[name] !== undefined)
      expect(present).toContain("TestToken")
      expect(Object.keys(demo.contracts).sort()).toEqual(present.map((name) => DemoContractRoles[name]!).sort())
      for (const address of Object.values(demo.contracts)) {
        expect((await demo.anvil.publicClient.getCode({ address }))?.length ?? 0).toBeGreaterThan(2)
      }
      const balance = await demo.anvil.publicClient.readContract({
        address: demo.contracts["treasuryToken"]!, abi: erc20Abi, functionName: "balanceOf", args: [demo.signer]
      })
      expect(balance).toBe(DemoTreasuryUnits)
      expect(demo.env["CHAIN_RPC_URLS"]).toBe(`${demo.anvil.network}=${demo.anvil.rpcUrl}`)
      expect(demo.env["OUTBOUND_ALLOWED_HOSTS"]).toBe(`${demo.anvil.host},${demo.facilitator.host}`)
      // the x402 side: the payment token minted to the buyer, the facilitator answering for anvil's network
      expect(present).toContain("PaymentToken")
      expect(await demo.anvil.publicClient.readContract({
        address: demo.contracts["paymentToken"]!, abi: erc20Abi, functionName: "balanceOf", args: [demo.buyer]
      })).toBe(DemoPaymentUnits)
      expect(demo.env["X402_FACILITATOR_URL"]).toBe(demo.facilitator.url)
      const supported = await (await fetch(`${demo.facilitator.url}/supported`)).json() as { kinds: Array<{ network: string }> }
      expect(supported.kinds.map((k) => k.network)).toContain(demo.anvil.network)
      const options = await Effect.runPromise(
        Effect.withConfigProvider(chainOptions, ConfigProvider.fromMap(new Map(Object.entries(demo.env))))
      )
      expect(options.confirmations.get(demo.anvil.network)).toBe(2)
      expect(options.contracts.get(demo.anvil.network)?.get("treasuryToken")).toBe(demo.contracts["treasuryToken"])
      expect(Option.map(options.signerKey, Redacted.value)).toEqual(Option.some(demo.anvil.privateKeys[0]))
    } finally {
      await demo.facilitator.stop()
      await demo.anvil.stop()
    }
  })
})
