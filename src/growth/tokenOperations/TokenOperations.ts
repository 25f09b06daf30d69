/**
 * Token operations (spec §2.13, §3, §4.2; docs/token-operations.md): administrators plan a
 * movement of the platform's treasury token, another administrator approves it when it is above
 * the approval threshold, and the platform carries it out on chain through a transaction intent
 * (layers/TransactionIntents.ts) whose outcome reconciles it into the journal (./Outcomes.ts).
 *
 * States: PLANNED (at most `TOKEN_OPERATION_APPROVAL_THRESHOLD_UNITS` units: any administrator,
 * the creator included, may approve it) or APPROVAL_REQUIRED (above: an administrator other than
 * the creator) → APPROVED → BUILD_PENDING (the intent is prepared, in the approval's transaction)
 * → SUBMITTED → CONFIRMED → RECONCILED; CANCELLED from PLANNED, APPROVAL_REQUIRED or APPROVED;
 * FAILED when the transaction fails (reverted, refused by the wallet policy).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { erc20Abi, getAddress, isAddress } from "viem"
import { Audit } from "../../../layers/Audit.js"
import { Chain, PlatformSigner } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { ensureNetworkRow } from "../../../layers/NetworkRows.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"
import { ChainRpcUnavailable, ConfigurationMissing, InvalidRequest } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { explainRefusal } from "../../db/versioned.js"
import { TokenOperationSettings } from "./Config.js"
import { AssetNotExecutable, SecondApproverRequired, TokenOperationNotFound } from "./Errors.js"
import { TokenOperationsRepo, type TokenOperationRow } from "./Repo.js"
import type { CreateTokenOperationRequest, TokenOperation, TokenOperationKind } from "./Schemas.js"

/** The purpose kind of the intents of token operations (layers/TransactionIntents.ts). */
export const TokenOperationPurpose = "token-operation"

/** The contract role of the token the platform moves (`CHAIN_CONTRACTS`). */
export const TreasuryTokenRole = "treasuryToken"

/** Where a BURN sends its units: the conventional dead address (no key controls it). */
export const BurnAddress = getAddress("0x000000000000000000000000000000000000dead")

/** Kinds that need a trading venue (an exchange or pool adapter), which the platform does not have. */
export const VenueKinds: ReadonlyArray<TokenOperationKind> = ["BUYBACK", "LIQUIDITY"]

/** States an approval applies to. */
export const ApproveFromStates = ["PLANNED", "APPROVAL_REQUIRED"] as const
/** States a cancellation applies to. */
export const CancelFromStates = ["PLANNED", "APPROVAL_REQUIRED", "APPROVED"] as const

/** The CAIP-19 id of an ERC-20 contract on an EVM network (address in lower case). */
export const erc20AssetId = (network: string, address: string): string => `${network}/erc20:${address.toLowerCase()}`

const CaipAssetPattern = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32})\/erc20:(0x[0-9a-fA-F]{40})$/
const UuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const badField = (pointer: string, rule: string) =>
  new InvalidRequest({ detail: `The body is not valid: ${pointer} ${rule}.`, errors: [{ in: "body", pointer, detail: rule }] })

/**
 * Token operations (admin). Requires `SqlClient`, `Ids`, `Audit`, `Chain`, `PlatformSigner`,
 * `TransactionIntents`, `TokenOperationSettings`.
 */
export class TokenOperations extends Effect.Service<TokenOperations>()("agent-directory/TokenOperations", {
  effect: Effect.gen(function*() {
    const repo = yield* TokenOperationsRepo
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const audit = yield* Audit
    const chain = yield* Chain
    const signer = yield* PlatformSigner
    const settings = yield* TokenOperationSettings
    const intents = yield* TransactionIntents

    const signerAddress = Option.match(signer.address, {
      onNone: () => Effect.fail(new ConfigurationMissing({ detail: "No platform signer is configured (CHAIN_SIGNER_PRIVATE_KEY)." })),
      onSome: Effect.succeed
    })

    /** The configured network of `network` (CAIP-2 or a directory network's id) with its directory row. */
    const resolveNetwork = (network: string) =>
      Effect.gen(function*() {
        const row = yield* repo.findNetwork(network)
        const caip2 = Option.match(row, { onNone: () => network, onSome: (r) => r.caip2 ?? "" })
        const notConfigured = new ConfigurationMissing({ detail: "The network is not a configured chain (CHAIN_RPC_URLS)." })
        if (UuidPattern.test(caip2) || caip2 === "") return yield* Effect.fail(notConfigured)
        const info = yield* Effect.mapError(chain.network(caip2), () => notConfigured)
        if (Option.isSome(row)) return { id: row.value.id, caip2 }
        // a configured network the directory has no row of yet: add it (layers/NetworkRows.ts)
        return { id: yield* Effect.provideService(ensureNetworkRow(info), Ids, ids), caip2 }
      })

    /** The asset row of the network's treasury token, which `assetId` must name (created on first use). */
    const resolveTreasuryAsset = (network: { readonly id: string; readonly caip2: string }, assetId: string) =>
      Effect.gen(function*() {
        const token = yield* chain.contract(network.caip2, TreasuryTokenRole)
        const caip19 = erc20AssetId(network.caip2, token)
        const notTreasury = new AssetNotExecutable({
          detail: `The asset is not the treasury token of ${network.caip2} (${caip19}); the platform moves only that token.`
        })
        if (UuidPattern.test(assetId)) {
          const found = yield* repo.findAsset(network.id, { id: assetId.toLowerCase() })
          if (Option.isNone(found) || found.value.caip19 !== caip19) return yield* Effect.fail(notTreasury)
          return { id: found.value.id, token }
        }
        const parsed = CaipAssetPattern.exec(assetId)
        if (parsed === null || erc20AssetId(parsed[1]!, parsed[2]!) !== caip19) return yield* Effect.fail(notTreasury)
        const existing = yield* repo.findAsset(network.id, { caip19 })
        if (Option.isSome(existing)) return { id: existing.value.id, token }
        // first use: the asset's row, with the token's symbol and decimals read from the chain
        const client = yield* chain.client(network.caip2)
        const [symbol, decimals] = yield* Effect.tryPromise({
          try: () =>
            Promise.all([
              client.readContract({ address: token, abi: erc20Abi, functionName: "symbol" }),
              client.readContract({ address: token, abi: erc20Abi, functionName: "decimals" })
            ]),
          catch: () => new ChainRpcUnavailable({ detail: `The RPC endpoint of ${network.caip2} did not answer.` })
        })
        yield* repo.ensureAsset({ id: yield* ids.next, networkId: network.id, caip19, symbol, decimals })
        const added = yield* repo.findAsset(network.id, { caip19 })
        return { id: Option.getOrThrow(added).id, token }
      })

    const reload = (id: string) => Effect.map(repo.findById(id), Option.getOrThrow)

    /**
     * Growth_CreateTokenOperation: checks that the platform can carry the operation out (a
     * configured network, its treasury token, a platform signer, a kind that needs no trading
     * venue, a destination address) and records it PLANNED, or APPROVAL_REQUIRED when `units`
     * exceeds `TOKEN_OPERATION_APPROVAL_THRESHOLD_UNITS`; audit `token_operation.created`.
     *
     * Fails with `InvalidRequest` (destination missing or not an address), `ConfigurationMissing`
     * (network, treasury token, signer or trading venue not configured), `AssetNotExecutable`,
     * `ChainRpcUnavailable` (reading the token's symbol and decimals on first use).
     */
    const create = (input: { readonly body: CreateTokenOperationRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { body } = input
        if (VenueKinds.includes(body.kind)) {
          return yield* Effect.fail(new ConfigurationMissing({
            detail: `A ${body.kind} needs a trading venue adapter, and none is configured; it cannot be carried out.`
          }))
        }
        let destination: string | null = null
        if (body.kind === "BURN") {
          if (body.destination !== null && (!isAddress(body.destination) || getAddress(body.destination) !== BurnAddress)) {
            return yield* Effect.fail(badField("/destination", "must be absent or the dead address for a BURN"))
          }
          destination = BurnAddress
        } else {
          if (body.destination === null) return yield* Effect.fail(badField("/destination", "is required for this kind"))
          if (!isAddress(body.destination)) return yield* Effect.fail(badField("/destination", "must be an EVM address (0x and 40 hex digits)"))
          destination = getAddress(body.destination)
        }
        const network = yield* resolveNetwork(body.network)
        const asset = yield* resolveTreasuryAsset(network, body.assetId)
        const from = yield* signerAddress
        const at = yield* now
        const id = yield* ids.next
        const state = body.units > settings.tokenOperations.approvalThresholdUnits ? "APPROVAL_REQUIRED" : "PLANNED"
        yield* repo.insert({
          id,
          kind: body.kind,
          state,
          assetId: asset.id,
          units: body.units,
          source: body.source ?? `${network.caip2}:${from}`,
          destination,
          evidenceRef: body.evidenceRef,
          publicSummary: body.publicSummary,
          requestedBy: input.accountId,
          at
        })
        yield* audit.record({
          workspaceId: null,
          actorAccountId: input.accountId,
          action: "token_operation.created",
          target: { type: "token_operation", id },
          details: { kind: body.kind, state, network: network.caip2, units: body.units.toString() }
        })
        return yield* reload(id)
      }).pipe(dieOnStorageFailure)

    const refuse = (id: string, expectedVersion: number, fromStates: ReadonlyArray<string>, verb: string) =>
      Effect.flatMap(repo.findRow(id), (found) =>
        explainRefusal({
          resource: "token-operation",
          id,
          notFound: (detail) => new TokenOperationNotFound({ detail }),
          current: Option.map(found, (r) => ({ version: r.version, state: r.state })),
          expectedVersion,
          fromStates,
          stateDetail: (state) => `The token operation is ${state}; ${verb} applies only from ${fromStates.join(", ")}.`
        }))

    /** Prepares the operation's ERC-20 transfer as a PLATFORM intent and moves it APPROVED → BUILD_PENDING. */
    const build = (op: TokenOperationRow, at: Date) =>
      Effect.gen(function*() {
        const network = op.network ?? ""
        const token = yield* chain.contract(network, TreasuryTokenRole)
        const from = yield* signerAddress
        const intent = yield* intents.prepare({
          network,
          signer: "PLATFORM",
          from,
          to: token,
          abi: erc20Abi,
          functionName: "transfer",
          args: [getAddress(op.destination ?? BurnAddress), BigInt(op.units)],
          purpose: { kind: TokenOperationPurpose, id: op.id },
          workspaceId: null,
          ownerAccountId: null
        })
        yield* repo.move(op.id, ["APPROVED"], { state: "BUILD_PENDING", at, transactionIntentId: intent.id })
      })

    /**
     * Growth_ApproveTokenOperation: PLANNED (any administrator) or APPROVAL_REQUIRED (an
     * administrator other than the creator) → APPROVED (version + 1, `approvedAt`), then in the
     * same transaction the intent is prepared and the operation is BUILD_PENDING (version + 1,
     * `transactionIntentPublicId`); the platform's sender submits it. Audit `token_operation.approved`.
     *
     * Fails with `TokenOperationNotFound`, `SecondApproverRequired` (403, the creator approving an
     * APPROVAL_REQUIRED operation), `VersionConflict`, `InvalidState`, `Conflict`,
     * `ConfigurationMissing` (network, token or signer no longer configured), `ChainRpcUnavailable`
     * (the fee and gas estimates could not be read: nothing is recorded, the approval may be retried).
     */
    const approve = (input: { readonly id: string; readonly expectedVersion: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const found = yield* repo.findRow(id, true)
        if (
          Option.isSome(found) && found.value.state === "APPROVAL_REQUIRED" && found.value.requestedBy === input.accountId
        ) {
          return yield* Effect.fail(new SecondApproverRequired({
            detail: "This operation is above the approval threshold: an administrator other than its creator must approve it."
          }))
        }
        if (
          Option.isNone(found) || found.value.version !== input.expectedVersion ||
          !(ApproveFromStates as ReadonlyArray<string>).includes(found.value.state)
        ) return yield* refuse(id, input.expectedVersion, ApproveFromStates, "approval")
        const op = found.value
        const at = yield* now
        yield* sql`UPDATE token_operations SET state = 'APPROVED', approved_at = ${at}, approved_by_account_id = ${input.accountId},
                     updated_at = ${at}, version = version + 1
                   WHERE id = ${id} AND version = ${input.expectedVersion}`
        yield* build(op, at)
        yield* audit.record({
          workspaceId: null,
          actorAccountId: input.accountId,
          action: "token_operation.approved",
          target: { type: "token_operation", id },
          details: { kind: op.kind, fromState: op.state, toState: "BUILD_PENDING" }
        })
        return yield* reload(id)
      }).pipe(dieOnStorageFailure)

    /**
     * Growth_CancelTokenOperation: PLANNED, APPROVAL_REQUIRED or APPROVED → CANCELLED
     * (version + 1); any administrator. Audit `token_operation.cancelled`.
     * Fails with `TokenOperationNotFound`, `VersionConflict`, `InvalidState` (already built or
     * finished), `Conflict`.
     */
    const cancel = (input: { readonly id: string; readonly expectedVersion: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const id = input.id.toLowerCase()
        const found = yield* repo.findRow(id, true)
        if (
          Option.isNone(found) || found.value.version !== input.expectedVersion ||
          !(CancelFromStates as ReadonlyArray<string>).includes(found.value.state)
        ) return yield* refuse(id, input.expectedVersion, CancelFromStates, "cancellation")
        const at = yield* now
        yield* repo.move(id, CancelFromStates, { state: "CANCELLED", at })
        yield* audit.record({
          workspaceId: null,
          actorAccountId: input.accountId,
          action: "token_operation.cancelled",
          target: { type: "token_operation", id },
          details: { kind: found.value.kind, fromState: found.value.state, toState: "CANCELLED" }
        })
        return yield* reload(id)
      }).pipe(dieOnStorageFailure)

    const list = repo.list().pipe(Effect.orDie)

    return { list, create, approve, cancel } as const satisfies Record<string, unknown>
  }),
  dependencies: [TokenOperationsRepo.Default]
}) {}

export type { TokenOperation }
