/**
 * The service's Solidity contracts (`contracts/*.sol`), compiled with `solc` from npm (the
 * OpenZeppelin imports resolved from `@openzeppelin/contracts`), and deployed to a chain: for
 * the tests and `npm run demo:chain`. The compiler output is cached in the system's temp
 * folder by the hash of the sources and the compiler version.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Abi, Address, Hex, PublicClient, WalletClient } from "viem"

const require = createRequire(import.meta.url)

/** The folder of the service's contracts. */
export const ContractsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "contracts")

/** One compiled contract. */
export interface Artifact {
  readonly abi: Abi
  readonly bytecode: Hex
}

let compiled: Record<string, Artifact> | undefined

/**
 * Every contract of `contracts/*.sol`, compiled (optimizer on, 200 runs), by contract name.
 * Throws with the compiler's messages when a source does not compile.
 */
export const compileContracts = (): Record<string, Artifact> => {
  if (compiled) return compiled
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc") as { compile: (input: string, callbacks: object) => string; version: () => string }
  const files = readdirSync(ContractsDir).filter((f) => f.endsWith(".sol")).sort()
  const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(join(ContractsDir, f), "utf8") }]))
  const hash = createHash("sha256").update(solc.version()).update(JSON.stringify(sources)).digest("hex").slice(0, 24)
  const cacheDir = join(tmpdir(), "agent-directory-solc")
  const cacheFile = join(cacheDir, `${hash}.json`)
  if (existsSync(cacheFile)) return compiled = JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, Artifact>
  const input = {
    language: "Solidity",
    sources,
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } }
  }
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), "utf8") }
    } catch {
      return { error: `not found: ${path}` }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: Array<{ severity: string; formattedMessage: string }>
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === "error")
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"))
  const result: Record<string, Artifact> = {}
  for (const file of files) {
    for (const [name, c] of Object.entries(output.contracts[file] ?? {})) {
      result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
    }
  }
  mkdirSync(cacheDir, { recursive: true })
  writeFileSync(cacheFile, JSON.stringify(result))
  return compiled = result
}

/** Deploys the compiled contract `name` from the wallet's account and waits for its receipt; returns its address. */
export const deployContract = async (
  client: { readonly wallet: WalletClient; readonly publicClient: PublicClient },
  name: string,
  args: ReadonlyArray<unknown> = []
): Promise<Address> => {
  const artifact = compileContracts()[name]
  if (!artifact) throw new Error(`no contract ${name} in contracts/`)
  const hash = await client.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: args as Array<unknown>,
    account: client.wallet.account!,
    chain: client.wallet.chain
  })
  const receipt = await client.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (!receipt.contractAddress) throw new Error(`${name} was not deployed`)
  return receipt.contractAddress
}
