/**
 * A bounty's money on chain outside disputes (docs/bounties.md): the poster's funding intents
 * and the platform's payouts (an accepted delivery's release to the claimant, a refund to the
 * funder after a cancellation, an expiry or a rejection left undisputed), their outcomes, and
 * the `bounty.*` outbound events (layers/Events.ts) of every move, to the poster's workspace
 * and the claimant's.
 *
 * Every payout is the escrow's `resolve(decision, signature)` with `disputeId` zero, the decision
 * signed by the platform's arbiter (the same EIP-712 `Decision` as a dispute's resolution:
 * `Escrow.ts`), sent by the platform's sender, followed by the block watcher.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type Address, getAddress, parseEventLogs } from "viem"
import { PlatformSigner } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { emitEvent } from "../../../layers/Events.js"
import type { Ids } from "../../../layers/Ids.js"
import { type IntentEvent, type IntentOutcomeHandler, TransactionIntents } from "../../../layers/TransactionIntents.js"
import { InvalidState } from "../../../schema/errors.js"
import { EscrowUnavailable } from "./Errors.js"
import { BountyEscrowAbi, decisionTypedData, escrowId, evmChainId, NoDispute, NoProviderAddress } from "./Escrow.js"

/** The purpose kind of the poster's `fund` intent; its id is the bounty's. */
export const BountyFundingPurpose = "bounty-funding"
/** The purpose kind of the poster's ERC-20 `approve` intent that precedes the funding; its id is the bounty's. */
export const BountyApprovalPurpose = "bounty-funding-approval"
/** The purpose kind of a payout without a dispute (release on acceptance, refund); its id is the bounty's. */
export const BountyPayoutPurpose = "bounty-payout"

/**
 * Emits `bounty.<what>` about the bounty as it is now to its poster's workspace and, when it
 * has one, its claimant's, and `alsoTo` (once each): data `{bountyId, title, state, version, rewardUnits,
 * network, claimantWorkspaceId, claimantAgentId, ...extra}`. In the caller's transaction.
 */
export const bountyEvent = (
  bountyId: string,
  what: string,
  extra: Readonly<Record<string, unknown>> = {},
  alsoTo: ReadonlyArray<string> = []
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [b] = yield* sql<{
      workspaceId: string
      claimantWorkspaceId: string | null
      claimantAgentId: string | null
      title: string
      state: string
      version: number
      units: string
      network: string
    }>`SELECT workspace_id AS "workspaceId", claimant_workspace_id AS "claimantWorkspaceId", claimant_agent_id AS "claimantAgentId",
        title, state, version::float8 AS version, escrow_units::text AS units, escrow_network AS network
      FROM bounties WHERE id = ${bountyId}`.pipe(Effect.orDie)
    if (b === undefined) return
    const data = {
      bountyId,
      title: b.title,
      state: b.state,
      version: b.version,
      rewardUnits: b.units,
      network: b.network,
      claimantWorkspaceId: b.claimantWorkspaceId,
      claimantAgentId: b.claimantAgentId,
      ...extra
    }
    const to = [...new Set([b.workspaceId, ...(b.claimantWorkspaceId === null ? [] : [b.claimantWorkspaceId]), ...alsoTo])]
    for (const workspaceId of to) {
      yield* emitEvent({ workspaceId, kind: `bounty.${what}`, subjectId: bountyId, data })
    }
  })

/** What a payout pays: the whole escrow to the claimant's address (release) or back to the funder (refund). */
export interface Payout {
  readonly bountyId: string
  readonly workspaceId: string
  readonly network: string
  readonly contractAddress: string
  /** The claimant's payout address for a release; null for a refund. */
  readonly provider: string | null
  readonly toProvider: bigint
  readonly toClient: bigint
}

/**
 * Prepares the PLATFORM intent of a payout (purpose {@link BountyPayoutPurpose}): the decision
 * `{bountyId, disputeId: 0, provider, toProvider, toClient}` signed by the platform's arbiter, and
 * the escrow's `resolve` call carrying it. Fails with `EscrowUnavailable` (503: the network or the
 * signer is not configured), `InvalidState` (not an EVM network), `ChainRpcUnavailable` (503).
 */
export const preparePayout = (p: Payout) =>
  Effect.gen(function*() {
    const chainId = evmChainId(p.network)
    if (chainId === null) return yield* new InvalidState({ detail: "The bounty's escrow network is not an EVM network (eip155:<chain id>)." })
    const signer = yield* PlatformSigner
    const intents = yield* TransactionIntents
    const typedData = decisionTypedData(chainId, p.contractAddress, {
      bountyId: p.bountyId,
      disputeId: NoDispute,
      provider: p.provider ?? NoProviderAddress,
      toProvider: p.toProvider,
      toClient: p.toClient
    })
    const unavailable = (e: { readonly detail?: string | undefined }) => new EscrowUnavailable({ detail: e.detail ?? "" })
    const signature = yield* signer.signTypedData(typedData).pipe(Effect.mapError(unavailable))
    return yield* intents.prepare({
      network: p.network,
      signer: "PLATFORM",
      to: getAddress(p.contractAddress) as Address,
      abi: BountyEscrowAbi,
      functionName: "resolve",
      args: [typedData.message, signature],
      typedData,
      purpose: { kind: BountyPayoutPurpose, id: p.bountyId },
      workspaceId: p.workspaceId,
      ownerAccountId: null
    }).pipe(Effect.catchTag("ConfigurationMissing", (e) => Effect.fail(unavailable(e))))
  })

const failedStates = new Set(["FAILED", "REPLACED", "EXPIRED"])

/** The units the contract's `Resolved` event of this bounty paid, if the receipt has it. */
export const paidOnChain = (event: IntentEvent): { toProvider: bigint; toClient: bigint } | undefined => {
  if (event.receipt === null) return undefined
  const logs = parseEventLogs({ abi: BountyEscrowAbi, eventName: "Resolved", logs: event.receipt.logs, strict: false })
  const mine = logs.find((l) =>
    l.address.toLowerCase() === event.intent.to.toLowerCase() && l.args.bountyId === escrowId(event.purpose.id)
  )
  return mine && mine.args.toProvider !== undefined && mine.args.toClient !== undefined
    ? { toProvider: mine.args.toProvider, toClient: mine.args.toClient }
    : undefined
}

/**
 * The outcome of the poster's funding intent (purpose {@link BountyFundingPurpose}), applied once
 * in the transaction that moves the intent, and only for the bounty's current funding intent:
 * OBSERVED records the transaction hash (`fundingTransactionHash`); a reorganisation that drops
 * its block (SUBMITTED after OBSERVED) clears it; CONFIRMED (the network's depth) moves the
 * bounty FUNDING_PENDING → OPEN (`fundedAt`, version + 1, `bounty.funded`). A failed, expired
 * or replaced funding leaves it FUNDING_PENDING: the poster funds again.
 */
export const fundingOutcome: IntentOutcomeHandler = (event) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const id = event.purpose.id
    const hash = event.intent.transactionHash?.toLowerCase() ?? null
    if (event.state === "OBSERVED") {
      yield* sql`UPDATE bounties SET funding_reference = ${hash}, updated_at = ${at}
        WHERE id = ${id} AND funding_intent_id = ${event.intent.id} AND state = 'FUNDING_PENDING'`
    } else if (event.state === "SUBMITTED") {
      yield* sql`UPDATE bounties SET funding_reference = NULL, updated_at = ${at}
        WHERE id = ${id} AND funding_intent_id = ${event.intent.id} AND state = 'FUNDING_PENDING'`
    } else if (event.state === "CONFIRMED") {
      const moved = yield* sql`UPDATE bounties SET state = 'OPEN', funded_at = ${at}, funding_reference = ${hash},
          updated_at = ${at}, version = version + 1
        WHERE id = ${id} AND funding_intent_id = ${event.intent.id} AND state = 'FUNDING_PENDING' RETURNING id`
      if (moved.length > 0) yield* bountyEvent(id, "funded", { transactionHash: hash })
      else yield* Effect.logWarning("a bounty funding confirmed for a bounty no longer waiting for it", { bountyId: id })
    }
  }).pipe(Effect.orDie)

/**
 * The outcome of a payout intent (purpose {@link BountyPayoutPurpose}), applied once: CONFIRMED
 * moves the bounty RELEASE_PENDING → RELEASED or REFUND_PENDING → REFUNDED (units paid to each
 * side from the contract's `Resolved` event, `settledAt`, `closedAt`, version + 1,
 * `bounty.released` / `bounty.refunded`). A failed payout leaves the bounty pending; the
 * intent shows why (docs/escrow.md, "When the payout failed").
 */
export const payoutOutcome: IntentOutcomeHandler = (event) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    const id = event.purpose.id
    if (failedStates.has(event.state)) {
      return yield* Effect.logWarning("a bounty payout failed", { bountyId: id, failureCode: event.intent.failureCode ?? event.state })
    }
    if (event.state !== "CONFIRMED") return
    const [b] = yield* sql<{ units: string; state: string }>`SELECT escrow_units::text AS units, state FROM bounties
      WHERE id = ${id} AND payout_intent_id = ${event.intent.id}`
    if (b === undefined) return
    const paid = paidOnChain(event) ??
      (b.state === "RELEASE_PENDING" ? { toProvider: BigInt(b.units), toClient: 0n } : { toProvider: 0n, toClient: BigInt(b.units) })
    const state = paid.toProvider > 0n ? "RELEASED" : "REFUNDED"
    const moved = yield* sql`UPDATE bounties SET state = ${state}, units_to_provider = ${paid.toProvider.toString()},
        units_to_client = ${paid.toClient.toString()}, settled_at = ${at}, closed_at = ${at}, updated_at = ${at}, version = version + 1
      WHERE id = ${id} AND state IN ('RELEASE_PENDING', 'REFUND_PENDING') RETURNING id`
    if (moved.length > 0) {
      yield* bountyEvent(id, state.toLowerCase(), {
        unitsToProvider: paid.toProvider.toString(),
        unitsToClient: paid.toClient.toString(),
        transactionHash: event.intent.transactionHash
      })
    }
  }).pipe(Effect.orDie)

/** Requirements of {@link preparePayout}. */
export type PayoutNeeds = SqlClient.SqlClient | Ids | TransactionIntents | PlatformSigner
