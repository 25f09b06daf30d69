/**
 * The part of the ERC-8004 Identity Registry (contracts/IdentityRegistry.sol) the service uses:
 * `register(agentURI)` (the call a REGISTRY_GENESIS run's transaction makes; it mints the next
 * `agentId` to the sender), `ownerOf` (EXTERNAL_IMPORT's proof), and the `Registered` and ERC-721
 * `Transfer` events a confirmed receipt is read for (viem `parseEventLogs`).
 * test/launch/IdentityRegistry.test.ts checks each item against the compiled contract's ABI.
 */
import { parseAbi } from "viem"

/** The Identity Registry functions and events the service calls, reads or decodes. */
export const IdentityRegistryAbi = parseAbi([
  "function register(string agentURI) returns (uint256 agentId)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function tokenURI(uint256 tokenId) view returns (string)",
  "event Registered(uint256 indexed agentId, string agentURI, address indexed owner)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"
])
