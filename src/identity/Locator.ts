/**
 * Locator normalisation (spec §9), pure: one input locator → its canonical form, or the
 * reasons it is malformed. Canonical strings:
 * - EVM token:   `evm:{network}:{registry EIP-55}:{token id decimal}` (`*` for an unknown registry)
 * - EVM address: `evm:{network}:{address EIP-55}`
 * - SVM asset:   `svm:{network}:{scheme}:{base58 of 32 bytes}`
 * - DID:         the DID itself (`did:{method}:{id}`, no path, query or fragment)
 * - off-chain:   `offchain:{registry}:{key}`
 */
import { keccak_256 } from "@noble/hashes/sha3.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import { base58 } from "@scure/base"
import { parse as parseDid } from "did-resolver"
import type { LocatorInput, LocatorKind, NetworkFamily, ResolutionReason } from "../../schema/identity.js"

/** A normalised locator. `partial` = an EVM token without its registry (may match several). */
export interface Locator {
  readonly family: NetworkFamily
  readonly kind: LocatorKind
  readonly network: string | null
  readonly scope: string | null
  readonly nativeId: string
  readonly locator: string
  readonly partial: boolean
}

/** Normalisation outcome: a locator or the reasons it is invalid. */
export type Normalised =
  | { readonly _tag: "Locator"; readonly value: Locator }
  | { readonly _tag: "Invalid"; readonly reasons: ReadonlyArray<ResolutionReason> }

const reason = (code: string, field: string | null = null): ResolutionReason => ({ code, field })
const invalid = (...reasons: ReadonlyArray<ResolutionReason>): Normalised => ({ _tag: "Invalid", reasons })
/** The reasons among checked parts (a part is its normalised string, null, or a reason). */
const invalidOf = (...parts: ReadonlyArray<string | null | ResolutionReason>): Normalised =>
  invalid(...parts.filter((x): x is ResolutionReason => typeof x === "object" && x !== null))
const ok = (
  family: NetworkFamily,
  kind: LocatorKind,
  network: string | null,
  scope: string | null,
  nativeId: string,
  partial: boolean
): Normalised => ({
  _tag: "Locator",
  value: { family, kind, network, scope, nativeId, locator: canonicalLocator({ kind, network, scope, nativeId }), partial }
})

/** The canonical locator string of normalised parts (the forms listed above). */
export const canonicalLocator = (parts: Pick<Locator, "kind" | "network" | "scope" | "nativeId">): string => {
  switch (parts.kind) {
    case "REGISTRY_TOKEN":
      return `evm:${parts.network}:${parts.scope ?? "*"}:${parts.nativeId}`
    case "ADDRESS":
      return `evm:${parts.network}:${parts.nativeId}`
    case "ASSET":
      return `svm:${parts.network}:${parts.scope}:${parts.nativeId}`
    case "DID":
      return parts.nativeId
    case "REGISTRY_KEY":
      return `offchain:${parts.scope}:${parts.nativeId}`
  }
}

const KINDS_BY_FAMILY: Record<NetworkFamily, ReadonlyArray<LocatorKind>> = {
  EVM: ["REGISTRY_TOKEN", "ADDRESS"],
  SVM: ["ASSET"],
  DID: ["DID"],
  OFFCHAIN: ["REGISTRY_KEY"]
}

/** EIP-55 mixed-case checksum of a 20-byte hex address (`evmAddress` memoises it per raw address). */
export const toChecksumAddress = (hex40Lower: string): string => {
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex40Lower)))
  let out = "0x"
  for (let i = 0; i < 40; i++) {
    const c = hex40Lower[i]!
    out += parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c
  }
  return out
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** Valid raw addresses (any case, as given) → EIP-55 form, or null for a checksum mismatch (memoised: registries repeat). */
const addresses = new Map<string, string | null>()

/** An EVM address in EIP-55 form; a mixed-case input must carry a valid checksum. */
const evmAddress = (raw: string, field: string): string | ResolutionReason => {
  let known = addresses.get(raw)
  if (known === undefined) {
    if (!ADDRESS.test(raw)) return reason("ADDRESS_MALFORMED", field)
    const body = raw.slice(2)
    const lower = body.toLowerCase()
    const checksummed = toChecksumAddress(lower)
    const mixed = body !== lower && body !== body.toUpperCase()
    known = mixed && checksummed !== raw ? null : checksummed
    if (addresses.size >= 100_000) addresses.clear()
    addresses.set(raw, known)
  }
  return known ?? reason("ADDRESS_CHECKSUM_MISMATCH", field)
}

const MAX_UINT256 = (1n << 256n) - 1n
const TOKEN_ID = /^(?:[0-9]{1,78}|0x[0-9a-fA-F]{1,64})$/

// a decimal without leading zeros below 10^15 is already its canonical form: no BigInt round trip
const CANONICAL_SMALL_DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/

/** A token id (decimal or 0x hex, uint256) as a decimal string. */
const tokenId = (raw: string): string | ResolutionReason => {
  if (CANONICAL_SMALL_DECIMAL.test(raw)) return raw
  if (!TOKEN_ID.test(raw)) return reason("TOKEN_ID_MALFORMED", "nativeId")
  const n = BigInt(raw)
  return n > MAX_UINT256 ? reason("TOKEN_ID_OUT_OF_RANGE", "nativeId") : n.toString()
}

const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/
const REGISTRY_KEY = /^[\x21-\x7e]{1,200}$/

/**
 * A CAIP-2 chain id (`namespace:reference`, https://chainagnostic.org/CAIPs/caip-2): namespace
 * `[-a-z0-9]{3,8}`, reference `[-_a-zA-Z0-9]{1,32}` (case-sensitive: a Solana genesis hash is base58).
 */
export const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
/** A CAIP-10 account id: a CAIP-2 chain id, `:` and the account address (`[-.%a-zA-Z0-9]{1,128}`). */
const CAIP10 = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/

/**
 * The network lookup of {@link normaliseLocator}: network keys and UUIDs in lower case, and
 * CAIP-2 ids as stored (exact case) → the network's key and family. Keys and UUIDs never
 * contain `:`, so the three kinds of names cannot collide.
 */
export type NetworkLookup = ReadonlyMap<string, { readonly key: string; readonly family: string }>

/** Builds a {@link NetworkLookup} from network rows. */
export const networkLookup = (
  rows: ReadonlyArray<{ readonly id: string; readonly key: string; readonly family: string; readonly caip2: string | null }>
): NetworkLookup => {
  const map = new Map<string, { key: string; family: string }>()
  for (const r of rows) {
    const entry = { key: r.key, family: r.family }
    map.set(r.key.toLowerCase(), entry)
    map.set(r.id.toLowerCase(), entry)
    if (r.caip2 !== null) map.set(r.caip2, entry)
  }
  return map
}

/**
 * The key of a network given by key or UUID (any case) or by CAIP-2 id (exact), if it is known
 * and of `family`. A name with `:` that breaks the CAIP-2 syntax is `NETWORK_MALFORMED`; a
 * well-formed but unknown one is `NETWORK_UNKNOWN`, as an unknown key is.
 */
const networkKey = (given: string | null, family: NetworkFamily, networks: NetworkLookup): string | ResolutionReason => {
  if (given === null) return reason("NETWORK_REQUIRED", "network")
  const name = given.trim()
  let found: { readonly key: string; readonly family: string } | undefined
  if (name.includes(":")) {
    if (!CAIP2.test(name)) return reason("NETWORK_MALFORMED", "network")
    found = networks.get(name)
  } else {
    found = networks.get(name.toLowerCase())
  }
  if (found === undefined) return reason("NETWORK_UNKNOWN", "network")
  return found.family === family ? found.key : reason("NETWORK_FAMILY_MISMATCH", "network")
}

/**
 * An EVM address given as a CAIP-10 account id (`eip155:8453:0xabc…`): its network (the CAIP-2
 * part, which must agree with `network` when that is given too) and its address.
 */
const caip10Address = (
  nativeRaw: string,
  given: string | null,
  family: NetworkFamily,
  networks: NetworkLookup
): { readonly net: string | ResolutionReason; readonly address: string } | undefined => {
  const m = CAIP10.exec(nativeRaw)
  if (m === null) return undefined
  const net = networkKey(m[1]!, family, networks)
  if (typeof net !== "string") return { net: { code: net.code, field: "nativeId" }, address: m[2]! }
  if (given !== null) {
    const named = networkKey(given, family, networks)
    if (typeof named !== "string") return { net: named, address: m[2]! }
    if (named !== net) return { net: reason("NETWORK_MISMATCH", "network"), address: m[2]! }
  }
  return { net, address: m[2]! }
}

/**
 * Normalises one locator. `networks` (see {@link networkLookup}) names networks by key, UUID
 * or CAIP-2 id; an unknown network or one of another family is invalid. An EVM address may be
 * given as a CAIP-10 account id in `nativeId`, `network` then being optional. A locator that
 * names its network by CAIP-2 normalises to the same canonical string as by key.
 */
export const normaliseLocator = (input: LocatorInput, networks: NetworkLookup): Normalised => {
  const { locatorKind: kind, networkFamily: family } = input
  if (!KINDS_BY_FAMILY[family].includes(kind)) return invalid(reason("KIND_NOT_IN_FAMILY", "locatorKind"))
  const nativeRaw = String(input.nativeId).trim()

  const network = () => networkKey(input.network, family, networks)

  switch (kind) {
    case "REGISTRY_TOKEN": {
      const net = network()
      const token = tokenId(nativeRaw)
      const registry = input.registry === null ? null : evmAddress(input.registry.trim(), "registry")
      if (typeof net === "string" && typeof token === "string" && (registry === null || typeof registry === "string")) {
        return ok(family, kind, net, registry, token, registry === null)
      }
      return invalidOf(net, token, registry)
    }
    case "ADDRESS": {
      const caip10 = caip10Address(nativeRaw, input.network, family, networks)
      const net = caip10?.net ?? network()
      const address = evmAddress(caip10?.address ?? nativeRaw, "nativeId")
      if (typeof net === "string" && typeof address === "string") {
        return ok(family, kind, net, null, address, false)
      }
      return invalidOf(net, address)
    }
    case "ASSET": {
      const net = network()
      const scheme = input.protocol === null ? reason("SCHEME_REQUIRED", "protocol")
        : SLUG.test(input.protocol.trim().toLowerCase()) ? input.protocol.trim().toLowerCase()
        : reason("SCHEME_MALFORMED", "protocol")
      const bytes = base58Length(nativeRaw)
      const located = bytes === null ? reason("BASE58_MALFORMED", "nativeId")
        : bytes !== 32 ? reason("BASE58_NOT_32_BYTES", "nativeId")
        : nativeRaw
      if (typeof net === "string" && typeof scheme === "string" && typeof located === "string") {
        return ok(family, kind, net, scheme, located, false)
      }
      return invalidOf(net, scheme, located)
    }
    case "DID": {
      const parsed = parseDid(nativeRaw)
      if (parsed === null) return invalid(reason("DID_MALFORMED", "nativeId"))
      if (parsed.did !== parsed.didUrl) return invalid(reason("DID_NOT_BARE", "nativeId"))
      return ok(family, kind, null, parsed.method, parsed.did, false)
    }
    case "REGISTRY_KEY": {
      const registry = input.registry === null ? reason("REGISTRY_REQUIRED", "registry")
        : SLUG.test(input.registry.trim().toLowerCase()) ? input.registry.trim().toLowerCase()
        : reason("REGISTRY_MALFORMED", "registry")
      const key = REGISTRY_KEY.test(nativeRaw) ? nativeRaw : reason("REGISTRY_KEY_MALFORMED", "nativeId")
      if (typeof registry === "string" && typeof key === "string") {
        return ok(family, kind, null, registry, key, false)
      }
      return invalidOf(registry, key)
    }
  }
}

/** Decoded length of a base58 string, or null when it is not base58. */
const base58Length = (raw: string): number | null => {
  if (raw.length === 0 || raw.length > 64) return null
  try {
    return base58.decode(raw).length
  } catch {
    return null
  }
}
