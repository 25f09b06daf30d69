/**
 * A chain for the bounty lifecycle's tests: anvil with a TestToken (6 decimals) and
 * contracts/BountyEscrow.sol whose arbiter is the platform's signer (account 1); the poster's
 * wallet (account 2, acme's, minted tokens) and the claimant's payout wallet (account 3, the
 * outsider's workspace, which operates Cobalt); the server configured for them (depth 2, the
 * escrow as the network's `bountyEscrow`). Helpers drive the API as a poster and a claimant would.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { type Address, getAddress, type Hex, parseAbi, parseTransaction } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { type Anvil, startAnvil } from "../../../demo/chain/anvil.js"
import { deployContract } from "../../../demo/chain/contracts.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { call, type Session } from "../../support/http.js"
import { testConfig, type TestConfigShape } from "../../support/config.js"
import { waitFor } from "../../support/waitFor.js"

export const TokenAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function balanceOf(address owner) view returns (uint256)"
])

/** What {@link startBountyChain} made. */
export interface BountyChain {
  readonly anvil: Anvil
  readonly token: Address
  readonly escrow: Address
  /** The poster's wallet (anvil account 2). */
  readonly poster: Address
  /** The claimant's payout wallet (anvil account 3). */
  readonly provider: Address
  /** The asset's CAIP-19 id. */
  readonly asset: string
}

/** Anvil, the token (minted to the poster) and the escrow (see the module docs). */
export const startBountyChain = async (): Promise<BountyChain> => {
  const anvil = await startAnvil()
  const deployer = { wallet: anvil.wallet(0), publicClient: anvil.publicClient }
  const token = getAddress(await deployContract(deployer, "TestToken", ["Test USD", "TUSD", 6]))
  const escrow = getAddress(await deployContract(deployer, "BountyEscrow", [anvil.accounts[0]!.address, anvil.accounts[1]!.address]))
  const poster = anvil.accounts[2]!.address
  const hash = await anvil.wallet(0).writeContract({
    address: token, abi: TokenAbi, functionName: "mint", args: [poster, 1_000_000_000n], account: anvil.accounts[0]!, chain: null
  })
  await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  return { anvil, token, escrow, poster, provider: anvil.accounts[3]!.address, asset: `${anvil.network}/erc20:${token.toLowerCase()}` }
}

/** Server settings for the chain. */
export const bountyOverrides = (chain: BountyChain): Partial<TestConfigShape> => ({
  chainRpcUrls: new Map([[chain.anvil.network, chain.anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [chain.anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[chain.anvil.network, 2]]),
    contracts: new Map([[chain.anvil.network, new Map([["bountyEscrow", chain.escrow]])]]),
    signerKey: Option.some(Redacted.make(chain.anvil.privateKeys[1]!)),
    pollIntervalMs: 100
  }
})

/** The claimant's agent (Cobalt, operated by the outsider's workspace). */
export const ClaimantAgent = DemoAgents[2].id

/** The anvil network's and the token's rows, and the two workspace wallets on it. Idempotent. */
export const seedBountyChain = (chain: BountyChain) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO networks (id, key, family, display_name, caip2)
      VALUES ('0190000b-0000-7000-8000-0000000000e1', ${chain.anvil.network}, 'EVM', 'Anvil', ${chain.anvil.network}) ON CONFLICT DO NOTHING`
    const [network] = yield* sql<{ id: string }>`SELECT id FROM networks WHERE caip2 = ${chain.anvil.network}`
    yield* sql`INSERT INTO assets (id, network_id, symbol, decimals, caip19)
      VALUES ('0190000b-0000-7000-8000-0000000000e2', ${network!.id}, 'TUSD', 6, ${chain.asset}) ON CONFLICT DO NOTHING`
    yield* sql`INSERT INTO wallets (id, owner_account_id, network_id, address, created_at, workspace_id) VALUES
      ('0190000b-0000-7000-8000-0000000000e3', ${DemoAccounts.owner.id}, ${network!.id}, ${chain.poster}, now(), ${DemoWorkspaces.acme.id}),
      ('0190000b-0000-7000-8000-0000000000e4', ${DemoAccounts.outsider.id}, ${network!.id}, ${chain.provider}, now(), ${DemoWorkspaces.outsider.id})
      ON CONFLICT DO NOTHING`
  }).pipe(Effect.orDie)

/** A bounty body of acme's on the chain's token, with `deadline`. */
export const bountyBody = (chain: BountyChain, units: bigint, deadline: Date, title = "Write an MCP server for a weather API") => ({
  workspaceId: DemoWorkspaces.acme.id,
  title,
  description: "A small MCP server exposing the forecast of a city as a tool.",
  acceptanceCriteria: "The server answers tools/list and tools/call with the forecast.",
  rewardUnits: units.toString(),
  asset: chain.asset,
  network: chain.anvil.network,
  deadline: deadline.toISOString(),
  requiredSkills: ["typescript"],
  requiredProtocols: ["mcp"]
})

/** Signs an OWNER intent's unsigned transaction with anvil account `account` and submits it; returns its hash. */
export const signAndSubmit = (chain: BountyChain, session: Session, account: number, intent: { id: string; unsignedTransaction: string }) =>
  Effect.gen(function*() {
    const { r: _r, s: _s, v: _v, yParity: _y, ...tx } = parseTransaction(intent.unsignedTransaction as Hex) as Record<string, unknown>
    const signed = yield* Effect.promise(() => privateKeyToAccount(chain.anvil.privateKeys[account]!).signTransaction(tx as never))
    const submitted = yield* call("POST", `/api/v1/transaction-intents/${intent.id}/submit`, { body: { signedTransaction: signed }, session })
    expect(submitted.status, submitted.text).toBe(200)
    return submitted.body.data.transactionHash as string
  })

/** Reads the bounty as `session` sees it. */
export const getBounty = (session: Session, id: string) =>
  Effect.map(call("GET", `/api/v1/bounties/${id}`, { session }), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.body.data
  })

/** Mines a block now and then (the confirmation depth) until the bounty, read as `session()`, satisfies `done`. */
export const untilBounty = (
  chain: BountyChain,
  what: string,
  session: () => Session,
  id: string,
  done: (bounty: any) => boolean,
  timeoutMs = 60_000
) => {
  let last: unknown
  return waitFor(
    what,
    Effect.gen(function*() {
      yield* Effect.promise(() => chain.anvil.testClient.mine({ blocks: 1 }))
      const bounty = yield* getBounty(session(), id)
      last = bounty
      return done(bounty) ? bounty : undefined
    }),
    timeoutMs,
    200,
    () => JSON.stringify(last)
  )
}

/** The token balance of `owner`. */
export const balanceOf = (chain: BountyChain, owner: Address) =>
  Effect.promise(() => chain.anvil.publicClient.readContract({ address: chain.token, abi: TokenAbi, functionName: "balanceOf", args: [owner] }))

/** Posts a bounty as `poster` and funds it: the approve and fund intents signed by account 2; waits until it is OPEN. */
export const postAndFund = (chain: BountyChain, poster: () => Session, units: bigint, deadline: Date, title?: string) =>
  Effect.gen(function*() {
    const created = yield* call("POST", "/api/v1/bounties", { session: poster(), body: bountyBody(chain, units, deadline, title) })
    expect(created.status, created.text).toBe(201)
    const bounty = created.body.data
    const funded = yield* call("POST", `/api/v1/bounties/${bounty.id}/fund`, { session: poster(), body: { expectedVersion: bounty.version } })
    expect(funded.status, funded.text).toBe(202)
    for (const intent of funded.body.data.transactionIntents) yield* signAndSubmit(chain, poster(), 2, intent)
    return yield* untilBounty(chain, "the bounty OPEN", poster, bounty.id, (b) => b.state === "OPEN")
  })

/** The outbound events of a bounty: [workspace, kind] in order. */
export const bountyEvents = (bountyId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ workspaceId: string; kind: string }>`SELECT workspace_id AS "workspaceId", kind FROM events
      WHERE subject_id = ${bountyId} ORDER BY created_at, id`).pipe(Effect.orDie)

/**
 * Resolves bounty `bountyId`'s dispute `disputeId` as the demo admin (Jobs_ResolveBountyDispute):
 * the preview (202), then the approved command applied (202). Returns the applied answer.
 */
export const resolveDispute = (
  bountyId: string,
  disputeId: string,
  body: { readonly resolution: string; readonly unitsToProvider: string; readonly unitsToClient: string; readonly reason: string; readonly expectedVersion: number },
  admin: Session
) =>
  Effect.gen(function*() {
    const path = `/api/v1/admin/bounties/${bountyId}/disputes/${disputeId}/resolution`
    const preview = yield* call("POST", path, { session: admin, body })
    expect(preview.status, preview.text).toBe(202)
    const applied = yield* call("POST", path, {
      session: admin,
      body: { ...body, dryRun: false, approvedCommandHash: preview.body.data.commandHash, confirmation: preview.body.data.confirmation }
    })
    expect(applied.status, applied.text).toBe(202)
    return applied
  })

/** POSTs bounty command `verb` (claim, submit, accept, reject, dispute, cancel, …) of `bountyId` as `session`. */
export const bountyCommand = (session: Session, bountyId: string, verb: string, body: Record<string, unknown>) =>
  call("POST", `/api/v1/bounties/${bountyId}/${verb}`, { session, body })
