/**
 * The browser's Ethereum wallet, through its EIP-1193 provider (`request({method, params})`):
 * found by EIP-6963 discovery (`eip6963:requestProvider`, each wallet answering
 * `eip6963:announceProvider` with its info and provider; the first to answer is used), else the
 * legacy `window.ethereum`. The pages ask it for accounts (`eth_requestAccounts`), EIP-191
 * signatures (`personal_sign`), a network (`wallet_switchEthereumChain`) and transactions
 * (`eth_sendTransaction`: its hash is what the service checks against its transaction intent).
 *
 * Every failure is a {@link WalletError} whose `message` is for people: no wallet, the request
 * refused (EIP-1193 code 4001), unauthorized (4100), unsupported (4200), disconnected
 * (4900/4901), the network unknown to the wallet (4902), or the wallet's own message.
 */

/** An EIP-1193 provider. */
export interface Eip1193Provider {
  readonly request: (args: { readonly method: string; readonly params?: ReadonlyArray<unknown> }) => Promise<unknown>
}

/** A failure of the wallet, with a message for people and the EIP-1193 `code` when the wallet gave one. */
export class WalletError extends Error {
  constructor(message: string, readonly code?: number) {
    super(message)
  }
}

const NoWallet = "No Ethereum wallet was found in this browser: install or enable one (an EIP-1193 wallet such as a browser extension), then reload the page."

/** The message for an EIP-1193 error code (EIP-1193 §Provider Errors, EIP-3326 for 4902). */
const messageOf = (code: number | undefined, fallback: string): string => {
  switch (code) {
    case 4001:
      return "You declined the request in your wallet; nothing was signed or sent."
    case 4100:
      return "Your wallet did not allow this site to use the account: connect it first."
    case 4200:
      return "Your wallet does not support this request."
    case 4900:
    case 4901:
      return "Your wallet is not connected to the network."
    case 4902:
      return "Your wallet does not know this network: add it to the wallet first."
    default:
      return `Your wallet answered: ${fallback}`
  }
}

/** A {@link WalletError} from whatever the provider threw. */
const walletError = (e: unknown): WalletError => {
  if (e instanceof WalletError) return e
  const raw = (e ?? {}) as { code?: unknown; message?: unknown }
  const code = typeof raw.code === "number" ? raw.code : undefined
  const message = typeof raw.message === "string" && raw.message !== "" ? raw.message : "an unknown error"
  return new WalletError(messageOf(code, message), code)
}

let discovered: Eip1193Provider | undefined
if (typeof window !== "undefined") {
  window.addEventListener("eip6963:announceProvider", (event) => {
    const provider = (event as CustomEvent<{ readonly provider?: Eip1193Provider }>).detail?.provider
    if (discovered === undefined && provider !== undefined && typeof provider.request === "function") discovered = provider
  })
  window.dispatchEvent(new Event("eip6963:requestProvider"))
}

/** The wallet's provider: the first EIP-6963 announcement, else `window.ethereum`, else none. */
export const provider = (): Eip1193Provider | undefined => {
  if (discovered !== undefined) return discovered
  const legacy = (window as { ethereum?: Eip1193Provider }).ethereum
  return legacy !== undefined && typeof legacy.request === "function" ? legacy : undefined
}

/** Whether the browser has a wallet. */
export const hasWallet = (): boolean => provider() !== undefined

const request = async <A>(method: string, params?: ReadonlyArray<unknown>): Promise<A> => {
  const p = provider()
  if (p === undefined) throw new WalletError(NoWallet)
  try {
    return await p.request(params === undefined ? { method } : { method, params }) as A
  } catch (e) {
    throw walletError(e)
  }
}

/** The account the wallet lets this site use (`eth_requestAccounts`: the wallet may ask the person). */
export const connect = async (): Promise<`0x${string}`> => {
  const accounts = await request<ReadonlyArray<string>>("eth_requestAccounts")
  const account = accounts[0]
  if (account === undefined) throw new WalletError("Your wallet shared no account with this site.")
  return account as `0x${string}`
}

/** The wallet's current network as an EIP-155 chain id (`eth_chainId`). */
export const chainId = async (): Promise<number> => Number.parseInt(await request<string>("eth_chainId"), 16)

/** Asks the wallet to use the EIP-155 network `id` (EIP-3326 `wallet_switchEthereumChain`) unless it already does. */
export const switchChain = async (id: number): Promise<void> => {
  if ((await chainId()) === id) return
  await request("wallet_switchEthereumChain", [{ chainId: `0x${id.toString(16)}` }])
}

/** `address` signs `message` (EIP-191 `personal_sign`, the message as UTF-8 text): the 65-byte signature, hex. */
export const personalSign = async (message: string, address: string): Promise<`0x${string}`> => {
  const bytes = new TextEncoder().encode(message)
  const hex = `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`
  return await request<`0x${string}`>("personal_sign", [hex, address])
}

/** A transaction to send: quantities as bigint (wei, gas units), the rest hex. */
export interface TransactionRequest {
  readonly from: string
  readonly to: string
  readonly data: string
  readonly value: bigint
  readonly gas: bigint
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
  readonly nonce: number
  readonly chainId: number
}

const quantity = (n: bigint | number): string => `0x${n.toString(16)}`

/**
 * Sends the transaction from the wallet (`eth_sendTransaction`, the EIP-1559 fields as given,
 * after switching the wallet to its network): its hash.
 */
export const sendTransaction = async (tx: TransactionRequest): Promise<`0x${string}`> => {
  await switchChain(tx.chainId)
  return await request<`0x${string}`>("eth_sendTransaction", [{
    from: tx.from,
    to: tx.to,
    data: tx.data,
    value: quantity(tx.value),
    gas: quantity(tx.gas),
    maxFeePerGas: quantity(tx.maxFeePerGas),
    maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas),
    nonce: quantity(tx.nonce),
    chainId: quantity(tx.chainId),
    type: "0x2"
  }])
}
