/**
 * Settings of the chain layer (layers/Chain.ts), part of `AppConfig`: every network is named by
 * its CAIP-2 id (`eip155:8453`). The JSON-RPC endpoints are `CHAIN_RPC_URLS` (layers/AppConfig.ts);
 * the rest is here. docs/chains.md explains each.
 */
import { Config, ConfigError, Either, Option, Redacted } from "effect"
import { getAddress, isAddress } from "viem"

/** The chain layer's settings. */
export interface ChainOptions {
  /**
   * Confirmation depth by CAIP-2 id (`CHAIN_CONFIRMATIONS`, `eip155:8453=3,eip155:1=12`; 1..1000):
   * a transaction is CONFIRMED once its block has this many blocks on top, itself included.
   * A network not named has {@link DefaultConfirmations}.
   */
  readonly confirmations: ReadonlyMap<string, number>
  /**
   * Block explorer base URLs by CAIP-2 id (`CHAIN_EXPLORER_URLS`, `eip155:8453=https://basescan.org`):
   * a transaction's page is `<base>/tx/<hash>`. A network not named uses viem's chain registry, else none.
   */
  readonly explorerUrls: ReadonlyMap<string, string>
  /**
   * Contract addresses by CAIP-2 id and role (`CHAIN_CONTRACTS`,
   * `identityRegistry@eip155:8453=0x…,bountyEscrow@eip155:8453=0x…`). Roles the service uses:
   * `identityRegistry` (ERC-8004 Identity Registry), `bountyEscrow`, `treasuryToken`.
   */
  readonly contracts: ReadonlyMap<string, ReadonlyMap<string, `0x${string}`>>
  /**
   * The platform signer's secp256k1 key (`CHAIN_SIGNER_PRIVATE_KEY`, `0x` + 64 hex): it signs the
   * platform's own transactions (escrow arbitration, token operations). None: those are refused
   * with 422 `configuration-missing`.
   */
  readonly signerKey: Option.Option<Redacted.Redacted<string>>
  /** How often the block watcher asks each network for new blocks (`CHAIN_POLL_INTERVAL_MS`, 100..3600000, default 4000). */
  readonly pollIntervalMs: number
}

/** Confirmation depth of a network `CHAIN_CONFIRMATIONS` does not name. */
export const DefaultConfirmations = 12

/** The defaults: no networks configured beyond their RPC URLs, no signer. */
export const DefaultChainOptions: ChainOptions = {
  confirmations: new Map(),
  explorerUrls: new Map(),
  contracts: new Map(),
  signerKey: Option.none(),
  pollIntervalMs: 4000
}

const Caip2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/

/** Splits `a=b,c=d` entries; returns the pairs or the rule broken. */
const entries = (name: string, text: string, shape: string): ReadonlyArray<readonly [string, string]> | string => {
  const out: Array<readonly [string, string]> = []
  for (const raw of text.split(",")) {
    const entry = raw.trim()
    if (entry === "") continue
    const at = entry.indexOf("=")
    if (at <= 0) return `${name} entries must be ${shape}`
    out.push([entry.slice(0, at).trim(), entry.slice(at + 1).trim()])
  }
  return out
}

/** Parses `CHAIN_CONFIRMATIONS`. */
export const parseConfirmations = (text: string): ReadonlyMap<string, number> | string => {
  const pairs = entries("CHAIN_CONFIRMATIONS", text, "<CAIP-2 chain id>=<depth>")
  if (typeof pairs === "string") return pairs
  const map = new Map<string, number>()
  for (const [chain, depth] of pairs) {
    if (!Caip2.test(chain)) return "CHAIN_CONFIRMATIONS entries must be <CAIP-2 chain id>=<depth>"
    if (!/^[0-9]{1,4}$/.test(depth) || Number(depth) < 1 || Number(depth) > 1000) return "each CHAIN_CONFIRMATIONS depth must be 1..1000"
    if (map.has(chain)) return "CHAIN_CONFIRMATIONS names a chain twice"
    map.set(chain, Number(depth))
  }
  return map
}

/** Parses `CHAIN_EXPLORER_URLS`. */
export const parseExplorerUrls = (text: string): ReadonlyMap<string, string> | string => {
  const pairs = entries("CHAIN_EXPLORER_URLS", text, "<CAIP-2 chain id>=<https URL>")
  if (typeof pairs === "string") return pairs
  const map = new Map<string, string>()
  for (const [chain, url] of pairs) {
    if (!Caip2.test(chain)) return "CHAIN_EXPLORER_URLS entries must be <CAIP-2 chain id>=<https URL>"
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return "each CHAIN_EXPLORER_URLS URL must be an absolute http or https URL"
    if (map.has(chain)) return "CHAIN_EXPLORER_URLS names a chain twice"
    map.set(chain, url.replace(/\/+$/, ""))
  }
  return map
}

/** Parses `CHAIN_CONTRACTS`. */
export const parseContracts = (text: string): ReadonlyMap<string, ReadonlyMap<string, `0x${string}`>> | string => {
  const shape = "<role>@<CAIP-2 chain id>=<0x address>"
  const pairs = entries("CHAIN_CONTRACTS", text, shape)
  if (typeof pairs === "string") return pairs
  const map = new Map<string, Map<string, `0x${string}`>>()
  for (const [key, address] of pairs) {
    const at = key.indexOf("@")
    const role = key.slice(0, at)
    const chain = key.slice(at + 1)
    if (at <= 0 || !/^[a-zA-Z][a-zA-Z0-9]{0,63}$/.test(role) || !Caip2.test(chain)) return `CHAIN_CONTRACTS entries must be ${shape}`
    if (!isAddress(address, { strict: false })) return "each CHAIN_CONTRACTS address must be 0x and 40 hex digits"
    const roles = map.get(chain) ?? new Map<string, `0x${string}`>()
    if (roles.has(role)) return "CHAIN_CONTRACTS names a contract role twice on one chain"
    roles.set(role, getAddress(address))
    map.set(chain, roles)
  }
  return map
}

const parsed = <A>(name: string, parse: (text: string) => A | string) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((text) => {
      const result = parse(text)
      return typeof result === "string" ? Either.left(ConfigError.InvalidData([name], result)) : Either.right(result)
    })
  )

/** Reads and validates the chain settings; a message names the variable and the rule, never a value. */
export const chainOptions: Config.Config<ChainOptions> = Config.all({
  confirmations: parsed("CHAIN_CONFIRMATIONS", parseConfirmations),
  explorerUrls: parsed("CHAIN_EXPLORER_URLS", parseExplorerUrls),
  contracts: parsed("CHAIN_CONTRACTS", parseContracts),
  signerKey: Config.option(
    Config.redacted("CHAIN_SIGNER_PRIVATE_KEY").pipe(
      Config.validate({
        message: "CHAIN_SIGNER_PRIVATE_KEY must be 0x and 64 hex digits",
        validation: (key) => /^0x[0-9a-fA-F]{64}$/.test(Redacted.value(key))
      })
    )
  ),
  pollIntervalMs: Config.integer("CHAIN_POLL_INTERVAL_MS").pipe(
    Config.validate({ message: "CHAIN_POLL_INTERVAL_MS must be 100..3600000 (milliseconds)", validation: (n) => n >= 100 && n <= 3_600_000 }),
    Config.withDefault(DefaultChainOptions.pollIntervalMs)
  )
})
