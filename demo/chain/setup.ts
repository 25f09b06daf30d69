/**
 * The chain of `npm run demo:chain` (demo/cli/demo-chain.ts): a local anvil with the service's
 * contracts deployed and the settings that point the server at them. Also used by its smoke test.
 *
 * - Deploys each contract of `contracts/` the service uses, where its source exists:
 *   `IdentityRegistry` (role `identityRegistry`), `BountyEscrow` (`bountyEscrow`) and `TestToken`
 *   (`treasuryToken`, "Treasury Token" TT, 18 decimals). Constructor arguments are filled from the
 *   ABI: addresses are the platform signer (admin, arbiter), `name`/`symbol`/`decimals` those of
 *   the treasury token, other integers 0.
 * - Grants the escrow's `ARBITER_ROLE` to the platform signer when the contract has one and the
 *   signer lacks it.
 * - Mints {@link DemoTreasuryUnits} treasury tokens to the platform signer.
 * - `PaymentToken` (role `paymentToken`): the EIP-3009 token x402 payments settle in ("Payment
 *   Token" PAY, 6 decimals); mints {@link DemoPaymentUnits} of it to the demo buyer, anvil
 *   account {@link DemoBuyerAccount}.
 * - Starts the local x402 facilitator (demo/chain/facilitator.ts, settling from anvil account 9)
 *   and names it in the settings (`X402_FACILITATOR_URL`, its host in `OUTBOUND_ALLOWED_HOSTS`).
 *
 * The platform signer is anvil's development account 0 (its key is public: never use it anywhere
 * real).
 */
import { type Abi, type AbiParameter, type Address, getAddress, type Hex } from "viem"
import { type Anvil, startAnvil } from "./anvil.js"
import { compileContracts, deployContract } from "./contracts.js"
import { type LocalFacilitator, startFacilitator } from "./facilitator.js"

/** Contract name in `contracts/` → the role the service knows it by (`CHAIN_CONTRACTS`). */
export const DemoContractRoles: Readonly<Record<string, string>> = {
  IdentityRegistry: "identityRegistry",
  BountyEscrow: "bountyEscrow",
  TestToken: "treasuryToken",
  PaymentToken: "paymentToken"
}

/** The anvil account whose wallet buys over x402 in the demo (its key is anvil's public development key 3). */
export const DemoBuyerAccount = 3

/** The anvil account an offer's payout address can be in the demo (anvil account 4). */
export const DemoPayoutAccount = 4

/** Units of the payment token minted to the demo buyer: one thousand tokens of 6 decimals. */
export const DemoPaymentUnits = 1_000_000_000n

/** Units of the treasury token minted to the platform signer: one million tokens of 18 decimals. */
export const DemoTreasuryUnits = 10n ** 24n

/** What {@link setupChainDemo} made. */
export interface ChainDemo {
  readonly anvil: Anvil
  /** The platform signer's address (anvil account 0). */
  readonly signer: Address
  /** Deployed contracts by role. */
  readonly contracts: Readonly<Record<string, Address>>
  /** The local x402 facilitator, settling payment-token payments on anvil. */
  readonly facilitator: LocalFacilitator
  /** The demo buyer's address (anvil account {@link DemoBuyerAccount}), holding {@link DemoPaymentUnits} payment tokens. */
  readonly buyer: Address
  /**
   * The server's chain settings: `CHAIN_RPC_URLS`, `CHAIN_CONTRACTS`, `CHAIN_CONFIRMATIONS`,
   * `CHAIN_SIGNER_PRIVATE_KEY`, `X402_FACILITATOR_URL`, `OUTBOUND_ALLOWED_HOSTS` (anvil's and the facilitator's hosts).
   */
  readonly env: Readonly<Record<string, string>>
}

const argumentFor = (input: AbiParameter, signer: Address): unknown => {
  const name = (input.name ?? "").replace(/_+$/, "").replace(/^_+/, "")
  if (input.type === "address") return signer
  if (input.type === "string") return name === "symbol" ? "TT" : "Treasury Token"
  if (name === "decimals") return 18
  if (/^u?int[0-9]*$/.test(input.type)) return 0n
  if (input.type === "bool") return false
  throw new Error(`cannot fill the constructor argument ${input.name ?? "?"} (${input.type})`)
}

const constructorArgs = (abi: Abi, signer: Address) => {
  const ctor = abi.find((item) => item.type === "constructor")
  return ctor === undefined || !("inputs" in ctor) ? [] : ctor.inputs.map((i) => argumentFor(i, signer))
}

const hasFunction = (abi: Abi, name: string) => abi.some((item) => item.type === "function" && item.name === name)

/** Starts anvil, deploys and prepares the contracts, and returns the settings (see the module docs). */
export const setupChainDemo = async (options: { readonly confirmations?: number } = {}): Promise<ChainDemo> => {
  const anvil = await startAnvil()
  try {
    const artifacts = compileContracts()
    const wallet = anvil.wallet(0)
    const signer = anvil.accounts[0]!.address
    const client = { wallet, publicClient: anvil.publicClient }
    const contracts: Record<string, Address> = {}
    const send = async (address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown>) => {
      const hash = await wallet.writeContract({ address, abi, functionName, args, account: anvil.accounts[0]!, chain: null })
      await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    }
    for (const [name, role] of Object.entries(DemoContractRoles)) {
      const artifact = artifacts[name]
      if (artifact === undefined) continue
      const address = getAddress(await deployContract(client, name, constructorArgs(artifact.abi, signer)))
      contracts[role] = address
      if (hasFunction(artifact.abi, "ARBITER_ROLE") && hasFunction(artifact.abi, "grantRole")) {
        const arbiterRole = await anvil.publicClient.readContract({ address, abi: artifact.abi, functionName: "ARBITER_ROLE" }) as Hex
        const has = await anvil.publicClient.readContract({ address, abi: artifact.abi, functionName: "hasRole", args: [arbiterRole, signer] })
        if (has !== true) await send(address, artifact.abi, "grantRole", [arbiterRole, signer])
      }
      if (role === "treasuryToken" && hasFunction(artifact.abi, "mint")) {
        await send(address, artifact.abi, "mint", [signer, DemoTreasuryUnits])
      }
      if (role === "paymentToken" && hasFunction(artifact.abi, "mint")) {
        await send(address, artifact.abi, "mint", [anvil.accounts[DemoBuyerAccount]!.address, DemoPaymentUnits])
      }
    }
    const facilitator = await startFacilitator(anvil)
    const env = {
      CHAIN_RPC_URLS: `${anvil.network}=${anvil.rpcUrl}`,
      CHAIN_CONTRACTS: Object.entries(contracts).map(([role, address]) => `${role}@${anvil.network}=${address}`).join(","),
      CHAIN_CONFIRMATIONS: `${anvil.network}=${options.confirmations ?? 2}`,
      CHAIN_SIGNER_PRIVATE_KEY: anvil.privateKeys[0]!,
      X402_FACILITATOR_URL: facilitator.url,
      OUTBOUND_ALLOWED_HOSTS: `${anvil.host},${facilitator.host}`
    }
    return { anvil, signer, contracts, facilitator, buyer: anvil.accounts[DemoBuyerAccount]!.address, env }
  } catch (e) {
    await anvil.stop()
    throw e
  }
}
