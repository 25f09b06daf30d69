/**
 * Jobs_ResolveBountyDispute (POST /api/v1/admin/bounties/{bountyId}/disputes/{disputeId}/resolution,
 * spec §3, §4.2) through the HTTP stack: preview → apply → replay → stale apply, units rules, every status.
 * The demo escrows are on Base (`eip155:8453`), served here by anvil with that chain id and the
 * platform's signer an anvil account; an accepted resolution prepares the real escrow intent
 * (the payout itself, on a deployed escrow, is test/jobs/bounties/EscrowRelease.test.ts). The
 * confirmation depth is out of reach, so no intent of this file ever confirms.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { getAddress } from "viem"
import { startAnvil } from "../../../demo/chain/anvil.js"
import { DemoBounties, DemoDisputes, DemoEscrow } from "../../../demo/jobs/bounties/seed.js"
import { commandHash } from "../../../src/jobs/bounties/DisputeCommand.js"
import { BountyEscrowAbi, escrowDecisionDigest, escrowId } from "../../../src/jobs/bounties/Escrow.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer } from "../../support/TestServer.js"
import { DemoAccounts } from "../../../demo/accounts/seed.js"

type Name = keyof typeof DemoDisputes
const pathOf = (name: Name) => `/api/v1/admin/bounties/${DemoBounties[name].id}/disputes/${DemoDisputes[name].id}/resolution`
const reason = "Two of the three milestones were delivered as agreed."

const resolve = (session: Session | undefined, name: Name, body: Record<string, unknown>, idempotencyKey?: string) =>
  call("POST", pathOf(name), { ...(session ? { session } : {}), body, ...(idempotencyKey ? { idempotencyKey } : {}) })

const readDispute = (name: Name) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ disputeState: string; disputeVersion: number; bountyState: string; bountyVersion: number }>`
      SELECT d.state AS "disputeState", d.version::int AS "disputeVersion", b.state AS "bountyState", b.version::int AS "bountyVersion"
      FROM bounty_disputes d JOIN bounties b ON b.id = d.bounty_id WHERE d.id = ${DemoDisputes[name].id}`
    return row!
  })

const anvil = await startAnvil({ chainId: 8453 })
afterAll(() => anvil.stop())
const arbiter = anvil.accounts[1]!.address
const server = makeTestServer({
  chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[anvil.network, 1_000_000]]),
    signerKey: Option.some(Redacted.make(anvil.privateKeys[1]!))
  }
})

layer(server.layer)("Jobs_ResolveBountyDispute", (it) => {
  it.effect("preview → apply → replay → stale apply (SPLIT: RELEASE_PENDING, versions +1, intent and audit event)", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const input = { resolution: "SPLIT", unitsToProvider: "150000000", unitsToClient: "100000000", reason, expectedVersion: 1 }
      const preview = yield* resolve(admin, "release", input)
      expect(preview.status, preview.text).toBe(202)
      expect(preview.headers["cache-control"]).toBe("no-store")
      expectMeta(preview)
      const p = preview.body.data
      expect(Object.keys(p).sort()).toEqual([
        "bountyId", "commandHash", "confirmation", "contractAddress", "decisionDigest", "disputeId", "expectedVersion", "kind",
        "network", "resolution", "unitsToClient", "unitsToProvider", "walletPublicId"
      ])
      expect(p).toMatchObject({
        kind: "PREVIEW",
        bountyId: DemoBounties.release.id,
        disputeId: DemoDisputes.release.id,
        expectedVersion: 1,
        resolution: "SPLIT",
        unitsToProvider: "150000000",
        unitsToClient: "100000000",
        network: DemoEscrow.network,
        contractAddress: DemoEscrow.contractAddress,
        walletPublicId: DemoEscrow.walletId,
        confirmation: `RESOLVE ${DemoDisputes.release.id} SPLIT`
      })
      expect(p.commandHash).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(p.commandHash).toBe(commandHash({
        bountyId: DemoBounties.release.id,
        disputeId: DemoDisputes.release.id,
        expectedVersion: 1,
        resolution: "SPLIT",
        unitsToProvider: 150000000n,
        unitsToClient: 100000000n,
        reason,
        network: DemoEscrow.network,
        contractAddress: DemoEscrow.contractAddress,
        walletPublicId: DemoEscrow.walletId
      }))
      // the EIP-712 digest of the payout in the escrow contract's domain (BountyEscrow, 1, chain 8453, the escrow)
      expect(p.decisionDigest).toBe(escrowDecisionDigest(8453, DemoEscrow.contractAddress, {
        bountyId: DemoBounties.release.id,
        disputeId: DemoDisputes.release.id,
        provider: DemoEscrow.payoutAddress,
        toProvider: 150000000n,
        toClient: 100000000n
      }))
      // a preview changes nothing and is repeatable
      expect(yield* readDispute("release")).toEqual({ disputeState: "OPEN", disputeVersion: 1, bountyState: "DISPUTED", bountyVersion: 3 })
      expect((yield* resolve(admin, "release", input)).body.data.commandHash).toBe(p.commandHash)
      // another input (reason) is another command
      expect((yield* resolve(admin, "release", { ...input, reason: `${reason} Agreed.` })).body.data.commandHash).not.toBe(p.commandHash)

      const key = randomUUID()
      const apply = { ...input, dryRun: false, approvedCommandHash: p.commandHash, confirmation: p.confirmation }
      const accepted = yield* resolve(admin, "release", apply, key)
      expect(accepted.status, accepted.text).toBe(202)
      const a = accepted.body.data
      expect(Object.keys(a).sort()).toEqual([
        "auditEventId", "bountyId", "bountyVersion", "commandHash", "commandId", "disputeId", "disputeVersion", "kind", "state",
        "transactionIntentId", "unitsToClient", "unitsToProvider"
      ])
      expect(a).toMatchObject({
        kind: "ACCEPTED",
        bountyId: DemoBounties.release.id,
        disputeId: DemoDisputes.release.id,
        commandHash: p.commandHash,
        bountyVersion: 4,
        disputeVersion: 2,
        state: "RELEASE_PENDING",
        unitsToProvider: "150000000",
        unitsToClient: "100000000"
      })
      expect(yield* readDispute("release")).toEqual({ disputeState: "RESOLVED", disputeVersion: 2, bountyState: "RELEASE_PENDING", bountyVersion: 4 })
      const sql = yield* SqlClient.SqlClient
      const [audit] = yield* sql<{ actor: string; action: string; subject: string; reason: string }>`
        SELECT actor_account_id AS actor, action, subject_id AS subject, reason FROM admin_audit_events WHERE id = ${a.auditEventId}`
      expect(audit).toEqual({ actor: DemoAccounts.admin.id, action: "Jobs_ResolveBountyDispute", subject: DemoDisputes.release.id, reason })
      // the escrow's payout: a PLATFORM intent calling resolve(decision, signature) on the escrow, signed by the arbiter
      const [intent] = yield* sql<{ network: string; signer: string; from: string; to: string; kind: string; purpose: string; call: unknown; typedData: unknown }>`
        SELECT network, signer, from_address AS "from", to_address AS "to", purpose_kind AS kind, purpose_id AS purpose, call,
          typed_data AS "typedData"
        FROM transaction_intents WHERE id = ${a.transactionIntentId}`
      expect(intent).toMatchObject({
        network: "eip155:8453",
        signer: "PLATFORM",
        from: arbiter,
        to: getAddress(DemoEscrow.contractAddress),
        kind: "bounty-escrow",
        purpose: DemoBounties.release.id
      })
      const decoded = (typeof intent!.call === "string" ? JSON.parse(intent!.call) : intent!.call) as { functionName: string; args: Array<any> }
      expect(decoded.functionName).toBe("resolve")
      expect(decoded.args[0]).toMatchObject({
        bountyId: escrowId(DemoBounties.release.id),
        disputeId: escrowId(DemoDisputes.release.id),
        toProvider: "150000000",
        toClient: "100000000"
      })
      const typedData = (typeof intent!.typedData === "string" ? JSON.parse(intent!.typedData) : intent!.typedData) as { primaryType: string; domain: unknown }
      expect(typedData).toMatchObject({
        primaryType: "Decision",
        domain: { name: "BountyEscrow", version: "1", chainId: 8453, verifyingContract: getAddress(DemoEscrow.contractAddress) }
      })
      expect(BountyEscrowAbi.some((item) => item.type === "function" && item.name === decoded.functionName)).toBe(true)
      const [command] = yield* sql<{ id: string; hash: string; provider: string; client: string }>`
        SELECT id, command_hash AS hash, units_to_provider::text AS provider, units_to_client::text AS client
        FROM dispute_resolutions WHERE dispute_id = ${DemoDisputes.release.id}`
      expect(command).toEqual({ id: a.commandId, hash: p.commandHash, provider: "150000000", client: "100000000" })

      // replay: same key, same body → the same answer, nothing applied twice
      const replay = yield* resolve(admin, "release", apply, key)
      expect(replay.status).toBe(202)
      expect(replay.body.data).toEqual(a)
      const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM admin_audit_events WHERE subject_id = ${DemoDisputes.release.id}`
      expect(n).toBe(1)
      // stale apply with a new key → 409 version-conflict; at the new version → 409 invalid-state (resolved)
      expectProblem(yield* resolve(admin, "release", apply), 409, "version-conflict")
      expectProblem(yield* resolve(admin, "release", { ...input, expectedVersion: 2 }), 409, "invalid-state")
      // the same key with another body → 409 idempotency-key-reuse
      expectProblem(yield* resolve(admin, "release", { ...apply, reason: `${reason} Other.` }, key), 409, "idempotency-key-reuse")
    }))

  it.effect("REFUND gives the whole escrow to the client: REFUND_PENDING", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const input = { resolution: "REFUND", unitsToProvider: "0", unitsToClient: "40000000", reason, expectedVersion: 1 }
      const p = (yield* resolve(admin, "refund", input)).body.data
      expect(p.kind).toBe("PREVIEW")
      const reply = yield* resolve(admin, "refund", { ...input, dryRun: false, approvedCommandHash: p.commandHash, confirmation: p.confirmation })
      expect(reply.status, reply.text).toBe(202)
      expect(reply.body.data).toMatchObject({ kind: "ACCEPTED", state: "REFUND_PENDING", bountyVersion: 5, disputeVersion: 2 })
      expect(yield* readDispute("refund")).toEqual({ disputeState: "RESOLVED", disputeVersion: 2, bountyState: "REFUND_PENDING", bountyVersion: 5 })
    }))

  it.effect("400: units rules per resolution and the escrowed total (bigint), strict body, approval fields", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      // the split dispute: escrow 1000000, dispute version 2
      const base = { resolution: "SPLIT", unitsToProvider: "600000", unitsToClient: "400000", reason, expectedVersion: 2 }
      expect((yield* resolve(admin, "split", base)).status).toBe(202)
      const unitsCases: Array<[Record<string, unknown>, string]> = [
        [{ resolution: "RELEASE", unitsToProvider: "600000", unitsToClient: "400000" }, "/unitsToClient"],
        [{ resolution: "REFUND", unitsToProvider: "1", unitsToClient: "999999" }, "/unitsToProvider"],
        [{ resolution: "SPLIT", unitsToProvider: "0", unitsToClient: "1000000" }, "/unitsToProvider"],
        [{ resolution: "SPLIT", unitsToProvider: "1000000", unitsToClient: "0" }, "/unitsToClient"],
        [{ resolution: "SPLIT", unitsToProvider: "600000", unitsToClient: "400001" }, "/unitsToProvider"],
        [{ resolution: "RELEASE", unitsToProvider: "999999999999999999999999999999", unitsToClient: "0" }, "/unitsToProvider"]
      ]
      for (const [change, pointer] of unitsCases) {
        const reply = yield* resolve(admin, "split", { ...base, ...change })
        expectProblem(reply, 400, "units-rule")
        expect(reply.body.errors[0].pointer).toBe(pointer)
      }
      const invalid: Array<Record<string, unknown>> = [
        { ...base, extra: true },
        { ...base, resolution: "HALVE" },
        { ...base, unitsToProvider: "0600000" },
        { ...base, unitsToProvider: 600000 },
        { ...base, reason: "too short" },
        { ...base, expectedVersion: 0 },
        { ...base, approvedCommandHash: "short" },
        { ...base, confirmation: "x".repeat(501) },
        { resolution: "SPLIT", unitsToProvider: "600000", unitsToClient: "400000", reason }
      ]
      for (const body of invalid) expectProblem(yield* resolve(admin, "split", body), 400, "invalid-request")
      expectProblem(yield* call("POST", pathOf("split"), { session: admin, body: base, idempotencyKey: null }), 400)
      const p = (yield* resolve(admin, "split", base)).body.data
      const apply = { ...base, dryRun: false, approvedCommandHash: p.commandHash, confirmation: p.confirmation }
      const { approvedCommandHash: _h, ...noHash } = apply
      expectProblem(yield* resolve(admin, "split", noHash), 400, "approval-required")
      const { confirmation: _c, ...noConfirmation } = apply
      expectProblem(yield* resolve(admin, "split", noConfirmation), 400, "approval-required")
      expectProblem(yield* resolve(admin, "split", { ...apply, confirmation: "yes" }), 400, "confirmation-mismatch")
      // an approved hash of other inputs → 409
      expectProblem(yield* resolve(admin, "split", { ...apply, approvedCommandHash: "A".repeat(43) }), 409, "command-hash-mismatch")
      expectProblem(yield* resolve(admin, "split", { ...apply, unitsToProvider: "500000", unitsToClient: "500000" }), 409, "command-hash-mismatch")
      expect(yield* readDispute("split")).toEqual({ disputeState: "OPEN", disputeVersion: 2, bountyState: "DISPUTED", bountyVersion: 2 })
    }))

  it.effect("404 for an unknown dispute or a dispute of another bounty; 409 for resolved, withdrawn and stale", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const body = { resolution: "RELEASE", unitsToProvider: "90000000", unitsToClient: "0", reason, expectedVersion: 2 }
      expectProblem(
        yield* call("POST", `/api/v1/admin/bounties/${DemoBounties.resolved.id}/disputes/${randomUUID()}/resolution`, { session: admin, body }),
        404,
        "dispute-not-found"
      )
      expectProblem(
        yield* call("POST", `/api/v1/admin/bounties/${DemoBounties.split.id}/disputes/${DemoDisputes.resolved.id}/resolution`, { session: admin, body }),
        404,
        "dispute-not-found"
      )
      expectProblem(yield* call("POST", "/api/v1/admin/bounties/nope/disputes/nope/resolution", { session: admin, body }), 400)
      expectProblem(yield* resolve(admin, "resolved", body), 409, "invalid-state")
      expectProblem(yield* resolve(admin, "withdrawn", { ...body, unitsToProvider: "15000000" }), 409, "invalid-state")
      expectProblem(yield* resolve(admin, "split", { ...body, unitsToProvider: "1000000", expectedVersion: 1 }), 409, "version-conflict")
    }))

  it.effect("503 escrow-unavailable on a network that is not configured, 409 on one that is not EVM: nothing applied", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const sql = yield* SqlClient.SqlClient
      const input = { resolution: "SPLIT", unitsToProvider: "600000", unitsToClient: "400000", reason, expectedVersion: 2 }
      yield* sql`UPDATE bounties SET escrow_network = 'eip155:1' WHERE id = ${DemoBounties.split.id}`
      const p = (yield* resolve(admin, "split", input)).body.data
      expect(p).toMatchObject({ kind: "PREVIEW", network: "eip155:1" })
      const apply = { ...input, dryRun: false, approvedCommandHash: p.commandHash, confirmation: p.confirmation }
      expectProblem(yield* resolve(admin, "split", apply), 503, "escrow-unavailable")
      expect(yield* readDispute("split")).toEqual({ disputeState: "OPEN", disputeVersion: 2, bountyState: "DISPUTED", bountyVersion: 2 })
      yield* sql`UPDATE bounties SET escrow_network = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' WHERE id = ${DemoBounties.split.id}`
      expectProblem(yield* resolve(admin, "split", input), 409, "invalid-state")
      yield* sql`UPDATE bounties SET escrow_network = ${DemoEscrow.network} WHERE id = ${DemoBounties.split.id}`
    }))

  it.effect("concurrent applies of one approved command with different keys: exactly one ACCEPTED, the rest 409", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin")
      const input = { resolution: "SPLIT", unitsToProvider: "600000", unitsToClient: "400000", reason, expectedVersion: 2 }
      const p = (yield* resolve(admin, "split", input)).body.data
      const apply = { ...input, dryRun: false, approvedCommandHash: p.commandHash, confirmation: p.confirmation }
      const replies = yield* Effect.all(Array.from({ length: 6 }, () => resolve(admin, "split", apply)), { concurrency: "unbounded" })
      expect(replies.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409, 409])
      for (const r of replies.filter((r) => r.status === 409)) expect(r.body.type).toMatch(/version-conflict|invalid-state$/)
      expect(yield* readDispute("split")).toEqual({ disputeState: "RESOLVED", disputeVersion: 3, bountyState: "RELEASE_PENDING", bountyVersion: 3 })
      const sql = yield* SqlClient.SqlClient
      const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM dispute_resolutions WHERE dispute_id = ${DemoDisputes.split.id}`
      expect(n).toBe(1)
      const [{ intents }] = yield* sql<{ intents: number }>`
        SELECT count(*)::int AS intents FROM transaction_intents WHERE purpose_kind = 'bounty-escrow' AND purpose_id = ${DemoBounties.split.id}`
      expect(intents).toBe(1)
    }))

  it.effect("401 without a session, 403 for a non-admin", () =>
    Effect.gen(function*() {
      const body = { resolution: "SPLIT", unitsToProvider: "600000", unitsToClient: "400000", reason, expectedVersion: 2 }
      expectProblem(yield* resolve(undefined, "split", body), 401)
      expectProblem(yield* resolve(yield* signIn("owner"), "split", body), 403, "admin-required")
    }))
})
