/**
 * The bounty escrow contract (`contracts/BountyEscrow.sol`) as the service sees it: its ABI,
 * how a bounty's and a dispute's uuids become the contract's `bytes32` ids, and the EIP-712
 * typed data of an arbiter's decision (the contract's domain: name "BountyEscrow", version "1",
 * the network's chain id, `verifyingContract` = the escrow's address). Pure functions (viem).
 */
import { type Address, getAddress, type Hex, hashTypedData, pad, parseAbi } from "viem"

/** The functions and events of the escrow contract the service calls or reads. */
export const BountyEscrowAbi = parseAbi([
  "struct Decision { bytes32 bountyId; bytes32 disputeId; address provider; uint256 toProvider; uint256 toClient; }",
  "function fund(bytes32 bountyId, address token, uint256 amount)",
  "function resolve(Decision decision, bytes signature)",
  "function decisionDigest(Decision decision) view returns (bytes32)",
  "function escrows(bytes32 bountyId) view returns (address token, address client, uint256 amount, bool resolved)",
  "function ARBITER_ROLE() view returns (bytes32)",
  "function grantRole(bytes32 role, address account)",
  "event Funded(bytes32 indexed bountyId, address indexed client, address token, uint256 amount)",
  "event Resolved(bytes32 indexed bountyId, bytes32 indexed disputeId, address indexed arbiter, address provider, uint256 toProvider, uint256 toClient)",
  "error InvalidFunding()",
  "error AlreadyFunded(bytes32 bountyId)",
  "error NotFunded(bytes32 bountyId)",
  "error AlreadyResolved(bytes32 bountyId)",
  "error AmountMismatch(uint256 escrowed, uint256 decided)",
  "error NotArbiter(address signer)",
  "error NoProvider()"
])

/** The zero address: the `provider` of a decision that pays the provider nothing. */
export const NoProviderAddress: Address = "0x0000000000000000000000000000000000000000"

/** The `disputeId` of a payout without a dispute (an accepted delivery, a cancellation, an expiry). */
export const NoDispute = "00000000-0000-0000-0000-000000000000"

/** The contract's id of a uuid (a bounty's or a dispute's): its 16 bytes, left-padded to 32. */
export const escrowId = (uuid: string): Hex => pad(`0x${uuid.replace(/-/g, "").toLowerCase()}`, { size: 32 })

/**
 * An arbiter's payout of one bounty's escrow (token units): `toProvider` to `provider` (the
 * claimant's payout address; {@link NoProviderAddress} when it gets nothing), `toClient` back to
 * the funder. `disputeId` is {@link NoDispute} for a payout without a dispute.
 */
export interface EscrowDecision {
  readonly bountyId: string
  readonly disputeId: string
  readonly provider: string
  readonly toProvider: bigint
  readonly toClient: bigint
}

/** The EIP-155 chain id of a CAIP-2 `eip155:<n>` network, or null for any other. */
export const evmChainId = (network: string): number | null => {
  const match = /^eip155:([0-9]{1,15})$/.exec(network)
  return match ? Number(match[1]) : null
}

/** The EIP-712 typed data of `decision` for the escrow contract at `contract` on chain `chainId`. */
export const decisionTypedData = (chainId: number, contract: string, decision: EscrowDecision) => ({
  domain: { name: "BountyEscrow", version: "1", chainId, verifyingContract: getAddress(contract) as Address },
  types: {
    Decision: [
      { name: "bountyId", type: "bytes32" },
      { name: "disputeId", type: "bytes32" },
      { name: "provider", type: "address" },
      { name: "toProvider", type: "uint256" },
      { name: "toClient", type: "uint256" }
    ]
  },
  primaryType: "Decision" as const,
  message: {
    bountyId: escrowId(decision.bountyId),
    disputeId: escrowId(decision.disputeId),
    provider: getAddress(decision.provider) as Address,
    toProvider: decision.toProvider,
    toClient: decision.toClient
  }
})

/** The decision's EIP-712 digest (what the contract's `decisionDigest` returns and the arbiter signs): 0x + 64 hex. */
export const escrowDecisionDigest = (chainId: number, contract: string, decision: EscrowDecision): Hex =>
  hashTypedData(decisionTypedData(chainId, contract, decision))
