/**
 * A chain for the payment rails' tests: anvil with a PaymentToken (EIP-3009, 6 decimals) minted to
 * the buyer's wallet (anvil account 3), a local x402 facilitator settling from account 9, and an
 * offer of the outsider's workspace, PUBLISHED, priced in that token on anvil's network and paid
 * out to account 4. The configuration overrides point the server at them.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import { type Address, erc20Abi, getAddress } from "viem"
import { type Anvil, startAnvil } from "../../../demo/chain/anvil.js"
import { compileContracts, deployContract } from "../../../demo/chain/contracts.js"
import { type LocalFacilitator, startFacilitator } from "../../../demo/chain/facilitator.js"
import { DemoOffers } from "../../../demo/services/seed.js"
import { testConfig, type TestConfigShape } from "../../support/config.js"
import { TestEpoch } from "../../support/TestServer.js"

/** What {@link startPaymentChain} made. */
export interface PaymentChain {
  readonly anvil: Anvil
  readonly token: Address
  readonly facilitator: LocalFacilitator
  /** The buyer's wallet (anvil account 3), holding 1000 tokens. */
  readonly buyer: Address
  /** The seller's payout address (anvil account 4). */
  readonly payout: Address
}

/** Anvil, the token and the facilitator (see the module docs). */
export const startPaymentChain = async (): Promise<PaymentChain> => {
  const anvil = await startAnvil()
  const token = getAddress(await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "PaymentToken"))
  const buyer = anvil.accounts[3]!.address
  const hash = await anvil.wallet(0).writeContract({
    address: token,
    abi: compileContracts()["PaymentToken"]!.abi,
    functionName: "mint",
    args: [buyer, 1_000_000_000n],
    account: anvil.accounts[0]!,
    chain: null
  })
  await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  const facilitator = await startFacilitator(anvil)
  return { anvil, token, facilitator, buyer, payout: anvil.accounts[4]!.address }
}

/** Server settings for the chain: its RPC and the facilitator allowed, depth 2, the facilitator named. */
export const paymentOverrides = (chain: PaymentChain): Partial<TestConfigShape> => ({
  chainRpcUrls: new Map([[chain.anvil.network, chain.anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [chain.anvil.host, chain.facilitator.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[chain.anvil.network, 2]]),
    signerKey: Option.some(Redacted.make(chain.anvil.privateKeys[0]!)),
    pollIntervalMs: 100
  },
  payments: { ...testConfig().payments, x402FacilitatorUrl: Option.some(chain.facilitator.url) }
})

/** The offer sold in the tests: the outsider's demo offer, PUBLISHED, paid out to the chain's payout address. */
export const SoldOffer = DemoOffers.foreign.id
/** Its price on anvil: 2.5 tokens. */
export const SoldPrice = "0190000d-0000-7000-8000-0000000000f1"
export const SoldPriceUnits = 2_500_000n

/**
 * Writes the anvil network's and the token's rows, and makes the sold offer PUBLISHED with its
 * token price (effective from a day before the test clock), a 30-day entitlement and the payout
 * address. Idempotent.
 */
export const seedSoldOffer = (chain: PaymentChain) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const networkId = "0190000d-0000-7000-8000-0000000000e1"
    const assetId = "0190000d-0000-7000-8000-0000000000e2"
    yield* sql`INSERT INTO networks (id, key, family, display_name, caip2)
      VALUES (${networkId}, ${chain.anvil.network}, 'EVM', 'Anvil', ${chain.anvil.network}) ON CONFLICT DO NOTHING`
    const [network] = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${chain.anvil.network}`
    yield* sql`INSERT INTO assets (id, network_id, symbol, decimals, caip19)
      VALUES (${assetId}, ${network!.id}, 'PAY', 6, ${`${chain.anvil.network}/erc20:${chain.token.toLowerCase()}`}) ON CONFLICT DO NOTHING`
    yield* sql`UPDATE service_offers SET state = 'PUBLISHED', published_at = ${TestEpoch}, payout_address = ${chain.payout},
        entitlement_days = 30, entitlement_code = 'OUTSIDER_PLAN'
      WHERE id = ${SoldOffer}`
    yield* sql`INSERT INTO service_offer_prices (id, offer_id, version, network_id, asset_id, units, effective_from)
      VALUES (${SoldPrice}, ${SoldOffer}, 9, ${network!.id}, ${assetId}, ${SoldPriceUnits.toString()},
        ${new Date(TestEpoch.getTime() - 86_400_000)})
      ON CONFLICT DO NOTHING`
  }).pipe(Effect.orDie)

/** The token balance of `address`. */
export const balanceOf = (chain: PaymentChain, address: Address) =>
  Effect.promise(() => chain.anvil.publicClient.readContract({ address: chain.token, abi: erc20Abi, functionName: "balanceOf", args: [address] }))
