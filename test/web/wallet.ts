/**
 * A test wallet for the pages: an EIP-1193 provider injected into a Playwright page, answering
 * from this Node process with a viem local account (a private key of anvil's test mnemonic).
 *
 * The page's CSP forbids inline script, so the provider goes in through the DevTools protocol:
 * `page.exposeFunction` binds `__testWallet(method, params)` to {@link TestWallet.answer}, and
 * `page.addInitScript` defines `window.ethereum` over it and announces it by EIP-6963
 * (`eip6963:announceProvider`, on load and on each `eip6963:requestProvider`). Errors cross as
 * `{error: {code, message}}` and are thrown in the page as EIP-1193 errors (`code` 4001 when
 * the person refuses).
 *
 * Methods: `eth_requestAccounts`, `eth_accounts`, `eth_chainId`, `wallet_switchEthereumChain`
 * (4902 for another chain), `personal_sign` (EIP-191 over the hex bytes), `eth_sendTransaction`
 * (signed by the account, sent raw to `rpcUrl`); any other method is forwarded to `rpcUrl`, or
 * refused 4200 without one.
 */
import type { Page } from "playwright-core"
import { createPublicClient, type Hex, http, type PublicClient } from "viem"
import { privateKeyToAccount } from "viem/accounts"

interface Answer {
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

/** What the page's wallet did: the methods asked, in order. */
export interface TestWallet {
  readonly address: `0x${string}`
  readonly calls: Array<string>
  /** The next request the person is asked about (accounts, signatures, transactions) is refused with 4001. */
  refuseNext(): void
  answer(method: string, params: ReadonlyArray<unknown>): Promise<Answer>
}

const Asking = new Set(["eth_requestAccounts", "personal_sign", "eth_sendTransaction"])

const quantity = (v: unknown): bigint | undefined => typeof v === "string" ? BigInt(v) : undefined

/** A wallet of `privateKey` on EIP-155 chain `chainId`, sending through `rpcUrl` when given. */
export const makeTestWallet = (options: { readonly privateKey: Hex; readonly chainId: number; readonly rpcUrl?: string }): TestWallet => {
  const account = privateKeyToAccount(options.privateKey)
  const client: PublicClient | undefined = options.rpcUrl === undefined ? undefined : createPublicClient({ transport: http(options.rpcUrl) })
  let refuse = false
  const calls: Array<string> = []
  const answer = async (method: string, params: ReadonlyArray<unknown>): Promise<Answer> => {
    calls.push(method)
    if (refuse && Asking.has(method)) {
      refuse = false
      return { error: { code: 4001, message: "User rejected the request." } }
    }
    try {
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return { result: [account.address] }
        case "eth_chainId":
          return { result: `0x${options.chainId.toString(16)}` }
        case "wallet_switchEthereumChain": {
          const wanted = Number.parseInt(String((params[0] as { chainId?: string })?.chainId), 16)
          return wanted === options.chainId ? { result: null } : { error: { code: 4902, message: "Unrecognized chain." } }
        }
        case "personal_sign":
          return { result: await account.signMessage({ message: { raw: params[0] as Hex } }) }
        case "eth_sendTransaction": {
          if (client === undefined) return { error: { code: 4200, message: "This wallet has no node." } }
          const tx = params[0] as Record<string, string | undefined>
          const signed = await account.signTransaction({
            type: "eip1559",
            chainId: options.chainId,
            to: tx["to"] as Hex,
            data: tx["data"] as Hex,
            value: quantity(tx["value"]) ?? 0n,
            gas: quantity(tx["gas"])!,
            maxFeePerGas: quantity(tx["maxFeePerGas"])!,
            maxPriorityFeePerGas: quantity(tx["maxPriorityFeePerGas"])!,
            nonce: Number(quantity(tx["nonce"]))
          })
          return { result: await client.sendRawTransaction({ serializedTransaction: signed }) }
        }
        default:
          if (client === undefined) return { error: { code: 4200, message: `Unsupported method ${method}.` } }
          return { result: await client.request({ method, params } as never) }
      }
    } catch (e) {
      return { error: { code: -32603, message: e instanceof Error ? e.message : String(e) } }
    }
  }
  return {
    address: account.address,
    calls,
    refuseNext: () => void (refuse = true),
    answer
  }
}

/** The page's window as the provider script uses it (the tests are type-checked without the DOM library). */
interface PageWindow {
  readonly __testWallet: (method: string, params: ReadonlyArray<unknown>) => Promise<Answer>
  ethereum?: unknown
  addEventListener(type: string, listener: () => void): void
  dispatchEvent(event: unknown): boolean
}

/** The provider the page gets (runs in the page, before its scripts). */
const providerScript = () => {
  const w = globalThis as unknown as PageWindow
  const provider = {
    request: async ({ method, params }: { method: string; params?: ReadonlyArray<unknown> }) => {
      const reply = await w.__testWallet(method, params ?? [])
      if (reply.error !== undefined) throw Object.assign(new Error(reply.error.message), { code: reply.error.code })
      return reply.result
    }
  }
  const info = { uuid: "5f8e1c1e-7b7a-4c59-9d0a-3c9a1f0e2b11", name: "Test Wallet", icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>", rdns: "dev.agent-directory.test-wallet" }
  const announce = () => w.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }))
  w.addEventListener("eip6963:requestProvider", announce)
  announce()
  w.ethereum = provider
}

/** Gives `page` the wallet, from its next navigation on. */
export const injectWallet = async (page: Page, wallet: TestWallet): Promise<void> => {
  await page.exposeFunction("__testWallet", (method: string, params: ReadonlyArray<unknown>) => wallet.answer(method, params))
  await page.addInitScript(providerScript)
}
