/**
 * EVM proofs: an EIP-191 (`personal_sign`) signature of the challenge message, checked with
 * viem. An address is proven when the signature recovers to it (externally owned accounts;
 * ERC-1271/6492 smart accounts are not verified). A registry token (ERC-8004 identity,
 * ERC-721) is proven when the signer is the token's `ownerOf(tokenId)` on its chain, read
 * through the JSON-RPC endpoint configured for the chain's CAIP-2 id (`CHAIN_RPC_URLS`).
 */
import { Effect } from "effect"
import {
  type BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  getAddress,
  http,
  isHex,
  recoverMessageAddress,
  RpcRequestError
} from "viem"
import { ChainRpcUnavailable, SignatureInvalid, SignerNotTokenOwner } from "../../Errors.js"
import { type ProofFetch, ProofFetchTimeoutMs, withProofTimeout } from "./fetch.js"

const ownerOfAbi = [{
  type: "function",
  name: "ownerOf",
  stateMutability: "view",
  inputs: [{ name: "tokenId", type: "uint256" }],
  outputs: [{ name: "owner", type: "address" }]
}] as const

/** The EIP-55 address that signed `message` (EIP-191), from a `0x` + 130 hex signature. Fails with `SignatureInvalid`. */
export const recoverSigner = (message: string, signature: string): Effect.Effect<string, SignatureInvalid> =>
  !isHex(signature, { strict: true }) || signature.length !== 132
    ? Effect.fail(new SignatureInvalid({ detail: "An EVM signature is 0x and 130 hex digits (65 bytes, EIP-191 personal_sign)." }))
    : Effect.tryPromise({
      try: () => recoverMessageAddress({ message, signature: signature as `0x${string}` }),
      catch: () => new SignatureInvalid({ detail: "The EVM signature does not recover to an address." })
    })

/** Proves an EVM address: the EIP-191 signer of `message` must be `address` (EIP-55). Fails with `SignatureInvalid`. */
export const proveAddress = (address: string, message: string, signature: string) =>
  Effect.flatMap(recoverSigner(message, signature), (signer) =>
    signer === getAddress(address)
      ? Effect.void
      : Effect.fail(new SignatureInvalid({ detail: "The signature was not made by the locator's address over the challenge message." })))

/**
 * Proves a registry token: the EIP-191 signer of `message` must be `ownerOf(tokenId)` of
 * `registry` on the chain of `rpcUrl`. Fails with `SignatureInvalid`, `SignerNotTokenOwner`
 * (another owner, no such token, or no ERC-721 at the registry address) or
 * `ChainRpcUnavailable` (the endpoint did not answer within the proof timeout). Returns the
 * signer (EIP-55), the token's owner.
 */
export const proveTokenOwner = (input: {
  /** The outbound client's fetch. */
  readonly fetch: ProofFetch
  readonly rpcUrl: string
  readonly chain: string
  readonly registry: string
  readonly tokenId: string
  readonly message: string
  readonly signature: string
}) =>
  Effect.gen(function*() {
    const signer = yield* recoverSigner(input.message, input.signature)
    const client = createPublicClient({
      transport: http(input.rpcUrl, { fetchFn: withProofTimeout(input.fetch), timeout: ProofFetchTimeoutMs, retryCount: 0 })
    })
    const owner = yield* Effect.tryPromise({
      try: () =>
        client.readContract({
          address: input.registry as `0x${string}`,
          abi: ownerOfAbi,
          functionName: "ownerOf",
          args: [BigInt(input.tokenId)]
        }),
      catch: (error) => {
        const e = error as BaseError
        // the node answered that the call reverts (viem's decoded revert, or a node that only says "revert" in its
        // JSON-RPC error) or that no contract is there: the token has no owner to match
        const reverted = typeof e.walk === "function" &&
          e.walk((c) =>
            c instanceof ContractFunctionRevertedError || c instanceof ContractFunctionZeroDataError ||
            (c instanceof RpcRequestError && /revert/i.test(c.details))
          ) !== null
        return reverted
          ? new SignerNotTokenOwner({ detail: "The registry has no owner of this token on the chain (no such token, or not an ERC-721)." })
          : new ChainRpcUnavailable({ detail: `The JSON-RPC endpoint of ${input.chain} did not answer.`, retryAfter: 30 })
      }
    })
    if (getAddress(owner) !== signer) {
      return yield* new SignerNotTokenOwner({ detail: "The signer of the challenge message is not the token's ownerOf on its chain." })
    }
    return signer
  })
