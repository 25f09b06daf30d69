/**
 * Wallet policies (spec §2.8): Wallets_CreateWalletPolicy puts a policy in force through the
 * provisioning workflow on the engine (PREPARED → DISPATCHING → OBSERVING → COMPLETE with the
 * built-in `signer` provider; MANUAL_REVIEW on its refusal), Wallets_GetWalletPolicy reads it,
 * Wallets_CancelWalletPolicy still cancels created policies, and `IntentPolicy.check` (the wallets
 * area's `IntentPolicyLive`) refuses intents that break the sending wallet's COMPLETE policy.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { encodeFunctionData, erc20Abi, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage, generateSiweNonce } from "viem/siwe"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { IntentPolicy } from "../../layers/TransactionIntents.js"
import { type TransactionIntent, TransactionIntent as TransactionIntentSchema } from "../../schema/transactionIntents.js"
import { IntentPolicyLive } from "../../src/wallets/index.js"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const server = makeTestServer()

const token = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const otherContract = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
const recipient = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

/** Registers a fresh key's address on Base for the acme workspace; returns the wallet. */
const registerWallet = (session: Session) =>
  Effect.gen(function*() {
    const account = privateKeyToAccount(generatePrivateKey())
    const message = createSiweMessage({
      address: account.address,
      chainId: 8453,
      domain: "directory.test",
      uri: "https://directory.test/wallets",
      version: "1",
      nonce: generateSiweNonce(),
      issuedAt: new Date(server.clock.unsafeCurrentTimeMillis())
    })
    const signature = yield* Effect.promise(() => account.signMessage({ message }))
    const reply = yield* call("POST", "/api/v1/wallets", {
      session,
      body: { workspaceId: DemoWorkspaces.acme.id, account: `eip155:8453:${account.address}`, message, signature }
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data as { walletPublicId: string; address: `0x${string}` }
  })

const createPolicy = (session: Session, walletId: string, body: unknown) =>
  call("POST", `/api/v1/wallets/${walletId}/policies`, { session, body })

/** Waits until the policy leaves the provisioning states; returns it. */
const settled = (session: Session, policyId: string) =>
  waitFor(
    `policy ${policyId} settled`,
    until(
      Effect.map(call("GET", `/api/v1/wallet-policies/${policyId}`, { session }), (r) => r.body.data),
      (p) => p !== undefined && !["PREPARED", "DISPATCHING", "OBSERVING"].includes(p.state)
    ),
    30_000,
    200
  )

let intentCount = 0
/** A PREPARED platform intent from `from` calling `data` on `to` (the wire shape, decoded). */
const intentOf = (from: string, to: string, data: Hex, options: { network?: string; value?: bigint } = {}): TransactionIntent =>
  Schema.decodeUnknownSync(TransactionIntentSchema)({
    id: `0190ffff-0000-7000-8000-${String(++intentCount).padStart(12, "0")}`,
    network: options.network ?? "eip155:8453",
    state: "PREPARED",
    signer: "PLATFORM",
    from,
    to,
    data,
    call: { functionName: "transfer", signature: "transfer(address,uint256)", args: [] },
    value: String(options.value ?? 0n),
    fees: { gasLimit: "100000", maxFeePerGas: "1", maxPriorityFeePerGas: "1" },
    nonce: null,
    unsignedTransaction: null,
    typedData: null,
    transactionHash: null,
    blockNumber: null,
    blockHash: null,
    explorerUrl: null,
    failureCode: null,
    expiresAt: TestEpoch.toISOString(),
    createdAt: TestEpoch.toISOString(),
    submittedAt: null,
    observedAt: null,
    confirmedAt: null,
    updatedAt: TestEpoch.toISOString(),
    version: 1
  })

const transfer = (amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [recipient, amount] })

/** `IntentPolicy.check` of the wallets area: undefined when allowed, else the problem's detail. */
const check = (intent: TransactionIntent) =>
  Effect.flatMap(IntentPolicy, (policy) => policy.check(intent)).pipe(
    Effect.as(undefined),
    Effect.catchTag("PolicyViolation", (e) => Effect.succeed(e.detail)),
    Effect.provide(IntentPolicyLive),
    // the server's time, not the test fiber's TestClock
    Effect.withClock(server.clock)
  )

layer(server.layer, { timeout: 120_000 })("wallet policies", (it) => {
  it.effect("CREATE → COMPLETE on the engine; the policy's rules refuse intents by network, contract, method and limits", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const wallet = yield* registerWallet(owner)
      const created = yield* createPolicy(owner, wallet.walletPublicId, {
        phase: "CREATE",
        rules: {
          allowedNetworks: ["eip155:8453"],
          allowedContracts: [token.toLowerCase()],
          allowedMethods: ["transfer(address,uint256)", "0x095ea7b3"],
          perTransactionLimit: "1000",
          perDayLimit: "1500"
        }
      })
      expect(created.status, created.text).toBe(202)
      expect(created.body.data).toMatchObject({
        walletPublicId: wallet.walletPublicId,
        phase: "CREATE",
        state: "PREPARED",
        version: 1,
        providerPolicyId: null,
        completedAt: null
      })
      const policyId = created.body.data.policyId as string
      const complete = yield* settled(owner, policyId)
      expect(complete).toMatchObject({
        state: "COMPLETE",
        version: 4,
        providerPolicyId: `signer:${policyId}`,
        candidateProviderPolicyId: `signer:${policyId}`,
        failureCode: null
      })
      expect(complete.completedAt).not.toBeNull()

      const from = wallet.address
      expect(yield* check(intentOf(from, token, transfer(500n)))).toBeUndefined()
      expect(yield* check(intentOf(from.toLowerCase(), token, transfer(1000n)))).toBeUndefined()
      expect(yield* check(intentOf(from, token, transfer(1001n)))).toContain("per-transaction-limit")
      expect(yield* check(intentOf(from, otherContract, transfer(1n)))).toContain("contract-not-allowed")
      expect(yield* check(intentOf(from, token, transfer(1n), { network: "eip155:1" }))).toBeUndefined() // not this wallet
      const approve = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [recipient, 2000n] })
      expect(yield* check(intentOf(from, token, approve))).toContain("per-transaction-limit")
      const transferFrom = encodeFunctionData({ abi: erc20Abi, functionName: "transferFrom", args: [from, recipient, 1n] })
      expect(yield* check(intentOf(from, token, transferFrom))).toContain("method-not-allowed")
      expect(yield* check(intentOf(from, token, "0x", { value: 1n }))).toContain("method-not-allowed")
      // native value counts with the token amount
      expect(yield* check(intentOf(from, token, transfer(600n), { value: 401n }))).toContain("per-transaction-limit")

      // the day: a SUBMITTED intent of 900 units an hour ago; 700 more is over 1500, 600 is not
      const sql = yield* SqlClient.SqlClient
      const submittedAt = new Date(TestEpoch.getTime() - 3_600_000)
      yield* sql`INSERT INTO transaction_intents (id, network, state, signer, purpose_kind, purpose_id, from_address, to_address,
          data, call, value, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, expires_at, created_at, submitted_at, updated_at)
        VALUES ('0190fffe-0000-7000-8000-000000000001', 'eip155:8453', 'SUBMITTED', 'PLATFORM', 'test', '0190fffe-0000-7000-8000-000000000002',
          ${from}, ${token}, ${transfer(900n)}, '{}'::jsonb, 0, 100000, 1, 1, ${TestEpoch}, ${submittedAt}, ${submittedAt}, ${submittedAt})`
      // an old one (two days ago) and a FAILED one do not count
      const old = new Date(TestEpoch.getTime() - 2 * 24 * 3_600_000)
      yield* sql`INSERT INTO transaction_intents (id, network, state, signer, purpose_kind, purpose_id, from_address, to_address,
          data, call, value, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, expires_at, created_at, submitted_at, updated_at)
        VALUES ('0190fffe-0000-7000-8000-000000000003', 'eip155:8453', 'CONFIRMED', 'PLATFORM', 'test', '0190fffe-0000-7000-8000-000000000002',
          ${from}, ${token}, ${transfer(900n)}, '{}'::jsonb, 0, 100000, 1, 1, ${TestEpoch}, ${old}, ${old}, ${old}),
          ('0190fffe-0000-7000-8000-000000000004', 'eip155:8453', 'FAILED', 'PLATFORM', 'test', '0190fffe-0000-7000-8000-000000000002',
          ${from}, ${token}, ${transfer(900n)}, '{}'::jsonb, 0, 100000, 1, 1, ${TestEpoch}, ${submittedAt}, ${submittedAt}, ${submittedAt})`
      expect(yield* check(intentOf(from, token, transfer(700n)))).toContain("per-day-limit")
      expect(yield* check(intentOf(from, token, transfer(600n)))).toBeUndefined()

      // a second, newer COMPLETE policy replaces the first: only networks restricted now
      server.clock.advance(1000)
      const looser = yield* createPolicy(owner, wallet.walletPublicId, { phase: "CREATE", rules: { allowedNetworks: ["eip155:1"] } })
      expect(looser.status, looser.text).toBe(202)
      expect((yield* settled(owner, looser.body.data.policyId)).state).toBe("COMPLETE")
      expect(yield* check(intentOf(from, otherContract, transfer(5000n)))).toContain("network-not-allowed")

      // a wallet without a COMPLETE policy is not restricted
      const bare = yield* registerWallet(owner)
      expect(yield* check(intentOf(bare.address, otherContract, transfer(10n ** 30n)))).toBeUndefined()
    }))

  it.effect("ATTACH: a known signer policy → COMPLETE, an unknown one → MANUAL_REVIEW, then cancelled", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const wallet = yield* registerWallet(owner)
      const first = yield* createPolicy(owner, wallet.walletPublicId, { phase: "CREATE", rules: {} })
      const complete = yield* settled(owner, first.body.data.policyId)
      expect(complete.state).toBe("COMPLETE")

      const attached = yield* createPolicy(owner, wallet.walletPublicId, {
        phase: "ATTACH",
        providerPolicyId: complete.providerPolicyId,
        rules: { perTransactionLimit: "10" }
      })
      expect(attached.status, attached.text).toBe(202)
      expect(attached.body.data.candidateProviderPolicyId).toBe(complete.providerPolicyId)
      expect(yield* settled(owner, attached.body.data.policyId)).toMatchObject({
        state: "COMPLETE",
        providerPolicyId: complete.providerPolicyId
      })

      const unknown = yield* createPolicy(owner, wallet.walletPublicId, {
        phase: "ATTACH",
        providerPolicyId: "signer:not-a-policy",
        rules: {}
      })
      const review = yield* settled(owner, unknown.body.data.policyId)
      expect(review).toMatchObject({ state: "MANUAL_REVIEW", failureCode: "PROVIDER_POLICY_UNKNOWN", providerPolicyId: null })

      // the existing cancel works on a created policy
      const policyId = review.policyId as string
      const cancelled = yield* call("POST", `/api/v1/wallet-policies/${policyId}/cancel`, {
        session: owner,
        body: { expectedVersion: review.version, reason: "The provider does not know this policy.", confirmation: `CANCEL ${policyId}` }
      })
      expect(cancelled.status, cancelled.text).toBe(200)
      expect(cancelled.body.data).toMatchObject({ state: "CANCELLED", version: review.version + 1 })
    }))

  it.effect("refusals: providerPolicyId with CREATE or missing with ATTACH (400), another's wallet (404), bad rules (400)", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const wallet = yield* registerWallet(owner)
      const withId = yield* createPolicy(owner, wallet.walletPublicId, { phase: "CREATE", providerPolicyId: "x", rules: {} })
      expectProblem(withId, 400)
      expect(withId.body.errors[0]).toMatchObject({ in: "body", pointer: "/providerPolicyId" })
      expectProblem(yield* createPolicy(owner, wallet.walletPublicId, { phase: "ATTACH", rules: {} }), 400)
      const badLimit = yield* createPolicy(owner, wallet.walletPublicId, { phase: "CREATE", rules: { perDayLimit: "01" } })
      expectProblem(badLimit, 400)
      const badMethod = yield* createPolicy(owner, wallet.walletPublicId, { phase: "CREATE", rules: { allowedMethods: ["0x12"] } })
      expectProblem(badMethod, 400)
      const member = yield* signIn("member")
      expectProblem(yield* createPolicy(member, wallet.walletPublicId, { phase: "CREATE", rules: {} }), 404, "wallet-not-found")
      expectProblem(yield* call("GET", `/api/v1/wallet-policies/${"0190ffff-0000-7000-8000-00000000ffff"}`, { session: owner }), 404, "wallet-policy-not-found")
    }))
})
