/**
 * What a wallet policy's rules (spec §2.8, `WalletPolicyRules`) say of one transaction: pure
 * functions over the intent's network, recipient, calldata and value, with viem's ABI decoding.
 */
import { decodeFunctionData, erc20Abi, type Hex, toFunctionSelector } from "viem"
import type { WalletPolicyRules } from "../Schemas.js"

/** The rule a transaction breaks, as named in the 422 `policy-violation`. */
export type PolicyRule =
  | "network-not-allowed"
  | "contract-not-allowed"
  | "method-not-allowed"
  | "per-transaction-limit"
  | "per-day-limit"

/** A refusal: the rule and a detail that names it (never the transaction's values). */
export interface RuleBreach {
  readonly rule: PolicyRule
  readonly detail: string
}

/** What the rules look at of a transaction. */
export interface TransactionFacts {
  /** CAIP-2. */
  readonly network: string
  readonly to: string
  readonly data: string
  /** Wei. */
  readonly value: bigint
}

/** The 4-byte selector of a method rule (a selector as is, a signature through viem), lowercase. */
export const selectorOf = (method: string): string =>
  /^0x[0-9a-fA-F]{8}$/.test(method) ? method.toLowerCase() : toFunctionSelector(method).toLowerCase()

/**
 * A transaction's units: its native value plus, for an ERC-20 `transfer`, `transferFrom` or
 * `approve` call (decoded with viem's `erc20Abi`), the amount argument.
 */
export const unitsOf = (tx: { readonly data: string; readonly value: bigint }): bigint => {
  let amount = 0n
  if (tx.data.length >= 10) {
    try {
      const call = decodeFunctionData({ abi: erc20Abi, data: tx.data as Hex })
      if (call.functionName === "transfer" || call.functionName === "approve") amount = call.args[1]
      else if (call.functionName === "transferFrom") amount = call.args[2]
    } catch {
      amount = 0n
    }
  }
  return tx.value + amount
}

/**
 * The first rule `tx` breaks, in the order networks, contracts, methods, per-transaction limit,
 * per-day limit (`dayUnits`: the units the wallet already sent in the last 24 hours), or undefined.
 * A call without calldata has no method: it breaks `allowedMethods` when that rule is set.
 */
export const breach = (rules: WalletPolicyRules, tx: TransactionFacts, dayUnits: bigint): RuleBreach | undefined => {
  if (rules.allowedNetworks != null && !rules.allowedNetworks.includes(tx.network)) {
    return { rule: "network-not-allowed", detail: "The wallet's policy does not allow this network (network-not-allowed)." }
  }
  if (rules.allowedContracts != null && !rules.allowedContracts.some((c) => c.toLowerCase() === tx.to.toLowerCase())) {
    return { rule: "contract-not-allowed", detail: "The wallet's policy does not allow this contract (contract-not-allowed)." }
  }
  if (rules.allowedMethods != null) {
    const selector = tx.data.length >= 10 ? tx.data.slice(0, 10).toLowerCase() : null
    if (selector === null || !rules.allowedMethods.some((m) => selectorOf(m) === selector)) {
      return { rule: "method-not-allowed", detail: "The wallet's policy does not allow this method (method-not-allowed)." }
    }
  }
  const units = unitsOf(tx)
  if (rules.perTransactionLimit != null && units > rules.perTransactionLimit) {
    return {
      rule: "per-transaction-limit",
      detail: "The transaction's units exceed the wallet policy's per-transaction limit (per-transaction-limit)."
    }
  }
  if (rules.perDayLimit != null && dayUnits + units > rules.perDayLimit) {
    return {
      rule: "per-day-limit",
      detail: "The wallet's units of the last 24 hours with this transaction exceed its policy's per-day limit (per-day-limit)."
    }
  }
  return undefined
}
