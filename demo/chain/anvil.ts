/**
 * A local `anvil` chain (Foundry; the binary ships in the npm package `@foundry-rs/anvil`),
 * started as a child process on a free port: for the tests and `npm run demo:chain`. Its
 * accounts are anvil's well-known development accounts (the `test … junk` mnemonic), each
 * funded with 10 000 ETH; never use them anywhere real.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import {
  type Account,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  type WalletClient
} from "viem"
import { mnemonicToAccount } from "viem/accounts"

/** anvil's development mnemonic. */
export const AnvilMnemonic = "test test test test test test test test test test test junk"

/** A running anvil. */
export interface Anvil {
  readonly rpcUrl: string
  /** `127.0.0.1:<port>`, for `OUTBOUND_ALLOWED_HOSTS`. */
  readonly host: string
  readonly chainId: number
  /** CAIP-2: `eip155:<chainId>`. */
  readonly network: string
  /** viem's description of the chain. */
  readonly chain: Chain
  /** The development accounts (index 0..9), each with 10 000 ETH. */
  readonly accounts: ReadonlyArray<Account>
  /** Their private keys, in the same order. */
  readonly privateKeys: ReadonlyArray<Hex>
  readonly publicClient: PublicClient
  /** anvil's own RPC methods (`mine`, `snapshot`, …); `anvil_reorg` through `request`. */
  readonly testClient: TestClient<"anvil">
  /** A wallet client of one account (default index 0). */
  readonly wallet: (index?: number) => WalletClient
  /** Stops the process. */
  readonly stop: () => Promise<void>
}

const require = createRequire(import.meta.url)

/** The anvil binary of this platform's `@foundry-rs/anvil-*` package. */
export const anvilBinary = (): string => {
  const arch = process.arch === "x64" ? "amd64" : process.arch
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  return join(dirname(require.resolve(`${pkg}/package.json`)), "bin", process.platform === "win32" ? "anvil.exe" : "anvil")
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })

/**
 * Starts anvil on a free port of 127.0.0.1 and waits until it answers. `blockTime` (seconds)
 * mines on a clock instead of one block per transaction (the default, automine).
 */
export const startAnvil = async (options: { readonly chainId?: number; readonly blockTime?: number } = {}): Promise<Anvil> => {
  const chainId = options.chainId ?? 31337
  const port = await freePort()
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId), "--silent"]
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime))
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"] })
  let stderr = ""
  child.stderr?.on("data", (chunk) => stderr = (stderr + String(chunk)).slice(-2000))
  const rpcUrl = `http://127.0.0.1:${port}`
  const chain = defineChain({
    id: chainId,
    name: "Anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } }
  })
  const transport = http(rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport }) as PublicClient
  const deadline = Date.now() + 15_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${stderr}`)
    try {
      await publicClient.getChainId()
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`anvil did not answer on ${rpcUrl}: ${stderr}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  const accounts = Array.from({ length: 10 }, (_, addressIndex) => mnemonicToAccount(AnvilMnemonic, { addressIndex }))
  const privateKeys = accounts.map((a) => `0x${Buffer.from(a.getHdKey().privateKey!).toString("hex")}` as Hex)
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  process.once("exit", () => child.kill("SIGKILL"))
  return {
    rpcUrl,
    host: `127.0.0.1:${port}`,
    chainId,
    network: `eip155:${chainId}`,
    chain,
    accounts,
    privateKeys,
    publicClient,
    testClient: createTestClient({ chain, mode: "anvil", transport }),
    wallet: (index = 0) => createWalletClient({ chain, transport, account: accounts[index]! }),
    stop
  }
}
