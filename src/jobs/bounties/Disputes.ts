/**
 * Domain rules of bounty dispute resolution (spec §3, §4.2 Jobs_ResolveBountyDispute):
 * preview → approve by hash and confirmation → apply at the dispute's version.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import type { DisputeResolutionResult, ResolveBountyDisputeRequest } from "./Schemas.js"
import { getAddress } from "viem"
import { PlatformSigner } from "../../../layers/Chain.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import { ConfirmationMismatch, InvalidState, VersionConflict } from "../../../schema/errors.js"
import { ApprovalRequired, CommandHashMismatch, DisputeNotFound, EscrowUnavailable, UnitsRule } from "./Errors.js"
import { explainRefusal, updateVersioned } from "../../db/versioned.js"
import { commandHash, confirmationText, type DisputeCommand, unitsRuleBroken } from "./DisputeCommand.js"
import { BountyEscrowAbi, decisionTypedData, escrowDecisionDigest, evmChainId, NoProviderAddress } from "./Escrow.js"
import { BountyEscrowPurpose } from "./EscrowOutcomes.js"
import { BountiesRepo, type DisputeRow } from "./Repo.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { markAgentEvidence } from "../../trust/index.js"

const resolvableDispute = ["OPEN"]
const disputedBounty = ["DISPUTED"]

const bodyProblem = <C extends typeof UnitsRule | typeof ApprovalRequired | typeof ConfirmationMismatch>(
  Cause: C,
  pointer: string,
  detail: string
): InstanceType<C> => new Cause({ detail: `${pointer.slice(1)} ${detail}.`, errors: [{ in: "body", pointer, detail }] }) as InstanceType<C>

/**
 * Bounty dispute resolution. Requires `SqlClient`, `Ids`, `TransactionIntents` (the escrow's
 * payout transaction) and `PlatformSigner` (the arbiter who signs the decision).
 */
export class Disputes extends Effect.Service<Disputes>()("agent-directory/Disputes", {
  effect: Effect.gen(function*() {
    const repo = yield* BountiesRepo
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const intents = yield* TransactionIntents
    const signer = yield* PlatformSigner

    const refuse = (disputeId: string, row: Option.Option<DisputeRow>, expectedVersion: number) =>
      explainRefusal({
        resource: "dispute",
        id: disputeId,
        notFound: (detail) => new DisputeNotFound({ detail }),
        current: Option.map(row, (r) => ({ version: r.disputeVersion, state: r.disputeState })),
        expectedVersion,
        fromStates: resolvableDispute,
        stateDetail: (state) => `The dispute is ${state}; only an OPEN dispute can be resolved.`
      })

    /**
     * Jobs_ResolveBountyDispute. `dryRun` → PREVIEW (nothing written); otherwise
     * checks `approvedCommandHash` and `confirmation` against the preview of the same
     * inputs and applies: dispute RESOLVED, bounty RELEASE_PENDING/REFUND_PENDING (both
     * versions +1), audit event, resolution row, and the escrow's payout as a PLATFORM
     * transaction intent (purpose `bounty-escrow`, id = the bounty): `resolve(decision,
     * signature)` on the bounty's escrow contract, the decision (EIP-712, src/jobs/bounties/Escrow.ts)
     * signed by the platform's signer (the contract's arbiter) and stored on the intent. The
     * platform's sender broadcasts it; its outcome moves the bounty (EscrowOutcomes.ts).
     *
     * Fails with `DisputeNotFound` (`dispute-not-found`), `UnitsRule` (`units-rule`,
     * `approval-required`, `confirmation-mismatch`), `VersionConflict` (`version-conflict`,
     * `invalid-state` (also: the escrow's network is not an `eip155` one), `command-hash-mismatch`),
     * `EscrowUnavailable` (503: network or signer not configured), `ChainRpcUnavailable` (503).
     */
    const resolve = (input: {
      readonly bountyId: string
      readonly disputeId: string
      readonly actorAccountId: string
      readonly body: ResolveBountyDisputeRequest
    }) =>
      Effect.gen(function*() {
        const { body, bountyId, disputeId } = input
        const found = yield* repo.findDispute({ bountyId, disputeId })
        if (Option.isNone(found)) return yield* refuse(disputeId, found, body.expectedVersion)
        const row = found.value
        const broken = unitsRuleBroken(body.resolution, body.unitsToProvider, body.unitsToClient, row.escrowUnits)
        if (broken !== null) return yield* bodyProblem(UnitsRule, broken.pointer, broken.detail)
        if (row.disputeVersion !== body.expectedVersion || row.disputeState !== "OPEN") {
          return yield* refuse(disputeId, found, body.expectedVersion)
        }
        if (!disputedBounty.includes(row.bountyState)) {
          return yield* new InvalidState({ detail: `The bounty is ${row.bountyState}, not DISPUTED.` })
        }
        const command: DisputeCommand = {
          bountyId,
          disputeId,
          expectedVersion: body.expectedVersion,
          resolution: body.resolution,
          unitsToProvider: body.unitsToProvider,
          unitsToClient: body.unitsToClient,
          reason: body.reason,
          network: row.network,
          contractAddress: row.contractAddress,
          walletPublicId: row.walletId
        }
        const chainId = evmChainId(row.network)
        if (chainId === null) {
          return yield* new InvalidState({ detail: "The bounty's escrow network is not an EVM network (eip155:<chain id>)." })
        }
        if (body.unitsToProvider > 0n && row.payoutAddress === null) {
          return yield* new InvalidState({ detail: "The bounty has no claimant's payout address to pay the provider's part to." })
        }
        const decision = {
          bountyId,
          disputeId,
          provider: row.payoutAddress ?? NoProviderAddress,
          toProvider: body.unitsToProvider,
          toClient: body.unitsToClient
        }
        const hash = commandHash(command)
        const digest = escrowDecisionDigest(chainId, row.contractAddress, decision)
        const confirmation = confirmationText(command)
        if (body.dryRun) {
          return {
            kind: "PREVIEW",
            bountyId,
            disputeId,
            expectedVersion: body.expectedVersion,
            commandHash: hash,
            confirmation,
            resolution: body.resolution,
            unitsToProvider: body.unitsToProvider,
            unitsToClient: body.unitsToClient,
            network: row.network,
            contractAddress: row.contractAddress,
            walletPublicId: row.walletId,
            decisionDigest: digest
          } satisfies DisputeResolutionResult
        }
        if (body.approvedCommandHash === undefined) {
          return yield* bodyProblem(ApprovalRequired, "/approvedCommandHash", "is required when dryRun is false")
        }
        if (body.confirmation === undefined) {
          return yield* bodyProblem(ApprovalRequired, "/confirmation", "is required when dryRun is false")
        }
        if (body.approvedCommandHash !== hash) {
          return yield* new CommandHashMismatch({
            detail: "approvedCommandHash is not the hash of this command; preview these inputs again and approve that hash."
          })
        }
        if (body.confirmation !== confirmation) {
          return yield* bodyProblem(ConfirmationMismatch, "/confirmation", "must be the preview's confirmation text")
        }

        const at = yield* now
        const disputeVersion = yield* updateVersioned({
          table: "bounty_disputes",
          id: disputeId,
          expectedVersion: body.expectedVersion,
          set: sql`state = 'RESOLVED', resolved_at = ${at}, updated_at = ${at}`,
          fromStates: resolvableDispute
        })
        if (Option.isNone(disputeVersion)) {
          return yield* refuse(disputeId, yield* repo.findDispute({ bountyId, disputeId }), body.expectedVersion)
        }
        // the resolution is work evidence of the claimant's agent: a dispute lost lowers its trust (docs/methodology.md)
        const [claimant] = yield* sql<{ agentId: string | null }>`SELECT claimant_agent_id AS "agentId" FROM bounties WHERE id = ${bountyId}`
        if (claimant?.agentId != null) yield* markAgentEvidence(claimant.agentId, at)
        const state = body.resolution === "REFUND" ? "REFUND_PENDING" : "RELEASE_PENDING"
        const bountyVersion = yield* updateVersioned({
          table: "bounties",
          id: bountyId,
          expectedVersion: row.bountyVersion,
          set: sql`state = ${state}, updated_at = ${at}`,
          fromStates: disputedBounty
        })
        // the dispute row is locked by now, and a bounty moves only with its dispute
        if (Option.isNone(bountyVersion)) {
          return yield* new VersionConflict({ detail: "The bounty changed; reload it and retry." })
        }
        // the arbiter's decision, and the transaction that hands it to the escrow contract
        const typedData = decisionTypedData(chainId, row.contractAddress, decision)
        const unavailable = (e: { readonly detail?: string | undefined }) => new EscrowUnavailable({ detail: e.detail ?? "" })
        const signature = yield* signer.signTypedData(typedData).pipe(Effect.mapError(unavailable))
        const intent = yield* intents.prepare({
          network: row.network,
          signer: "PLATFORM",
          to: getAddress(row.contractAddress),
          abi: BountyEscrowAbi,
          functionName: "resolve",
          args: [typedData.message, signature],
          typedData,
          purpose: { kind: BountyEscrowPurpose, id: bountyId },
          workspaceId: row.workspaceId,
          ownerAccountId: null
        }).pipe(
          Effect.catchTag("ConfigurationMissing", (e) => Effect.fail(unavailable(e))),
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.provideService(Ids, ids)
        )
        const transactionIntentId = intent.id
        const commandId = yield* ids.next
        const auditEventId = yield* ids.next
        yield* repo.record({
          commandId,
          auditEventId,
          transactionIntentId,
          bountyId,
          disputeId,
          actorAccountId: input.actorAccountId,
          commandHash: hash,
          decisionDigest: digest,
          resolution: body.resolution,
          unitsToProvider: body.unitsToProvider,
          unitsToClient: body.unitsToClient,
          reason: body.reason,
          state,
          at
        })
        return {
          kind: "ACCEPTED",
          bountyId,
          disputeId,
          commandId,
          commandHash: hash,
          auditEventId,
          transactionIntentId,
          bountyVersion: bountyVersion.value,
          disputeVersion: disputeVersion.value,
          state,
          unitsToProvider: body.unitsToProvider,
          unitsToClient: body.unitsToClient
        } satisfies DisputeResolutionResult
      }).pipe(dieOnStorageFailure)

    return { resolve }
  }),
  dependencies: [BountiesRepo.Default]
}) {}
