/**
 * `npm run demo:chain`: the development server on a local chain. Starts anvil, deploys the
 * service's contracts, mints treasury tokens to the platform signer (demo/chain/setup.ts), prints
 * the chain settings it configured, then starts the server of `npm run dev` (bin/main.ts) with
 * them: `CHAIN_RPC_URLS`, `CHAIN_CONTRACTS`, `CHAIN_CONFIRMATIONS=…=2`, `CHAIN_SIGNER_PRIVATE_KEY`
 * (anvil's public development key 0) and `OUTBOUND_ALLOWED_HOSTS` (the anvil host added to any
 * given). Without `DATABASE_URL` or `DATA_DIR`, the embedded database is in memory (`memory://`,
 * seeded with the demo data), since the chain is new on every run. Ctrl-C stops both.
 */
import { runServer } from "../../src/startup.js"
import { documentedApi } from "../DocumentedApi.js"
import { seedDemoData } from "../seed.js"
import { setupChainDemo } from "../chain/setup.js"

const demo = await setupChainDemo()
const allowed = [process.env["OUTBOUND_ALLOWED_HOSTS"], demo.env["OUTBOUND_ALLOWED_HOSTS"]].filter((h) => h !== undefined && h !== "")
const env: Record<string, string> = { ...demo.env, OUTBOUND_ALLOWED_HOSTS: allowed.join(",") }
if (!process.env["DATABASE_URL"] && !process.env["DATA_DIR"]) env["DATA_DIR"] = "memory://"
Object.assign(process.env, env)

const lines = [
  `anvil ${demo.anvil.rpcUrl} (${demo.anvil.network}); platform signer ${demo.signer} (anvil dev account 0)`,
  ...Object.entries(demo.contracts).map(([role, address]) => `  ${role}: ${address}`),
  "server settings:",
  ...Object.entries(env).map(([name, value]) => `  ${name}=${name === "CHAIN_SIGNER_PRIVATE_KEY" ? `${value.slice(0, 6)}… (anvil dev key 0)` : value}`)
]
process.stdout.write(lines.join("\n") + "\n")

const stop = () => void demo.anvil.stop()
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
process.once("exit", stop)
runServer({ describe: documentedApi, developmentSeed: seedDemoData })
