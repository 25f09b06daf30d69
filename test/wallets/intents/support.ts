/**
 * A test chain for transaction intents: anvil (demo/chain/anvil.ts) with a TestToken deployed
 * and minted to the owner's account (anvil account 1); the platform signs with anvil account 0.
 * The configuration overrides point the server at it.
 */
import { Option, Redacted } from "effect"
import { type Address, parseAbi } from "viem"
import { type Anvil, startAnvil } from "../../../demo/chain/anvil.js"
import { compileContracts, deployContract } from "../../../demo/chain/contracts.js"
import { testConfig, type TestConfigShape } from "../../support/config.js"

/** The ERC-20 functions the tests call. */
export const erc20 = parseAbi([
  "function transfer(address to, uint256 amount) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
  "function mint(address to, uint256 amount)"
])

/** Anvil with a TestToken minted to account 1 (the owner) and account 0 (the platform). */
export const startTokenChain = async (): Promise<{ readonly anvil: Anvil; readonly token: Address }> => {
  const anvil = await startAnvil()
  compileContracts()
  const token = await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "TestToken", ["Test", "TST", 18])
  for (const i of [0, 1]) {
    const hash = await anvil.wallet(0).writeContract({
      address: token,
      abi: erc20,
      functionName: "mint",
      args: [anvil.accounts[i]!.address, 1_000_000n],
      chain: anvil.wallet(0).chain,
      account: anvil.accounts[0]!
    })
    await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  }
  return { anvil, token }
}

/** Server settings for `anvil`: its RPC allowed, 1 confirmation, the platform key of account 0 (or none). */
export const chainOverrides = (anvil: Anvil, options: { readonly signer?: boolean } = {}): Partial<TestConfigShape> => ({
  chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[anvil.network, 1]]),
    signerKey: options.signer === false ? Option.none() : Option.some(Redacted.make(anvil.privateKeys[0]!)),
    pollIntervalMs: 200
  }
})
