/**
 * Bounties from posting to payout (docs/bounties.md): a workspace posts a bounty, funds its
 * escrow from its wallet, an agent's workspace claims it (one claim at a time) and delivers,
 * the poster accepts (the escrow pays the claimant's payout address) or rejects; either side may
 * dispute within the window, and the admin resolution pays out. Every move is one conditional
 * UPDATE at the caller's `expectedVersion` (version + 1) with its `bounty.*` event, in the
 * request's transaction; the moves of time are `Lifecycle.ts`'s.
 *
 * Who sees a bounty: anyone signed in while it is OPEN (so an agent's workspace can find and
 * claim it); the members of its poster's and claimant's workspaces in every state.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { type Address, erc20Abi, getAddress } from "viem"
import { Chain, PlatformSigner } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { Cursor } from "../../../layers/Cursor.js"
import { Ids } from "../../../layers/Ids.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import {
  ChainRpcUnavailable,
  Conflict,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import { can, type Permission, rolesInWords } from "../../../schema/roles.js"
import type { TransactionIntent } from "../../../schema/transactionIntents.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { markAgentEvidence } from "../../trust/index.js"
import { BountySettings } from "./Config.js"
import { BountyNotFound, EscrowUnavailable, FunderWalletRequired, PayoutWalletRequired } from "./Errors.js"
import { BountyEscrowAbi, escrowId } from "./Escrow.js"
import { BountyApprovalPurpose, bountyEvent, BountyFundingPurpose, preparePayout } from "./Payouts.js"
import type { Bounty, CreateBountyRequest, SubmitBountyDeliveryRequest } from "./Schemas.js"
import { type BountyAccess, BountyPosition, makeWorkRepo } from "./WorkRepo.js"

const HourMs = 3_600_000

const bodyProblem = (pointer: string, detail: string) =>
  new InvalidRequest({ detail: `${pointer.slice(1)} ${detail}.`, errors: [{ in: "body", pointer, detail }] })

/** Which side of a bounty a command acts for. */
type Side = "poster" | "claimant"

/**
 * Bounties. Requires `SqlClient`, `Ids`, `Cursor`, `TransactionIntents`, `PlatformSigner`,
 * `Chain` and `BountySettings`.
 */
export class Bounties extends Effect.Service<Bounties>()("agent-directory/Bounties", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const cursor = yield* Cursor
    const intents = yield* TransactionIntents
    const signer = yield* PlatformSigner
    const chain = yield* Chain
    const settings = yield* BountySettings
    const repo = yield* makeWorkRepo

    const provide = <A, E>(self: Effect.Effect<A, E, SqlClient.SqlClient | Ids | TransactionIntents | PlatformSigner>) =>
      self.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provideService(Ids, ids),
        Effect.provideService(TransactionIntents, intents),
        Effect.provideService(PlatformSigner, signer)
      )

    const notFound = (id: string) => new BountyNotFound({ detail: `No bounty ${id} the caller may see.` })

    const wire = (id: string): Effect.Effect<Bounty> => Effect.map(repo.view(id), Option.getOrThrow)

    /**
     * Loads the bounty for a command by `side` with `permission`, locked; refuses in the
     * versioned-command order: 404 (absent, or the caller is not a member of that side's
     * workspace), 403 `role-required`, 409 `version-conflict`, 409 `invalid-state`.
     */
    const load = (input: {
      readonly id: string
      readonly accountId: string
      readonly sides: ReadonlyArray<Side>
      readonly permission: Record<Side, Permission>
      readonly expectedVersion: number
      readonly fromStates: ReadonlyArray<string>
      readonly verb: string
    }) =>
      Effect.gen(function*() {
        const found = yield* repo.access(input.id, input.accountId, true)
        if (Option.isNone(found)) return yield* notFound(input.id)
        const b = found.value
        const roleOf = (side: Side) => side === "poster" ? b.posterRole : b.claimantRole
        const member = input.sides.filter((s) => roleOf(s) !== null)
        if (member.length === 0) return yield* notFound(input.id)
        const acting = member.find((s) => can(roleOf(s)!, input.permission[s]))
        if (acting === undefined) {
          const side = member[0]!
          return yield* new RoleRequired({ detail: `To ${input.verb} a bounty needs ${rolesInWords(input.permission[side])}.` })
        }
        if (b.version !== input.expectedVersion) {
          return yield* new VersionConflict({ detail: `The bounty is at version ${b.version}, not ${input.expectedVersion}; reload it.` })
        }
        if (!input.fromStates.includes(b.state)) {
          return yield* new InvalidState({ detail: `A bounty in state ${b.state} cannot ${input.verb}.` })
        }
        return { bounty: b, side: acting }
      })

    /** Applies one move at the loaded version (the row is locked: it cannot fail but on a storage error). */
    const move = (b: BountyAccess, set: Statement.Fragment) =>
      Effect.gen(function*() {
        const rows = yield* sql`UPDATE bounties SET ${set}, version = version + 1
          WHERE id = ${b.id} AND version = ${b.version} RETURNING id`
        if (rows.length === 0) return yield* new Conflict({ detail: "The bounty changed meanwhile; reload it and retry." })
      })

    /**
     * Jobs_CreateBounty: a bounty of workspace `workspaceId` (the caller needs `bounties.post`
     * there), FUNDING_PENDING at version 1, escrowed in the network's configured `bountyEscrow`
     * contract. Fails with `WorkspaceNotFound`, `RoleRequired`, `InvalidRequest` (the asset is not
     * one of the network's, the deadline is not in the future), `ConfigurationMissing` (no
     * escrow contract is configured on the network).
     */
    const create = (input: { readonly body: CreateBountyRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { body } = input
        const workspaceId = body.workspaceId.toLowerCase()
        const role = yield* repo.memberRole(workspaceId, input.accountId)
        if (Option.isNone(role)) return yield* new WorkspaceNotFound({ detail: `No workspace ${body.workspaceId}.` })
        if (!can(role.value, "bounties.post")) {
          return yield* new RoleRequired({ detail: `Posting a bounty needs ${rolesInWords("bounties.post")}.` })
        }
        if (body.rewardUnits === 0n) return yield* bodyProblem("/rewardUnits", "must be positive")
        const at = yield* now
        if (body.deadline.getTime() <= at.getTime()) return yield* bodyProblem("/deadline", "must be in the future")
        const asset = yield* repo.assetOn(body.asset, body.network)
        if (Option.isNone(asset)) return yield* bodyProblem("/asset", "must be an asset of the network `network`")
        if (!/^eip155:[0-9]+\/erc20:0x[0-9a-fA-F]{40}$/.test(body.asset)) {
          return yield* bodyProblem("/asset", "must be an ERC-20 token of an EVM network (eip155:<chain id>/erc20:0x…)")
        }
        const contract = yield* Effect.either(chain.contract(body.network, "bountyEscrow"))
        if (contract._tag === "Left") return yield* contract.left
        const id = yield* ids.next
        const arr = (values: ReadonlyArray<string>) => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`
        yield* sql`INSERT INTO bounties (id, workspace_id, title, description, acceptance_criteria, state, asset_id, escrow_units,
            escrow_network, escrow_contract_address, escrow_wallet_id, required_skills, required_protocols, deadline_at,
            posted_by_account_id, version, created_at, updated_at)
          VALUES (${id}, ${workspaceId}, ${body.title}, ${body.description}, ${body.acceptanceCriteria}, 'FUNDING_PENDING',
            ${asset.value.assetId}, ${body.rewardUnits.toString()}, ${body.network}, ${getAddress(contract.right)}, NULL,
            ${arr(body.requiredSkills)}, ${arr(body.requiredProtocols)}, ${body.deadline}, ${input.accountId}, 1, ${at}, ${at})`
        yield* provide(bountyEvent(id, "created"))
        return yield* wire(id)
      }).pipe(dieOnStorageFailure)

    /** Jobs_GetBounty (see the module docs for who sees what). */
    const get = (input: { readonly id: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const found = yield* repo.access(input.id.toLowerCase(), input.accountId)
        if (Option.isNone(found)) return yield* notFound(input.id)
        const b = found.value
        if (b.state !== "OPEN" && b.posterRole === null && b.claimantRole === null) return yield* notFound(input.id)
        return yield* wire(b.id)
      })

    /**
     * Jobs_FundBounty: the OWNER transaction intents that fund the escrow from the poster's
     * wallet on the bounty's network (`funderAddress`, else the workspace's latest registered
     * one): an ERC-20 `approve(escrow, units)` when the wallet's allowance to the escrow is short
     * (nonce n), then the escrow's `fund(bountyId, token, units)` (nonce n + 1). The bounty stays
     * FUNDING_PENDING (version + 1: the funding intents are recorded on it) until the watcher
     * confirms the funding. Fails as `load`, or `FunderWalletRequired`, `InvalidState` (a funding
     * transaction is already in flight), `ChainRpcUnavailable`, `EscrowUnavailable`.
     */
    const fund = (input: {
      readonly id: string
      readonly accountId: string
      readonly expectedVersion: number
      readonly funderAddress: string | undefined
    }) =>
      Effect.gen(function*() {
        const { bounty: b } = yield* load({
          id: input.id,
          accountId: input.accountId,
          sides: ["poster"],
          permission: { poster: "bounties.post", claimant: "bounties.post" },
          expectedVersion: input.expectedVersion,
          fromStates: ["FUNDING_PENDING"],
          verb: "fund"
        })
        if (b.fundingIntentId !== null) {
          const current = yield* intents.find(b.fundingIntentId)
          if (current !== undefined && ["SUBMITTED", "OBSERVED", "CONFIRMED"].includes(current.state)) {
            return yield* new InvalidState({ detail: "The bounty's funding transaction is on its way; wait for its outcome." })
          }
        }
        const client = yield* chain.client(b.network).pipe(Effect.mapError((e) => new EscrowUnavailable({ detail: e.detail })))
        if (b.token === null) return yield* new InvalidState({ detail: "The bounty's asset is not an ERC-20 token." })
        const wallet = yield* repo.workspaceWallet(b.workspaceId, b.networkId, input.funderAddress)
        if (Option.isNone(wallet)) {
          return yield* new FunderWalletRequired({
            detail: "The poster's workspace has no wallet registered on the bounty's network" +
              (input.funderAddress === undefined ? "." : " with the address `funderAddress`.")
          })
        }
        const from = getAddress(wallet.value.address) as Address
        const token = getAddress(b.token) as Address
        const escrow = getAddress(b.contractAddress) as Address
        const unavailable = () => new ChainRpcUnavailable({ detail: `The JSON-RPC endpoint of ${b.network} did not answer; retry later.` })
        const allowance = yield* Effect.tryPromise({
          try: () => client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [from, escrow] }),
          catch: unavailable
        })
        const nonce = yield* Effect.tryPromise({ try: () => client.getTransactionCount({ address: from, blockTag: "pending" }), catch: unavailable })
        const prepared: Array<TransactionIntent> = []
        const common = { network: b.network, signer: "OWNER" as const, from, workspaceId: b.workspaceId, ownerAccountId: input.accountId }
        if (allowance < b.units) {
          prepared.push(
            yield* provide(intents.prepare({
              ...common,
              to: token,
              abi: erc20Abi,
              functionName: "approve",
              args: [escrow, b.units],
              nonce,
              purpose: { kind: BountyApprovalPurpose, id: b.id }
            }))
          )
        }
        const funding = yield* provide(intents.prepare({
          ...common,
          to: escrow,
          abi: BountyEscrowAbi,
          functionName: "fund",
          args: [escrowId(b.id), token, b.units],
          nonce: nonce + prepared.length,
          purpose: { kind: BountyFundingPurpose, id: b.id }
        }))
        prepared.push(funding)
        const at = yield* now
        yield* move(b, sql`funding_intent_id = ${funding.id}, approval_intent_id = ${prepared.length > 1 ? prepared[0]!.id : null},
          escrow_wallet_id = ${wallet.value.id}, funding_reference = NULL, updated_at = ${at}`)
        return { bounty: yield* wire(b.id), transactionIntents: prepared }
      }).pipe(
        Effect.catchTag("ConfigurationMissing", (e) => Effect.fail(new EscrowUnavailable({ detail: e.detail }))),
        dieOnStorageFailure
      )

    /**
     * Jobs_ClaimBounty: agent `agentId`'s workspace (the caller needs `bounties.claim` there)
     * claims an OPEN bounty: CLAIMED, `claim` = the workspace, the agent, its payout address (the
     * workspace's latest wallet registered on the bounty's network) and `deliveryDueAt` (now +
     * `BOUNTY_DELIVERY_HOURS`). One claim at a time: of concurrent claims at one version, one wins
     * and the others meet 409 `version-conflict`. The poster's own workspace cannot claim.
     */
    const claim = (input: { readonly id: string; readonly accountId: string; readonly expectedVersion: number; readonly agentId: string }) =>
      Effect.gen(function*() {
        const agentWorkspace = yield* repo.agentWorkspace(input.agentId.toLowerCase())
        if (Option.isNone(agentWorkspace) || agentWorkspace.value === null) {
          return yield* bodyProblem("/agentId", "must be an agent operated by a workspace of the caller's")
        }
        const workspaceId = agentWorkspace.value
        const role = yield* repo.memberRole(workspaceId, input.accountId)
        if (Option.isNone(role)) return yield* bodyProblem("/agentId", "must be an agent operated by a workspace of the caller's")
        if (!can(role.value, "bounties.claim")) {
          return yield* new RoleRequired({ detail: `Claiming a bounty needs ${rolesInWords("bounties.claim")} in the agent's workspace.` })
        }
        const found = yield* repo.access(input.id.toLowerCase(), input.accountId, true)
        if (Option.isNone(found)) return yield* notFound(input.id)
        const b = found.value
        if (b.state !== "OPEN" && b.posterRole === null && b.claimantRole === null) return yield* notFound(input.id)
        if (b.version !== input.expectedVersion) {
          return yield* new VersionConflict({ detail: `The bounty is at version ${b.version}, not ${input.expectedVersion}; reload it.` })
        }
        if (b.state !== "OPEN") return yield* new InvalidState({ detail: `A bounty in state ${b.state} cannot be claimed.` })
        if (b.workspaceId === workspaceId) return yield* new InvalidState({ detail: "The poster's own workspace cannot claim its bounty." })
        const wallet = yield* repo.workspaceWallet(workspaceId, b.networkId)
        if (Option.isNone(wallet)) {
          return yield* new PayoutWalletRequired({
            detail: "The agent's workspace has no wallet registered on the bounty's network to be paid to (Wallets_RegisterWallet)."
          })
        }
        const at = yield* now
        const due = new Date(at.getTime() + settings.bounties.deliveryHours * HourMs)
        yield* move(b, sql`state = 'CLAIMED', claimant_workspace_id = ${workspaceId}, claimant_agent_id = ${input.agentId.toLowerCase()},
          claimed_at = ${at}, delivery_due_at = ${due}, payout_address = ${getAddress(wallet.value.address)},
          claim_count = claim_count + 1, delivery = NULL, submitted_at = NULL, rejection_reasons = NULL, rejected_at = NULL,
          updated_at = ${at}`)
        yield* provide(bountyEvent(b.id, "claimed"))
        return yield* wire(b.id)
      }).pipe(dieOnStorageFailure)

    /**
     * Jobs_SubmitBountyDelivery: the claimant (`bounties.claim`) delivers: CLAIMED → SUBMITTED
     * with the message, links and artifacts (by SHA-256). Past `deliveryDueAt` it is 409
     * `invalid-state` (the claim is being released).
     */
    const submit = (input: { readonly id: string; readonly accountId: string; readonly body: SubmitBountyDeliveryRequest }) =>
      Effect.gen(function*() {
        const { bounty: b } = yield* load({
          id: input.id,
          accountId: input.accountId,
          sides: ["claimant"],
          permission: { poster: "bounties.claim", claimant: "bounties.claim" },
          expectedVersion: input.body.expectedVersion,
          fromStates: ["CLAIMED"],
          verb: "take a delivery"
        })
        const at = yield* now
        if (b.deliveryDueAt !== null && b.deliveryDueAt.getTime() <= at.getTime()) {
          return yield* new InvalidState({ detail: "The claim's delivery window has closed." })
        }
        const delivery = { message: input.body.message, links: input.body.links, artifacts: input.body.artifacts }
        yield* move(b, sql`state = 'SUBMITTED', delivery = ${JSON.stringify(delivery)}::jsonb, submitted_at = ${at}, updated_at = ${at}`)
        yield* provide(bountyEvent(b.id, "submitted"))
        return yield* wire(b.id)
      }).pipe(dieOnStorageFailure)

    /**
     * Jobs_AcceptBountyDelivery: the poster (`bounties.post`) accepts a SUBMITTED delivery:
     * RELEASE_PENDING (`acceptedAt`), and the platform's payout intent releasing the whole escrow
     * to the claim's payout address; RELEASED once the watcher confirms it.
     */
    const accept = (input: { readonly id: string; readonly accountId: string; readonly expectedVersion: number }) =>
      Effect.gen(function*() {
        const { bounty: b } = yield* load({
          id: input.id,
          accountId: input.accountId,
          sides: ["poster"],
          permission: { poster: "bounties.post", claimant: "bounties.post" },
          expectedVersion: input.expectedVersion,
          fromStates: ["SUBMITTED"],
          verb: "be accepted"
        })
        const intent = yield* provide(preparePayout({
          bountyId: b.id,
          workspaceId: b.workspaceId,
          network: b.network,
          contractAddress: b.contractAddress,
          provider: b.payoutAddress,
          toProvider: b.units,
          toClient: 0n
        }))
        const at = yield* now
        yield* move(b, sql`state = 'RELEASE_PENDING', accepted_at = ${at}, payout_intent_id = ${intent.id}, updated_at = ${at}`)
        // an accepted delivery is work evidence of the claimant's agent (its delivery time, docs/methodology.md)
        if (b.claimantAgentId !== null) yield* provide(markAgentEvidence(b.claimantAgentId, at))
        yield* provide(bountyEvent(b.id, "accepted", { transactionIntentId: intent.id }))
        return yield* wire(b.id)
      }).pipe(dieOnStorageFailure)

    /** Jobs_RejectBountyDelivery: the poster (`bounties.post`) rejects a SUBMITTED delivery with reasons: REJECTED. */
    const reject = (input: {
      readonly id: string
      readonly accountId: string
      readonly expectedVersion: number
      readonly reasons: ReadonlyArray<string>
    }) =>
      Effect.gen(function*() {
        const { bounty: b } = yield* load({
          id: input.id,
          accountId: input.accountId,
          sides: ["poster"],
          permission: { poster: "bounties.post", claimant: "bounties.post" },
          expectedVersion: input.expectedVersion,
          fromStates: ["SUBMITTED"],
          verb: "be rejected"
        })
        const at = yield* now
        yield* move(b, sql`state = 'REJECTED', rejection_reasons = ${JSON.stringify(input.reasons)}::jsonb, rejected_at = ${at},
          updated_at = ${at}`)
        yield* provide(bountyEvent(b.id, "rejected", { reasons: input.reasons }))
        return yield* wire(b.id)
      }).pipe(dieOnStorageFailure)

    /**
     * Jobs_OpenBountyDispute: the poster (`bounties.post`) or the claimant (`bounties.claim`)
     * disputes a SUBMITTED or REJECTED bounty within `BOUNTY_DISPUTE_WINDOW_HOURS` of the
     * submission (SUBMITTED) or the rejection (REJECTED): DISPUTED, with an OPEN dispute
     * (version 1) for the admin resolution. Past the window: 409 `invalid-state`.
     */
    const dispute = (input: { readonly id: string; readonly accountId: string; readonly expectedVersion: number; readonly reason: string }) =>
      Effect.gen(function*() {
        const { bounty: b, side } = yield* load({
          id: input.id,
          accountId: input.accountId,
          sides: ["poster", "claimant"],
          permission: { poster: "bounties.post", claimant: "bounties.claim" },
          expectedVersion: input.expectedVersion,
          fromStates: ["SUBMITTED", "REJECTED"],
          verb: "be disputed"
        })
        const at = yield* now
        const since = b.state === "REJECTED" ? b.rejectedAt : b.submittedAt
        if (since !== null && since.getTime() + settings.bounties.disputeWindowHours * HourMs <= at.getTime()) {
          return yield* new InvalidState({ detail: "The bounty's dispute window has closed." })
        }
        const disputeId = yield* ids.next
        yield* sql`INSERT INTO bounty_disputes (id, bounty_id, state, opened_reason, version, created_at, updated_at, opened_by_workspace_id)
          VALUES (${disputeId}, ${b.id}, 'OPEN', ${input.reason}, 1, ${at}, ${at},
            ${side === "poster" ? b.workspaceId : b.claimantWorkspaceId})`
        yield* move(b, sql`state = 'DISPUTED', disputed_at = ${at}, updated_at = ${at}`)
        yield* provide(bountyEvent(b.id, "disputed", { disputeId, openedBy: side === "poster" ? "POSTER" : "CLAIMANT" }))
        return yield* wire(b.id)
      }).pipe(dieOnStorageFailure)

    /**
     * Jobs_CancelBounty: the poster (`bounties.post`) cancels before any claim: FUNDING_PENDING →
     * CANCELLED (an unsigned funding intent is expired with it; a funding already sent is 409
     * `invalid-state`: wait for it), OPEN → REFUND_PENDING with the platform's refund intent
     * (REFUNDED once confirmed). Emits `bounty.cancelled`.
     */
    const cancel = (input: { readonly id: string; readonly accountId: string; readonly expectedVersion: number }) =>
      Effect.gen(function*() {
        const { bounty: b } = yield* load({
          id: input.id,
          accountId: input.accountId,
          sides: ["poster"],
          permission: { poster: "bounties.post", claimant: "bounties.post" },
          expectedVersion: input.expectedVersion,
          fromStates: ["FUNDING_PENDING", "OPEN"],
          verb: "be cancelled"
        })
        const at = yield* now
        if (b.state === "FUNDING_PENDING") {
          if (b.fundingIntentId !== null) {
            const current = yield* intents.find(b.fundingIntentId)
            if (current !== undefined && ["SUBMITTED", "OBSERVED", "CONFIRMED"].includes(current.state)) {
              return yield* new InvalidState({ detail: "The bounty's funding transaction is on its way; cancel once it is confirmed." })
            }
          }
          // the poster's unsigned intents can no longer be submitted
          yield* sql`UPDATE transaction_intents SET state = 'EXPIRED', failure_code = 'bounty-cancelled', updated_at = ${at},
              version = version + 1
            WHERE purpose_id::text = ${b.id} AND purpose_kind IN (${BountyFundingPurpose}, ${BountyApprovalPurpose})
              AND state = 'AWAITING_SIGNATURE'`
          yield* move(b, sql`state = 'CANCELLED', closed_at = ${at}, updated_at = ${at}`)
        } else {
          const intent = yield* provide(preparePayout({
            bountyId: b.id,
            workspaceId: b.workspaceId,
            network: b.network,
            contractAddress: b.contractAddress,
            provider: null,
            toProvider: 0n,
            toClient: b.units
          }))
          yield* move(b, sql`state = 'REFUND_PENDING', payout_intent_id = ${intent.id}, updated_at = ${at}`)
        }
        yield* provide(bountyEvent(b.id, "cancelled"))
        return yield* wire(b.id)
      }).pipe(dieOnStorageFailure)

    /**
     * Jobs_ListBounties: one page of the workspace's bounties (posted, claimed, or both), newest
     * first; `nextCursor` is signed and bound to the workspace, the caller, `side` and `state`.
     */
    const list = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly side?: "POSTED" | "CLAIMED" | undefined
      readonly state?: string | undefined
      readonly cursor?: string | undefined
      readonly limit: number
    }) =>
      Effect.gen(function*() {
        const workspaceId = input.workspaceId.toLowerCase()
        const role = yield* repo.memberRole(workspaceId, input.accountId)
        if (Option.isNone(role)) return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
        const side = input.side ?? null
        const state = input.state ?? null
        const page = yield* cursor.page({
          position: BountyPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Jobs_ListBounties", workspace: workspaceId, principal: input.accountId, side, state },
          limit: input.limit,
          fetch: (after, take) => repo.list({ workspaceId, side, state, after: after ?? null, take }),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((r) => r.bounty), nextCursor: page.nextCursor }
      })

    return { create, get, fund, claim, submit, accept, reject, dispute, cancel, list } as const
  })
}) {}
