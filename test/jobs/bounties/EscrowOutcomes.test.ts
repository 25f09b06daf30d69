/**
 * The bounties area's outcome handler of escrow intents (src/jobs/bounties/EscrowOutcomes.ts),
 * on the demo database with events as the intents service and the block watcher give them:
 * SUBMITTED records the hash, FAILED records the failure and keeps the bounty pending,
 * CONFIRMED moves the bounty to REFUNDED / RELEASED with the units paid (the contract's
 * `Resolved` event when the receipt has it), and a repeated event changes nothing.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { encodeAbiParameters, encodeEventTopics, type Hex, type TransactionReceipt } from "viem"
import { demoId } from "../../../demo/common.js"
import { DemoBounties, DemoDisputes, DemoEscrow } from "../../../demo/jobs/bounties/seed.js"
import { DemoWorkspaces } from "../../../demo/workspaces/seed.js"
import { IdsSequence } from "../../../layers/Ids.js"
import type { IntentEvent } from "../../../layers/TransactionIntents.js"
import type { TransactionIntent, TransactionIntentState } from "../../../schema/transactionIntents.js"
import { areas } from "../../../src/areas.js"
import { BountyEscrowAbi, escrowId } from "../../../src/jobs/bounties/Escrow.js"
import { BountyEscrowPurpose, bountyEscrowOutcome } from "../../../src/jobs/bounties/EscrowOutcomes.js"
import { makeTestServer } from "../../support/TestServer.js"

const server = makeTestServer()
const hash = `0x${"ab".repeat(32)}` as Hex

const intentOf = (id: string, state: TransactionIntentState, failureCode: string | null = null): TransactionIntent => ({
  id,
  network: DemoEscrow.network,
  state,
  signer: "PLATFORM",
  from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  to: DemoEscrow.contractAddress,
  data: "0x",
  call: { functionName: "resolve", signature: "resolve((bytes32,bytes32,uint256,uint256),bytes)", args: [] },
  value: 0n,
  fees: { gasLimit: 100000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
  nonce: 0,
  typedData: null,
  transactionHash: state === "PREPARED" ? null : hash,
  blockNumber: null,
  blockHash: null,
  explorerUrl: null,
  failureCode,
  expiresAt: new Date(),
  createdAt: new Date(),
  submittedAt: null,
  observedAt: null,
  confirmedAt: null,
  updatedAt: new Date(),
  version: 1
} as unknown as TransactionIntent)

const event = (bountyId: string, intentId: string, state: TransactionIntentState, extra: Partial<IntentEvent> = {}): IntentEvent => ({
  intent: intentOf(intentId, state, state === "FAILED" ? "reverted" : null),
  purpose: { kind: BountyEscrowPurpose, id: bountyId },
  state,
  receipt: null,
  ...extra
})

// each call its own id sequence: a move's outbound events take ids from it
let calls = 0
const handle = (e: IntentEvent) =>
  Effect.suspend(() => bountyEscrowOutcome(e).pipe(Effect.provide(IdsSequence(`00000e${(calls += 1).toString(16).padStart(2, "0")}`))))

const readBounty = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ state: string; version: number; toProvider: string | null; toClient: string | null; settled: boolean }>`
      SELECT state, version::int AS version, units_to_provider::text AS "toProvider", units_to_client::text AS "toClient",
        settled_at IS NOT NULL AS settled
      FROM bounties WHERE id = ${id}`
    return row!
  })
const readResolution = (disputeId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ outcome: string | null; failureCode: string | null; hash: string | null }>`
      SELECT escrow_outcome AS outcome, failure_code AS "failureCode", transaction_hash AS hash
      FROM dispute_resolutions WHERE dispute_id = ${disputeId}`
    return row!
  })

layer(server.layer)("bounty escrow outcomes", (it) => {
  it("the bounties area registers the handler for its purpose kind", () => {
    const bounties = areas.find((a) => a.name === "jobs/bounties") as { intentOutcomes?: Record<string, unknown> }
    expect(bounties.intentOutcomes?.[BountyEscrowPurpose]).toBe(bountyEscrowOutcome)
  })

  it.effect("refund: SUBMITTED records the hash, FAILED keeps the bounty pending, CONFIRMED → REFUNDED once", () =>
    Effect.gen(function*() {
      // the demo's resolved dispute: REFUND of 90000000, its intent id
      const bountyId = DemoBounties.resolved.id
      const intentId = demoId(0x94, 2)
      const before = yield* readBounty(bountyId)
      expect(before).toMatchObject({ state: "REFUND_PENDING", toProvider: null, toClient: null, settled: false })

      yield* handle(event(bountyId, intentId, "SUBMITTED"))
      expect(yield* readResolution(DemoDisputes.resolved.id)).toEqual({ outcome: "SUBMITTED", failureCode: null, hash })
      yield* handle(event(bountyId, intentId, "FAILED"))
      expect(yield* readResolution(DemoDisputes.resolved.id)).toEqual({ outcome: "FAILED", failureCode: "reverted", hash })
      expect(yield* readBounty(bountyId)).toEqual(before)
      // an event of another bounty's purpose, or of an unknown intent, changes nothing
      yield* handle(event(DemoBounties.split.id, intentId, "CONFIRMED"))
      yield* handle(event(bountyId, randomUUID(), "CONFIRMED"))
      expect(yield* readBounty(bountyId)).toEqual(before)

      yield* handle(event(bountyId, intentId, "CONFIRMED"))
      const after = yield* readBounty(bountyId)
      expect(after).toEqual({ state: "REFUNDED", version: before.version + 1, toProvider: "0", toClient: "90000000", settled: true })
      expect(yield* readResolution(DemoDisputes.resolved.id)).toEqual({ outcome: "CONFIRMED", failureCode: null, hash })
      // repeated, or a late failure: nothing moves
      yield* handle(event(bountyId, intentId, "CONFIRMED"))
      yield* handle(event(bountyId, intentId, "FAILED"))
      yield* handle(event(bountyId, intentId, "SUBMITTED"))
      expect(yield* readBounty(bountyId)).toEqual(after)
      expect((yield* readResolution(DemoDisputes.resolved.id)).outcome).toBe("CONFIRMED")
    }))

  it.effect("split: CONFIRMED → RELEASED with the units of the contract's Resolved event", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const bountyId = DemoBounties.split.id
      const intentId = randomUUID()
      const auditId = randomUUID()
      // an accepted SPLIT of the split bounty (escrow 1000000), as Jobs_ResolveBountyDispute records it
      yield* sql`UPDATE bounties SET state = 'RELEASE_PENDING', version = version + 1 WHERE id = ${bountyId}`
      yield* sql`UPDATE bounty_disputes SET state = 'RESOLVED' WHERE id = ${DemoDisputes.split.id}`
      yield* sql`INSERT INTO admin_audit_events (id, actor_account_id, action, subject_kind, subject_id, reason, detail, created_at)
                 SELECT ${auditId}, actor_account_id, action, subject_kind, ${DemoDisputes.split.id}, reason, detail, created_at
                 FROM admin_audit_events WHERE id = ${demoId(0x94, 1)}`
      yield* sql`INSERT INTO dispute_resolutions (id, dispute_id, bounty_id, command_hash, decision_digest, resolution,
                   units_to_provider, units_to_client, state, audit_event_id, transaction_intent_id, created_at)
                 VALUES (${randomUUID()}, ${DemoDisputes.split.id}, ${bountyId}, 'h', 'd', 'SPLIT', 600000, 400000,
                   'RELEASE_PENDING', ${auditId}, ${intentId}, now())`
      const before = yield* readBounty(bountyId)
      const disputeId = escrowId(DemoDisputes.split.id)
      const log = {
        address: DemoEscrow.contractAddress,
        topics: encodeEventTopics({
          abi: BountyEscrowAbi,
          eventName: "Resolved",
          args: { bountyId: escrowId(bountyId), disputeId, arbiter: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }
        }),
        data: encodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "uint256" }], [DemoEscrow.payoutAddress, 600000n, 400000n]),
        blockNumber: 7n,
        blockHash: hash,
        logIndex: 0,
        transactionHash: hash,
        transactionIndex: 0,
        removed: false
      }
      const receipt = { status: "success", logs: [log] } as unknown as TransactionReceipt
      yield* handle(event(bountyId, intentId, "OBSERVED", { receipt }))
      expect(yield* readResolution(DemoDisputes.split.id)).toEqual({ outcome: "SUBMITTED", failureCode: null, hash })
      yield* handle(event(bountyId, intentId, "CONFIRMED", { receipt }))
      expect(yield* readBounty(bountyId)).toEqual({
        state: "RELEASED", version: before.version + 1, toProvider: "600000", toClient: "400000", settled: true
      })
      expect(yield* readResolution(DemoDisputes.split.id)).toEqual({ outcome: "CONFIRMED", failureCode: null, hash })
      // the move is told to the poster's and the claimant's workspaces
      const told = yield* sql<{ workspaceId: string; kind: string; data: { unitsToProvider: string } | string }>`
        SELECT workspace_id AS "workspaceId", kind, data FROM events WHERE subject_id = ${bountyId} ORDER BY workspace_id`
      expect(told.map((e) => [e.workspaceId, e.kind])).toEqual([
        [DemoWorkspaces.acme.id, "bounty.released"],
        [DemoWorkspaces.outsider.id, "bounty.released"]
      ].sort())
    }))
})
