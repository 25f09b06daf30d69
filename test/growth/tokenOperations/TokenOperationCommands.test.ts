/**
 * Growth_CreateTokenOperation, Growth_ApproveTokenOperation and Growth_CancelTokenOperation
 * (spec §2.13, §3, §4.2) through the HTTP stack, on anvil with a TestToken as the treasury token
 * minted to the platform signer (anvil's account 0), and the outcome handler of their intents
 * (src/growth/tokenOperations/Outcomes.ts) on the intent events the sender and watcher produce.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { erc20Abi, getAddress } from "viem"
import { DemoAccounts } from "../../../demo/accounts/seed.js"
import { startAnvil } from "../../../demo/chain/anvil.js"
import { deployContract } from "../../../demo/chain/contracts.js"
import { IdsSequence } from "../../../layers/Ids.js"
import type { TransactionIntent } from "../../../schema/transactionIntents.js"
import { tokenOperationOutcome } from "../../../src/growth/tokenOperations/Outcomes.js"
import { call, expectProblem, type Session, signIn, signInWith } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer } from "../../support/TestServer.js"
import { waitFor } from "../../support/waitFor.js"

const anvil = await startAnvil()
afterAll(() => anvil.stop())
const signer = anvil.accounts[0]!.address
const token = getAddress(await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "TestToken", ["Treasury Token", "TT", 18]))
await anvil.publicClient.waitForTransactionReceipt({
  hash: await anvil.wallet(0).writeContract({
    address: token, abi: [{ type: "function", name: "mint", stateMutability: "nonpayable", inputs: [{ name: "to", type: "address" }, { name: "amount", type: "uint256" }], outputs: [] }],
    functionName: "mint", args: [signer, 10n ** 24n], account: anvil.accounts[0]!, chain: null
  })
})
// blocks are mined by the tests from here on, so the watcher sees each one the platform's transaction lands in
await anvil.testClient.setAutomine(false)
const assetCaip19 = `${anvil.network}/erc20:${token.toLowerCase()}`
const recipient = getAddress(anvil.accounts[5]!.address)

const Threshold = 1000n
const server = makeTestServer({
  chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[anvil.network, 2]]),
    contracts: new Map([[anvil.network, new Map([["treasuryToken", token]])]]),
    signerKey: Option.some(Redacted.make(anvil.privateKeys[0]!))
  },
  tokenOperations: { approvalThresholdUnits: Threshold }
})

const Path = "/api/v1/admin/token-operations"

/** The demo owner, made a second administrator with a confirmed second factor, signed in past it. */
const secondAdmin = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE accounts SET is_admin = true WHERE id = ${DemoAccounts.owner.id}`
  yield* sql`INSERT INTO mfa_totp (account_id, state, secret_sealed, created_at, enabled_at)
    SELECT ${DemoAccounts.owner.id}, 'ENABLED', secret_sealed, created_at, enabled_at FROM mfa_totp WHERE account_id = ${DemoAccounts.admin.id}
    ON CONFLICT (account_id) DO NOTHING`
  const session = yield* signInWith(DemoAccounts.owner.email, DemoAccounts.owner.password, { mfa: false })
  yield* sql`UPDATE sessions SET mfa_pending = false WHERE id = ${session.sessionId}`
  return session
}).pipe(Effect.orDie)

const create = (session: Session, body: Record<string, unknown>) =>
  call("POST", Path, {
    session,
    body: { kind: "REWARD", network: anvil.network, assetId: assetCaip19, units: "500", destination: recipient, publicSummary: "Monthly reward", ...body }
  })

const created = (session: Session, body: Record<string, unknown>) =>
  Effect.map(create(session, body), (r) => {
    expect(r.status, r.text).toBe(201)
    return r.body.data as Record<string, any>
  })

const command = (session: Session, id: string, verb: "approve" | "cancel", expectedVersion: number) =>
  call("POST", `${Path}/${id}/${verb}`, { session, body: { expectedVersion } })

/** An intent event for the operation `id`, as the sender or the watcher hands it over. */
const event = (id: string, state: TransactionIntent["state"], intent: Partial<TransactionIntent> = {}) => ({
  purpose: { kind: "token-operation", id },
  state,
  receipt: null,
  intent: { network: anvil.network, from: signer, transactionHash: `0x${"ab".repeat(32)}`, failureCode: null, ...intent } as TransactionIntent
})

const outcome = (e: ReturnType<typeof event>) => tokenOperationOutcome(e).pipe(Effect.provide(IdsSequence("000000c1")))

const balanceOf = (address: `0x${string}`) =>
  Effect.promise(() => anvil.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [address] }))

layer(server.layer, { timeout: 120_000 })("Token operation commands", (it) => {
  it.effect("end to end: a second admin approves, the platform signs and broadcasts the transfer, the watcher confirms it and the operation is RECONCILED", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const other = yield* secondAdmin
      const sql = yield* SqlClient.SqlClient
      const payee = getAddress(anvil.accounts[6]!.address)
      const before = yield* balanceOf(payee)
      const op = yield* created(admin, { kind: "DISTRIBUTION", units: "5000", destination: payee, publicSummary: "Season one distribution" })
      expect(op.state).toBe("APPROVAL_REQUIRED")
      const approved = yield* command(other, op.id, "approve", 1)
      expect(approved.status, approved.text).toBe(202)
      expect(approved.body.data).toMatchObject({ id: op.id, state: "BUILD_PENDING", version: 3, approvedAt: expect.any(String) })
      const intentId = approved.body.data.transactionIntentPublicId as string
      expect(intentId).toMatch(/^[0-9a-f-]{36}$/)
      const [intent] = yield* sql<{ signer: string; purposeKind: string; purposeId: string; to: string; from: string; functionName: string }>`
        SELECT signer, purpose_kind AS "purposeKind", purpose_id AS "purposeId", to_address AS "to", from_address AS "from",
          call->>'functionName' AS "functionName" FROM transaction_intents WHERE id = ${intentId}`
      expect(intent).toEqual({ signer: "PLATFORM", purposeKind: "token-operation", purposeId: op.id, to: token, from: signer, functionName: "transfer" })
      const audits = yield* sql<{ action: string; actor: string }>`SELECT action, actor_account_id AS actor FROM audit_events
        WHERE target_id = ${op.id} AND action = 'token_operation.approved'`
      expect(audits).toEqual([{ action: "token_operation.approved", actor: DemoAccounts.owner.id }])
      const read = Effect.map(call("GET", Path, { session: admin }), (r) => (r.body.data as Array<any>).find((o) => o.id === op.id))
      // the platform's sender signs and broadcasts it: the operation is SUBMITTED with the intent's hash
      const submitted = yield* waitFor("the operation SUBMITTED", Effect.map(read, (o) => o.state === "SUBMITTED" ? o : undefined), 30_000, 200)
      expect(submitted).toMatchObject({ transactionIntentPublicId: intentId, failureCode: null, version: 4 })
      const [sent] = yield* sql<{ hash: string }>`SELECT transaction_hash AS hash FROM transaction_intents WHERE id = ${intentId}`
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      const receipt = yield* Effect.promise(() => anvil.publicClient.getTransactionReceipt({ hash: sent!.hash as `0x${string}` }))
      expect(receipt.status).toBe("success")
      expect(getAddress(receipt.to!)).toBe(token)
      expect((yield* balanceOf(payee)) - before).toBe(5000n)
      // one block on top reaches the network's depth of 2: the watcher confirms the intent and the operation is
      // RECONCILED with its journal entry, the transfer's hash beside it
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      const reconciled = yield* waitFor("the operation RECONCILED", Effect.map(read, (o) => o.state === "RECONCILED" ? o : undefined), 30_000, 200)
      expect(reconciled).toMatchObject({ journalEntryId: expect.stringMatching(/^[0-9a-f-]{36}$/), reconciledAt: expect.any(String) })
      const lines = yield* sql<{ units: string }>`SELECT l.units::text AS units FROM journal_entry_lines l
        WHERE l.journal_entry_id = ${reconciled.journalEntryId}`
      expect(lines.map((l) => l.units).sort()).toEqual(["5000", "5000"])
    }), 90_000)

  it.effect("create: PLANNED up to the threshold, APPROVAL_REQUIRED above, the treasury token's asset row, audit", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const planned = yield* created(admin, { units: Threshold.toString() })
      const sql = yield* SqlClient.SqlClient
      // the directory's row of the configured network (its key, as every operation shows it)
      const [network] = yield* sql<{ id: string; key: string }>`SELECT id, key FROM networks WHERE caip2 = ${anvil.network}`
      expect(planned).toMatchObject({
        kind: "REWARD",
        state: "PLANNED",
        networkId: network!.id,
        network: network!.key,
        symbol: "TT",
        decimals: 18,
        units: "1000",
        destination: recipient,
        source: `${anvil.network}:${signer}`,
        publicSummary: "Monthly reward",
        transactionIntentPublicId: null,
        journalEntryId: null,
        approvedAt: null,
        policyVersion: 1,
        version: 1
      })
      // the asset by its id on the second request; above the threshold
      const above = yield* created(admin, { assetId: planned.assetId, network: planned.networkId, units: "1001", source: "treasury:hot" })
      expect(above).toMatchObject({ state: "APPROVAL_REQUIRED", assetId: planned.assetId, source: "treasury:hot", networkId: network!.id })
      const burn = yield* created(admin, { kind: "BURN", destination: undefined })
      expect(burn.destination).toBe("0x000000000000000000000000000000000000dEaD")
      const audits = yield* sql<{ action: string }>`SELECT action FROM audit_events WHERE target_id = ${planned.id}`
      expect(audits).toEqual([{ action: "token_operation.created" }])
      const listed = yield* call("GET", Path, { session: admin })
      expect((listed.body.data as Array<any>).slice(0, 3).map((o) => o.id).sort()).toEqual([planned.id, above.id, burn.id].sort())
    }))

  it.effect("create refusals: venue kinds, another asset, a missing or bad destination, an unconfigured network, a non-admin", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      expectProblem(yield* create(admin, { kind: "BUYBACK" }), 422, "configuration-missing")
      expectProblem(yield* create(admin, { kind: "LIQUIDITY" }), 422, "configuration-missing")
      expectProblem(yield* create(admin, { assetId: `${anvil.network}/erc20:${recipient}` }), 422, "asset-not-executable")
      expectProblem(yield* create(admin, { network: "eip155:1" }), 422, "configuration-missing")
      const missing = yield* create(admin, { destination: undefined })
      expectProblem(missing, 400, "invalid-request")
      expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: "/destination" })])
      expectProblem(yield* create(admin, { destination: "treasury:cold" }), 400, "invalid-request")
      expectProblem(yield* create(admin, { units: "0" }), 400, "invalid-request")
      expectProblem(yield* create(admin, { kind: "SWAP" }), 400, "invalid-request")
      const member = yield* signIn("member")
      expectProblem(yield* create(member, {}), 403, "admin-required")
    }))

  it.effect("approve: the creator may not approve an APPROVAL_REQUIRED operation; stale versions and unknown ids are refused", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const op = yield* created(admin, { units: "5000" })
      expectProblem(yield* command(admin, op.id, "approve", 1), 403, "second-approver-required")
      const other = yield* secondAdmin
      expectProblem(yield* command(other, op.id, "approve", 2), 409, "version-conflict")
      expectProblem(yield* command(other, "01900000-0000-7000-8000-00000000beef", "approve", 1), 404, "token-operation-not-found")
      const cancelled = yield* command(admin, op.id, "cancel", 1)
      expect(cancelled.status, cancelled.text).toBe(200)
      expectProblem(yield* command(other, op.id, "approve", 2), 409, "invalid-state")
    }))

  it.effect("cancel: from PLANNED, APPROVAL_REQUIRED or APPROVED only, at the current version, audited", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const op = yield* created(admin, {})
      expectProblem(yield* command(admin, op.id, "cancel", 2), 409, "version-conflict")
      const reply = yield* command(admin, op.id, "cancel", 1)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toMatchObject({ id: op.id, state: "CANCELLED", version: 2 })
      expectProblem(yield* command(admin, op.id, "cancel", 2), 409, "invalid-state")
      const sql = yield* SqlClient.SqlClient
      const audits = yield* sql<{ action: string }>`SELECT action FROM audit_events WHERE target_id = ${op.id} ORDER BY created_at, action`
      expect(audits.map((a) => a.action).sort()).toEqual(["token_operation.cancelled", "token_operation.created"])
      // a built operation is past cancelling
      const built = yield* created(admin, {})
      yield* sql`UPDATE token_operations SET state = 'BUILD_PENDING', version = 3 WHERE id = ${built.id}`
      expectProblem(yield* command(admin, built.id, "cancel", 3), 409, "invalid-state")
    }))

  it.effect("outcomes: SUBMITTED, then CONFIRMED reconciles with a balanced journal entry; FAILED keeps the failure code", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const sql = yield* SqlClient.SqlClient
      const op = yield* created(admin, { units: "700" })
      yield* sql`UPDATE token_operations SET state = 'BUILD_PENDING', version = 3 WHERE id = ${op.id}`
      yield* outcome(event(op.id, "SUBMITTED"))
      yield* outcome(event(op.id, "OBSERVED"))
      // a reorg moves the intent back to SUBMITTED: the operation stays SUBMITTED
      yield* outcome(event(op.id, "SUBMITTED"))
      const read = (id: string) =>
        Effect.map(call("GET", Path, { session: admin }), (r) => (r.body.data as Array<any>).find((o) => o.id === id))
      expect(yield* read(op.id)).toMatchObject({ state: "SUBMITTED", version: 4 })
      yield* outcome(event(op.id, "CONFIRMED"))
      yield* outcome(event(op.id, "CONFIRMED"))
      const reconciled = yield* read(op.id)
      expect(reconciled).toMatchObject({ state: "RECONCILED", version: 6, reconciledAt: expect.any(String) })
      const entries = yield* sql<{ id: string; transactionHash: string; network: string }>`SELECT id, transaction_hash AS "transactionHash", network
        FROM journal_entries WHERE token_operation_id = ${op.id}`
      expect(entries).toEqual([{ id: reconciled.journalEntryId, transactionHash: `0x${"ab".repeat(32)}`, network: anvil.network }])
      const lines = yield* sql<{ account: string; side: string; units: string }>`SELECT account, side, units::text AS units
        FROM journal_entry_lines WHERE journal_entry_id = ${reconciled.journalEntryId} ORDER BY line_no`
      expect(lines).toEqual([
        { account: `rewards:${anvil.network}:${recipient}`, side: "DEBIT", units: "700" },
        { account: `treasury:${anvil.network}:${signer}`, side: "CREDIT", units: "700" }
      ])
      const failing = yield* created(admin, {})
      yield* sql`UPDATE token_operations SET state = 'BUILD_PENDING', version = 3 WHERE id = ${failing.id}`
      yield* outcome(event(failing.id, "FAILED", { failureCode: "policy-violation" }))
      expect(yield* read(failing.id)).toMatchObject({ state: "FAILED", failureCode: "policy-violation", version: 4 })
      // a cancelled operation's late event changes nothing
      const cancelled = yield* created(admin, {})
      expect((yield* command(admin, cancelled.id, "cancel", 1)).status).toBe(200)
      yield* outcome(event(cancelled.id, "CONFIRMED"))
      expect(yield* read(cancelled.id)).toMatchObject({ state: "CANCELLED", version: 2 })
    }))
})
