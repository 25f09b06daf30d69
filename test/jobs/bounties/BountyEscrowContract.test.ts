/**
 * contracts/BountyEscrow.sol on anvil, through the service's ABI and typed data
 * (src/jobs/bounties/Escrow.ts): a client funds one escrow per bounty with a TestToken (no
 * provider named at funding), an arbiter's EIP-712 decision pays it out once to the provider it
 * names (release, refund, split); a second payout, a decision that does not add up, a provider's
 * part without a provider, and a decision signed by a non-arbiter (or altered: another payee)
 * revert; the service's digest is the contract's `hashTypedDataV4`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { randomUUID } from "node:crypto"
import { type Address, BaseError, ContractFunctionRevertedError, getAddress, type Hex, parseAbi } from "viem"
import { type Anvil, startAnvil } from "../../../demo/chain/anvil.js"
import { deployContract } from "../../../demo/chain/contracts.js"
import {
  BountyEscrowAbi,
  decisionTypedData,
  type EscrowDecision,
  escrowDecisionDigest,
  escrowId,
  NoProviderAddress
} from "../../../src/jobs/bounties/Escrow.js"

const TokenAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)"
])

let anvil: Anvil
let token: Address
let escrow: Address
// accounts: 0 deployer/admin, 1 arbiter, 2 client, 3 provider, 4 stranger
const arbiter = 1
const client = 2
const provider = 3
const stranger = 4

const addressOf = (i: number) => anvil.accounts[i]!.address
const send = async (i: number, address: Address, abi: typeof TokenAbi | typeof BountyEscrowAbi, functionName: string, args: Array<unknown>) => {
  const wallet = anvil.wallet(i)
  const hash = await wallet.writeContract({ address, abi, functionName, args, account: wallet.account!, chain: wallet.chain } as never)
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  expect(receipt.status).toBe("success")
  return receipt
}
const balance = (i: number) =>
  anvil.publicClient.readContract({ address: token, abi: TokenAbi, functionName: "balanceOf", args: [addressOf(i)] })

/** Funds a new bounty's escrow with `amount` from the client; returns the bounty's uuid. */
const funded = async (amount: bigint) => {
  const bountyId = randomUUID()
  await send(client, token, TokenAbi, "mint", [addressOf(client), amount])
  await send(client, token, TokenAbi, "approve", [escrow, amount])
  await send(client, escrow, BountyEscrowAbi, "fund", [escrowId(bountyId), token, amount])
  return bountyId
}

const sign = (signer: number, decision: EscrowDecision) =>
  anvil.wallet(signer).signTypedData({ account: anvil.accounts[signer]!, ...decisionTypedData(anvil.chainId, escrow, decision) })

const onChain = (decision: EscrowDecision) => ({
  bountyId: escrowId(decision.bountyId),
  disputeId: escrowId(decision.disputeId),
  provider: getAddress(decision.provider),
  toProvider: decision.toProvider,
  toClient: decision.toClient
})

const resolve = (decision: EscrowDecision, signature: Hex) =>
  send(stranger, escrow, BountyEscrowAbi, "resolve", [{
    bountyId: escrowId(decision.bountyId),
    disputeId: escrowId(decision.disputeId),
    provider: getAddress(decision.provider),
    toProvider: decision.toProvider,
    toClient: decision.toClient
  }, signature])

/** The custom error a call reverts with (its simulation), or null when it would succeed. */
const revertOf = async (decision: EscrowDecision, signature: Hex) => {
  try {
    await anvil.publicClient.simulateContract({
      address: escrow,
      abi: BountyEscrowAbi,
      functionName: "resolve",
      args: [onChain(decision), signature],
      account: addressOf(stranger)
    })
    return null
  } catch (e) {
    const reverted = e instanceof BaseError ? e.walk((c) => c instanceof ContractFunctionRevertedError) : null
    return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName ?? "unknown" : String(e)
  }
}

beforeAll(async () => {
  anvil = await startAnvil()
  const deployer = { wallet: anvil.wallet(0), publicClient: anvil.publicClient }
  token = await deployContract(deployer, "TestToken", ["Test USD", "TUSD", 6])
  escrow = await deployContract(deployer, "BountyEscrow", [addressOf(0), addressOf(arbiter)])
}, 120_000)
afterAll(() => anvil?.stop())

describe("BountyEscrow contract", () => {
  it("the service's digest is the contract's EIP-712 digest", async () => {
    const decision = { bountyId: randomUUID(), disputeId: randomUUID(), provider: addressOf(provider), toProvider: 123n, toClient: 456n }
    const digest = await anvil.publicClient.readContract({
      address: escrow,
      abi: BountyEscrowAbi,
      functionName: "decisionDigest",
      args: [onChain(decision)]
    })
    expect(escrowDecisionDigest(anvil.chainId, escrow, decision)).toBe(digest)
    // another chain, another contract or another provider is another digest
    expect(escrowDecisionDigest(anvil.chainId + 1, escrow, decision)).not.toBe(digest)
    expect(escrowDecisionDigest(anvil.chainId, token, decision)).not.toBe(digest)
    expect(escrowDecisionDigest(anvil.chainId, escrow, { ...decision, provider: addressOf(stranger) })).not.toBe(digest)
  })

  it("fund: pulls the tokens, one escrow per bounty", async () => {
    const before = await balance(client)
    const bountyId = await funded(1_000_000n)
    expect(await balance(client)).toBe(before)
    const [tokenOf, clientOf, amount, resolved] = await anvil.publicClient.readContract({
      address: escrow, abi: BountyEscrowAbi, functionName: "escrows", args: [escrowId(bountyId)]
    })
    expect({ tokenOf, clientOf, amount, resolved }).toEqual({
      tokenOf: getAddress(token), clientOf: addressOf(client), amount: 1_000_000n, resolved: false
    })
    await send(client, token, TokenAbi, "mint", [addressOf(client), 5n])
    await send(client, token, TokenAbi, "approve", [escrow, 5n])
    await expect(anvil.publicClient.simulateContract({
      address: escrow, abi: BountyEscrowAbi, functionName: "fund", args: [escrowId(bountyId), token, 5n], account: addressOf(client)
    })).rejects.toThrow(/AlreadyFunded/)
  })

  it("release: all to the provider, once; a second decision reverts", async () => {
    const bountyId = await funded(250_000_000n)
    const decision = { bountyId, disputeId: randomUUID(), provider: addressOf(provider), toProvider: 250_000_000n, toClient: 0n }
    const signature = await sign(arbiter, decision)
    const providerBefore = await balance(provider)
    const clientBefore = await balance(client)
    await resolve(decision, signature)
    expect(await balance(provider)).toBe(providerBefore + 250_000_000n)
    expect(await balance(client)).toBe(clientBefore)
    expect(await revertOf(decision, signature)).toBe("AlreadyResolved")
    const refund = { ...decision, toProvider: 0n, toClient: 250_000_000n }
    expect(await revertOf(refund, await sign(arbiter, refund))).toBe("AlreadyResolved")
  })

  it("refund: all back to the client", async () => {
    const bountyId = await funded(40_000_000n)
    const decision = { bountyId, disputeId: randomUUID(), provider: NoProviderAddress, toProvider: 0n, toClient: 40_000_000n }
    const clientBefore = await balance(client)
    const providerBefore = await balance(provider)
    const receipt = await resolve(decision, await sign(arbiter, decision))
    expect(await balance(client)).toBe(clientBefore + 40_000_000n)
    expect(await balance(provider)).toBe(providerBefore)
    expect(receipt.logs.some((l) => l.address.toLowerCase() === escrow.toLowerCase())).toBe(true)
  })

  it("split: each their part; parts that do not add up to the escrow revert", async () => {
    const bountyId = await funded(1_000_000n)
    const short = { bountyId, disputeId: randomUUID(), provider: addressOf(provider), toProvider: 600_000n, toClient: 399_999n }
    expect(await revertOf(short, await sign(arbiter, short))).toBe("AmountMismatch")
    const decision = { ...short, toClient: 400_000n }
    const clientBefore = await balance(client)
    const providerBefore = await balance(provider)
    await resolve(decision, await sign(arbiter, decision))
    expect(await balance(provider)).toBe(providerBefore + 600_000n)
    expect(await balance(client)).toBe(clientBefore + 400_000n)
  })

  it("a decision signed by a non-arbiter, or altered after signing, reverts NotArbiter; an unfunded bounty NotFunded", async () => {
    const bountyId = await funded(7_000n)
    const decision = { bountyId, disputeId: randomUUID(), provider: addressOf(provider), toProvider: 7_000n, toClient: 0n }
    expect(await revertOf(decision, await sign(stranger, decision))).toBe("NotArbiter")
    expect(await revertOf(decision, await sign(client, decision))).toBe("NotArbiter")
    const signature = await sign(arbiter, decision)
    expect(await revertOf({ ...decision, toProvider: 0n, toClient: 7_000n }, signature)).toBe("NotArbiter")
    expect(await revertOf({ ...decision, bountyId: randomUUID() }, signature)).toBe("NotFunded")
    // the provider is part of what the arbiter signed: another payee is another decision
    expect(await revertOf({ ...decision, provider: addressOf(stranger) }, signature)).toBe("NotArbiter")
    // a provider's part needs a provider
    const nobody = { ...decision, provider: NoProviderAddress }
    expect(await revertOf(nobody, await sign(arbiter, nobody))).toBe("NoProvider")
    expect(await revertOf(decision, signature)).toBeNull()
  })
})
