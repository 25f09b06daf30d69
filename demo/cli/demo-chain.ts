/**
 * `npm run demo:chain`: the development server on a local chain. Starts anvil, deploys the
 * service's contracts and the EIP-3009 PaymentToken, mints treasury tokens to the platform signer
 * and payment tokens to the demo buyer, starts the local x402 facilitator (demo/chain/setup.ts),
 * prints the settings it configured and what a person needs to buy an offer over x402
 * (docs/payments.md), then starts the server of `npm run dev` (bin/main.ts) with them:
 * `CHAIN_RPC_URLS`, `CHAIN_CONTRACTS`, `CHAIN_CONFIRMATIONS=…=2`, `CHAIN_SIGNER_PRIVATE_KEY`
 * (anvil's public development key 0), `X402_FACILITATOR_URL` and `OUTBOUND_ALLOWED_HOSTS` (the
 * anvil and facilitator hosts added to any given). Without `DATABASE_URL` or `DATA_DIR`, the embedded database is in memory (`memory://`,
 * seeded with the demo data), since the chain is new on every run. Ctrl-C stops both.
 */
import { runServer } from "../../src/startup.js"
import { documentedApi } from "../DocumentedApi.js"
import { seedDemoData } from "../seed.js"
import { DemoBuyerAccount, DemoPayoutAccount, setupChainDemo } from "../chain/setup.js"

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
const token = demo.contracts["paymentToken"]
const port = process.env["PORT"] ?? "3000"
if (token !== undefined) {
  lines.push(
    "",
    "buy an offer over x402 (docs/payments.md#try-it-with-npm-run-demochain):",
    `  payment token: ${token} (PAY, 6 decimals; EIP-3009), CAIP-19 ${demo.anvil.network}/erc20:${token.toLowerCase()}`,
    `  x402 facilitator: ${demo.facilitator.url} (settles from anvil account 9)`,
    `  buyer wallet: ${demo.buyer} (anvil account ${DemoBuyerAccount}, 1000 PAY), private key ${demo.anvil.privateKeys[DemoBuyerAccount]}`,
    `  a payout address for your offer: ${demo.anvil.accounts[DemoPayoutAccount]!.address} (anvil account ${DemoPayoutAccount})`,
    "  1. as the seller: fulfillment.payoutAddress on the offer (Services_UpdateServiceOffer), then Services_SetOfferPrices with",
    `     {networkPublicId: <GET /api/v1/networks, ${demo.anvil.network}>, assetPublicId: "${demo.anvil.network}/erc20:${token.toLowerCase()}", units: "2500000", x402: true}`,
    "     and publish the offer (Services_PublishServiceOffer)",
    `  2. as the buyer: POST http://127.0.0.1:${port}/api/v1/x402/offers/<offerId>/purchase?workspaceId=<workspace>&priceId=<priceId>`,
    "     with @x402/fetch paying from the buyer wallet's key (a session cookie and CSRF token, or an API key with commerce:buy)"
  )
}
process.stdout.write(lines.join("\n") + "\n")

const stop = () => {
  void demo.facilitator.stop()
  void demo.anvil.stop()
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
process.once("exit", stop)
runServer({ describe: documentedApi, developmentSeed: seedDemoData })
