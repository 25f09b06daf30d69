/**
 * The chain layer: the configured networks (CAIP-2 ids, `CHAIN_RPC_URLS` and layers/ChainConfig.ts),
 * a viem public client per EVM network whose JSON-RPC requests go through the one guarded
 * outbound client (layers/Outbound.ts), contract addresses by role, explorer links, and the
 * platform's signer behind one interface ({@link PlatformSigner}) so that a KMS can replace the
 * configured key.
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import {
  type Address,
  type Chain as ViemChain,
  createPublicClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type TransactionSerializableEIP1559,
  type TypedDataDefinition
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import * as knownChains from "viem/chains"
import { ConfigurationMissing } from "../schema/errors.js"
import { AppConfig, OutboundConfigLive } from "./AppConfig.js"
import { DefaultConfirmations } from "./ChainConfig.js"
import { Outbound } from "./Outbound.js"

/** One configured network. */
export interface NetworkInfo {
  /** CAIP-2 id: `eip155:8453`. */
  readonly id: string
  /** The CAIP-2 namespace: `eip155`. */
  readonly family: string
  /** The EIP-155 chain id of an `eip155` network, else null. */
  readonly chainId: number | null
  /** viem's name for a known chain, else the CAIP-2 id. */
  readonly displayName: string
  /** The block explorer's base URL (`CHAIN_EXPLORER_URLS`, else viem's registry), or null. */
  readonly explorerUrl: string | null
  /** Blocks on top of a transaction's block, itself included, before it is CONFIRMED. */
  readonly confirmations: number
}

/** The chain layer. */
export interface ChainShape {
  /** Every network of `CHAIN_RPC_URLS`, in CAIP-2 id order. */
  readonly networks: ReadonlyArray<NetworkInfo>
  /** One network; 422 `configuration-missing` when it is not configured. */
  readonly network: (id: string) => Effect.Effect<NetworkInfo, ConfigurationMissing>
  /** The viem client of an EVM network; 422 `configuration-missing` when it is not configured or not `eip155`. */
  readonly client: (id: string) => Effect.Effect<PublicClient, ConfigurationMissing>
  /** The address of a contract role on a network (`CHAIN_CONTRACTS`); 422 `configuration-missing` without one. */
  readonly contract: (id: string, role: string) => Effect.Effect<Address, ConfigurationMissing>
  /** The explorer page of a transaction, or null when the network has no explorer. */
  readonly transactionUrl: (id: string, hash: string) => string | null
}

/** The chain layer (see {@link ChainShape}). */
export class Chain extends Context.Tag("agent-directory/Chain")<Chain, ChainShape>() {}

const chainsById = new Map<number, ViemChain>(
  Object.values(knownChains as Record<string, unknown>)
    .filter((c): c is ViemChain => typeof c === "object" && c !== null && typeof (c as ViemChain).id === "number")
    .map((c) => [c.id, c] as const)
)

const missing = (detail: string) => new ConfigurationMissing({ detail })

/** Builds the chain layer from `AppConfig` and the outbound client. */
export const makeChain = Effect.gen(function*() {
  const config = yield* AppConfig
  const outbound = yield* Outbound
  const infos = new Map<string, NetworkInfo>()
  const clients = new Map<string, PublicClient>()
  for (const [id, rpcUrl] of [...config.chainRpcUrls].sort(([a], [b]) => a.localeCompare(b))) {
    const [family, reference] = id.split(":") as [string, string]
    const chainId = family === "eip155" && /^[0-9]+$/.test(reference) ? Number(reference) : null
    const known = chainId === null ? undefined : chainsById.get(chainId)
    infos.set(id, {
      id,
      family,
      chainId,
      displayName: known?.name ?? id,
      explorerUrl: config.chain.explorerUrls.get(id) ?? known?.blockExplorers?.default.url ?? null,
      confirmations: config.chain.confirmations.get(id) ?? DefaultConfirmations
    })
    if (chainId !== null) {
      const chain = defineChain({
        ...(known ?? { name: id, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 } }),
        id: chainId,
        rpcUrls: { default: { http: [rpcUrl] } }
      })
      clients.set(id, createPublicClient({ chain, transport: http(rpcUrl, { fetchFn: outbound.fetch, retryCount: 1, timeout: config.outbound.timeoutMs }) }))
    }
  }
  const network = (id: string) =>
    Option.match(Option.fromNullable(infos.get(id)), {
      onNone: () => Effect.fail(missing(`The network ${id} is not configured (CHAIN_RPC_URLS).`)),
      onSome: Effect.succeed
    })
  return Chain.of({
    networks: [...infos.values()],
    network,
    client: (id) =>
      Option.match(Option.fromNullable(clients.get(id)), {
        onNone: () => Effect.fail(missing(`The network ${id} is not a configured EVM network (CHAIN_RPC_URLS).`)),
        onSome: Effect.succeed
      }),
    contract: (id, role) =>
      Option.match(Option.fromNullable(config.chain.contracts.get(id)?.get(role)), {
        onNone: () => Effect.fail(missing(`No ${role} contract is configured on ${id} (CHAIN_CONTRACTS).`)),
        onSome: Effect.succeed
      }),
    transactionUrl: (id, hash) => {
      const base = infos.get(id)?.explorerUrl
      return base ? `${base.replace(/\/+$/, "")}/tx/${hash}` : null
    }
  })
})

/** The chain layer from `AppConfig` and `Outbound`. */
export const ChainLive: Layer.Layer<Chain, never, AppConfig | Outbound> = Layer.effect(Chain, makeChain)

/**
 * The platform's signer: signs the transactions the platform itself sends (escrow arbitration,
 * token operations) and EIP-712 typed data. The built-in one holds `CHAIN_SIGNER_PRIVATE_KEY`;
 * a KMS-backed one implements the same interface. Every method fails with 422
 * `configuration-missing` when no signer is configured. Callers check a wallet's policy
 * before asking for a signature; the signer signs what it is given.
 */
export interface PlatformSignerShape {
  /** The signer's address (EIP-55), none without a signer. */
  readonly address: Option.Option<Address>
  /** Signs an EIP-1559 transaction; returns the serialized signed transaction. */
  readonly signTransaction: (tx: TransactionSerializableEIP1559) => Effect.Effect<Hex, ConfigurationMissing>
  /** Signs EIP-712 typed data; returns the 65-byte signature. */
  readonly signTypedData: (data: TypedDataDefinition) => Effect.Effect<Hex, ConfigurationMissing>
}

/** The platform's signer (see {@link PlatformSignerShape}). */
export class PlatformSigner extends Context.Tag("agent-directory/PlatformSigner")<PlatformSigner, PlatformSignerShape>() {}

const noSigner = missing("No platform signer is configured (CHAIN_SIGNER_PRIVATE_KEY).")

/** The built-in signer: the key of `CHAIN_SIGNER_PRIVATE_KEY`, held in memory. */
export const PlatformSignerLive: Layer.Layer<PlatformSigner, never, AppConfig> = Layer.effect(
  PlatformSigner,
  Effect.map(AppConfig, (config) =>
    Option.match(config.chain.signerKey, {
      onNone: () =>
        PlatformSigner.of({ address: Option.none(), signTransaction: () => Effect.fail(noSigner), signTypedData: () => Effect.fail(noSigner) }),
      onSome: (key) => {
        const account = privateKeyToAccount(Redacted.value(key) as Hex)
        return PlatformSigner.of({
          address: Option.some(account.address),
          signTransaction: (tx) => Effect.promise(() => account.signTransaction(tx)),
          signTypedData: (data) => Effect.promise(() => account.signTypedData(data))
        })
      }
    }))
)

/** {@link Chain} and {@link PlatformSigner} from `AppConfig`, on the configured outbound client. */
export const ChainServicesLive: Layer.Layer<Chain | PlatformSigner, never, AppConfig> = Layer.mergeAll(ChainLive, PlatformSignerLive).pipe(
  Layer.provide(OutboundConfigLive)
)
