/**
 * A bounty's escrow paid out for real (spec §4.2 Jobs_ResolveBountyDispute): on anvil, a
 * TestToken and contracts/BountyEscrow.sol whose arbiter is the platform's signer; a bounty
 * (seeded in SQL, pointing at that escrow) funded on chain by its client; a dispute resolved
 * ACCEPTED with a RELEASE → the platform sends the escrow intent, the block watcher confirms it
 * at depth 2, the provider's balance grows by the units and the bounty is RELEASED. A REFUND
 * of an escrow that was never funded reverts on chain: the intent FAILED, the bounty stays
 * REFUND_PENDING with the failure recorded.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { type Address, parseAbi } from "viem"
import { DemoAssets } from "../../../demo/common.js"
import { startAnvil } from "../../../demo/chain/anvil.js"
import { deployContract } from "../../../demo/chain/contracts.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { BountyEscrowAbi, escrowId } from "../../../src/jobs/bounties/Escrow.js"
import { call, type Session, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer } from "../../support/TestServer.js"
import { waitFor } from "../../support/waitFor.js"

const TokenAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function balanceOf(address owner) view returns (uint256)"
])

// accounts: 0 deployer, 1 the platform's signer (the escrow's arbiter), 2 the client, 3 the provider
const anvil = await startAnvil()
afterAll(() => anvil.stop())
const [deployer, platform, client, provider] = [0, 1, 2, 3].map((i) => anvil.accounts[i]!.address) as [Address, Address, Address, Address]
const chain = { wallet: anvil.wallet(0), publicClient: anvil.publicClient }
const token = await deployContract(chain, "TestToken", ["Test USD", "TUSD", 6])
const escrow = await deployContract(chain, "BountyEscrow", [deployer, platform])

const send = async (account: number, address: Address, abi: typeof TokenAbi | typeof BountyEscrowAbi, functionName: string, args: Array<unknown>) => {
  const wallet = anvil.wallet(account)
  const hash = await wallet.writeContract({ address, abi, functionName, args, account: wallet.account!, chain: wallet.chain } as never)
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
}
const balanceOf = (owner: Address) =>
  Effect.promise(() => anvil.publicClient.readContract({ address: token, abi: TokenAbi, functionName: "balanceOf", args: [owner] }))

const server = makeTestServer({
  chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[anvil.network, 2]]),
    contracts: new Map([[anvil.network, new Map([["bountyEscrow", escrow], ["treasuryToken", token]])]]),
    signerKey: Option.some(Redacted.make(anvil.privateKeys[1]!)),
    pollIntervalMs: 200
  }
})

const reason = "The provider delivered every milestone; releasing the escrow."

/** A DISPUTED bounty of `units` on the anvil escrow with one OPEN dispute (version 1). */
const seedBounty = (units: bigint) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const bountyId = randomUUID()
    const disputeId = randomUUID()
    yield* sql`INSERT INTO bounties ${
      sql.insert({
        id: bountyId,
        workspace_id: DemoWorkspaces.acme.id,
        title: "Escrow on anvil",
        state: "DISPUTED",
        asset_id: DemoAssets.usdc.id,
        escrow_units: units.toString(),
        escrow_network: anvil.network,
        escrow_contract_address: escrow,
        escrow_wallet_id: randomUUID(),
        payout_address: provider,
        version: 1,
        created_at: new Date(),
        updated_at: new Date()
      })
    }`
    yield* sql`INSERT INTO bounty_disputes ${
      sql.insert({
        id: disputeId,
        bounty_id: bountyId,
        state: "OPEN",
        opened_reason: "The client says the work is late.",
        version: 1,
        created_at: new Date(),
        updated_at: new Date()
      })
    }`
    return { bountyId, disputeId }
  })

/** Preview, then apply what was previewed; returns both answers' data. */
const resolveDispute = (admin: Session, ids: { bountyId: string; disputeId: string }, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const path = `/api/v1/admin/bounties/${ids.bountyId}/disputes/${ids.disputeId}/resolution`
    const preview = yield* call("POST", path, { session: admin, body })
    expect(preview.status, preview.text).toBe(202)
    const p = preview.body.data
    const accepted = yield* call("POST", path, {
      session: admin,
      body: { ...body, dryRun: false, approvedCommandHash: p.commandHash, confirmation: p.confirmation }
    })
    expect(accepted.status, accepted.text).toBe(202)
    return { preview: p, accepted: accepted.body.data }
  })

const readBounty = (bountyId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ state: string; toProvider: string | null; toClient: string | null; outcome: string | null; failureCode: string | null; intentState: string }>`
      SELECT b.state, b.units_to_provider::text AS "toProvider", b.units_to_client::text AS "toClient",
        r.escrow_outcome AS outcome, r.failure_code AS "failureCode", i.state AS "intentState"
      FROM bounties b JOIN dispute_resolutions r ON r.bounty_id = b.id JOIN transaction_intents i ON i.id = r.transaction_intent_id
      WHERE b.id = ${bountyId}`
    return row!
  })

/** Mines a block now and then (the watcher's confirmation depth) until `done` holds for the bounty. */
const untilBounty = (what: string, bountyId: string, done: (row: Effect.Effect.Success<ReturnType<typeof readBounty>>) => boolean) => {
  let last: unknown
  return waitFor(
    what,
    Effect.gen(function*() {
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      const row = yield* readBounty(bountyId)
      last = row
      return done(row) ? row : undefined
    }),
    45_000,
    300,
    () => JSON.stringify(last)
  )
}

layer(server.layer, { timeout: 120_000 })("bounty escrow on chain", (it) => {
  it.effect("RELEASE: the platform pays the escrow out to the provider; the bounty is RELEASED with the units", () =>
    Effect.gen(function*() {
      const units = 5_000_000n
      const ids = yield* seedBounty(units)
      yield* Effect.promise(async () => {
        await send(2, token, TokenAbi, "mint", [client, units])
        await send(2, token, TokenAbi, "approve", [escrow, units])
        await send(2, escrow, BountyEscrowAbi, "fund", [escrowId(ids.bountyId), token, units])
      })
      const before = yield* balanceOf(provider)
      const admin = yield* signIn("admin")
      const { accepted, preview } = yield* resolveDispute(admin, ids, {
        resolution: "RELEASE", unitsToProvider: units.toString(), unitsToClient: "0", reason, expectedVersion: 1
      })
      // the digest the operator approved is the one the contract verifies
      const onChain = yield* Effect.promise(() =>
        anvil.publicClient.readContract({
          address: escrow,
          abi: BountyEscrowAbi,
          functionName: "decisionDigest",
          args: [{ bountyId: escrowId(ids.bountyId), disputeId: escrowId(ids.disputeId), provider, toProvider: units, toClient: 0n }]
        })
      )
      expect(preview.decisionDigest).toBe(onChain)
      expect(accepted).toMatchObject({ kind: "ACCEPTED", state: "RELEASE_PENDING" })

      const row = yield* untilBounty("the bounty RELEASED", ids.bountyId, (r) => r.state === "RELEASED")
      expect(row).toEqual({
        state: "RELEASED", toProvider: units.toString(), toClient: "0", outcome: "CONFIRMED", failureCode: null, intentState: "CONFIRMED"
      })
      expect(yield* balanceOf(provider)).toBe(before + units)
      const [, , , resolved] = yield* Effect.promise(() =>
        anvil.publicClient.readContract({ address: escrow, abi: BountyEscrowAbi, functionName: "escrows", args: [escrowId(ids.bountyId)] })
      )
      expect(resolved).toBe(true)
    }), 120_000)

  it.effect("REFUND of an escrow never funded: the transaction reverts, the intent FAILED, the bounty stays REFUND_PENDING", () =>
    Effect.gen(function*() {
      const ids = yield* seedBounty(1_000n)
      const admin = yield* signIn("admin")
      yield* resolveDispute(admin, ids, { resolution: "REFUND", unitsToProvider: "0", unitsToClient: "1000", reason, expectedVersion: 1 })
      const row = yield* untilBounty("the escrow intent FAILED", ids.bountyId, (r) => r.outcome === "FAILED")
      expect(row).toMatchObject({ state: "REFUND_PENDING", toProvider: null, toClient: null, intentState: "FAILED" })
      expect(row.failureCode).not.toBeNull()
    }), 120_000)
})
