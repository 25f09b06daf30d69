/**
 * Domain rules of the Launch area (spec §2.4, §3, §4.3): launch drafts, launch runs and the
 * chain transaction of a REGISTRY_GENESIS run (docs/launch.md).
 *
 * - A draft names what is launched: an agent the draft's workspace operates, the venue, the
 *   network (CAIP-2) and the owner's wallet (`signerAddress`) that signs and receives the token.
 * - Starting a run (Launch_StartLaunchRun) checks the venue can serve it now (422
 *   `configuration-missing` otherwise: the network, its `identityRegistry` contract, or the
 *   adapter of LAUNCHPAD_FUN / BROKER_CHAIN) and answers 202 with the run PREPARING; an
 *   EXTERNAL_IMPORT run is proven at once (the token's `ownerOf` signed the draft's
 *   `importMessage`, EIP-191) and completes without a transaction.
 * - Materializing (Launch_MaterializeLaunchTransaction) prepares the run's chain transaction
 *   (layers/TransactionIntents.ts): OWNER-signed, from `signerAddress` to the network's
 *   Identity Registry, `register(agentURI)` with the agent's registration file URL, purpose
 *   `{ kind: "launch-run", id }`. What the chain does with it comes back through
 *   src/launch/Outcomes.ts.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { getAddress, recoverMessageAddress, type Hex, BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError } from "viem"
import { recordActivity } from "../../layers/Activity.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { Chain } from "../../layers/Chain.js"
import { now } from "../../layers/Clock.js"
import { Cursor } from "../../layers/Cursor.js"
import { Ids } from "../../layers/Ids.js"
import { TransactionIntents } from "../../layers/TransactionIntents.js"
import {
  AgentNotFound,
  ChainRpcUnavailable,
  ConfigurationMissing,
  InvalidRequest,
  RoleRequired,
  WorkspaceNotFound
} from "../../schema/errors.js"
import { can, rolesFor, rolesInWords } from "../../schema/roles.js"
import { AgentOperators, requireActiveAgent } from "../agentAccess/index.js"
import { recordProvenRegistryToken, SignatureInvalid, SignerNotTokenOwner } from "../agents/index.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { runVersioned } from "../db/versioned.js"
import { LaunchDraftNotFound, LaunchRunNotFound, LaunchVenueUnavailable } from "./Errors.js"
import { IdentityRegistryAbi } from "./IdentityRegistryAbi.js"
import { type DraftRow, LaunchRepo, MaterializableStates, RunPosition } from "./Repo.js"
import type { CreateLaunchDraftRequest, LaunchDraft, LaunchRunState } from "./Schemas.js"
import { LaunchVenueAdapters } from "./Venues.js"

/** The purpose kind of a launch run's chain intents (layers/TransactionIntents.ts `IntentPurpose`). */
export const LaunchRunPurpose = "launch-run"

/** The public URL of an agent's ERC-8004 registration file (Agents_GetErc8004Registration): the token's `agentURI`. */
export const registrationFileUrl = (publicBaseUrl: string, agentId: string) =>
  `${publicBaseUrl.replace(/\/+$/, "")}/api/v1/agents/${agentId}/erc8004-registration.json`

/** The EIP-155 chain id of a CAIP-2 `eip155:<n>` id. */
const chainIdOf = (network: string) => network.split(":")[1] ?? ""

/** The CAIP-19 id of an ERC-8004 identity token: `eip155:<chainId>/erc721:<registry>/<agentId>`. */
export const registryTokenAssetId = (network: string, registry: string, tokenId: string | bigint) =>
  `eip155:${chainIdOf(network)}/erc721:${getAddress(registry)}/${tokenId.toString()}`

/** One step of a run (spec §2.4) in its stored wire shape. */
export const step = (
  name: string,
  state: string,
  attemptCount: number,
  at: Date,
  extra: { readonly providerReference?: string | null; readonly errorCode?: string | null; readonly done?: boolean } = {}
) => ({
  step: name,
  state,
  attemptCount,
  providerReference: extra.providerReference ?? null,
  errorCode: extra.errorCode ?? null,
  startedAt: at.toISOString(),
  completedAt: extra.done === false ? null : at.toISOString()
})

/**
 * The text the owner of an EXTERNAL_IMPORT draft's token signs (EIP-191) to attach the token
 * to the agent; it names the service, the agent, the token and the draft, so a signature
 * serves one draft only.
 */
export const importMessage = (origin: string, d: { readonly id: string; readonly agentId: string; readonly network: string; readonly tokenId: string | null }) =>
  [
    `${origin} asks you to attach an ERC-8004 identity token to an agent of its directory.`,
    "",
    `Agent: ${d.agentId}`,
    `Token: ${d.tokenId ?? ""} of the Identity Registry on ${d.network}`,
    `Launch draft: ${d.id}`
  ].join("\n")

/** Launch drafts and runs. Requires `SqlClient`, `Ids`, `Chain`, `AppConfig`, `Cursor`, `LaunchVenueAdapters`. */
export class Launch extends Effect.Service<Launch>()("agent-directory/Launch", {
  effect: Effect.gen(function*() {
    const repo = yield* LaunchRepo
    const ids = yield* Ids
    const chain = yield* Chain
    const config = yield* AppConfig
    const cursor = yield* Cursor
    const operators = yield* AgentOperators
    const adapters = yield* LaunchVenueAdapters
    const sql = yield* SqlClient.SqlClient
    const intents = yield* TransactionIntents

    const draftOf = (d: Omit<DraftRow, "role">): LaunchDraft => ({
      id: d.id,
      workspaceId: d.workspaceId,
      agentId: d.agentId,
      venue: d.venue,
      network: d.network,
      signerAddress: d.signerAddress,
      tokenId: d.tokenId,
      importMessage: d.venue === "EXTERNAL_IMPORT" ? importMessage(config.publicBaseUrl, d) : null,
      createdAt: new Date(d.createdAt)
    })

    const bodyError = (field: string, detail: string) =>
      new InvalidRequest({ detail: `${field}: ${detail}`, errors: [{ in: "body", pointer: `/${field}`, detail }] })

    /**
     * Launch_CreateLaunchDraft: a draft of `agentId` (operated by `workspaceId`). Fails with
     * `AgentNotFound` (no such agent operated by that workspace of the caller's), `RoleRequired`
     * (not OWNER, ADMIN, EDITOR or OPERATOR), `InvalidState` (a retired agent), `InvalidRequest`
     * (`tokenId` given for a venue other than EXTERNAL_IMPORT, or missing for it).
     */
    const createDraft = (input: { readonly body: CreateLaunchDraftRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const body = input.body
        const agentId = body.agentId.toLowerCase()
        const access = yield* operators.access({
          entityPublicId: agentId,
          accountId: input.accountId,
          roles: { allowed: rolesFor("launch.operate"), action: "Launching an agent" }
        })
        if (access.workspaceId !== body.workspaceId.toLowerCase()) {
          return yield* new AgentNotFound({ detail: `No agent ${agentId} operated by the workspace ${body.workspaceId}.` })
        }
        yield* requireActiveAgent(access, "Launching an agent")
        const tokenId = body.tokenId ?? null
        if (body.venue === "EXTERNAL_IMPORT" && tokenId === null) {
          return yield* bodyError("tokenId", "is required for the EXTERNAL_IMPORT venue (the registry token to attach)")
        }
        if (body.venue !== "EXTERNAL_IMPORT" && tokenId !== null) {
          return yield* bodyError("tokenId", "applies only to the EXTERNAL_IMPORT venue (leave it out or null)")
        }
        const at = yield* now
        const row = {
          id: yield* ids.next,
          workspaceId: access.workspaceId,
          agentId,
          venue: body.venue,
          network: body.network,
          signerAddress: getAddress(body.signerAddress),
          tokenId,
          accountId: input.accountId,
          at
        }
        yield* repo.insertDraft(row).pipe(dieOnStorageFailure)
        return draftOf({ ...row, createdAt: at.toISOString() })
      })

    /** The caller's draft, or 404 / 403. */
    const operableDraft = (draftId: string, accountId: string) =>
      Effect.gen(function*() {
        const found = yield* repo.draftAccess({ id: draftId.toLowerCase(), accountId }).pipe(dieOnStorageFailure)
        if (Option.isNone(found) || found.value.role === null) {
          return yield* new LaunchDraftNotFound({ detail: `No launch draft ${draftId}.` })
        }
        if (!can(found.value.role, "launch.operate")) {
          return yield* new RoleRequired({ detail: `Starting a launch run needs ${rolesInWords("launch.operate")}.` })
        }
        return found.value
      })

    /** The network's configured Identity Registry (422 `configuration-missing` without the network or the contract). */
    const registryOf = (network: string) =>
      Effect.zipRight(chain.client(network), chain.contract(network, "identityRegistry"))

    /**
     * EXTERNAL_IMPORT's proof: the EIP-191 signer of the draft's `importMessage` must be the
     * token's `ownerOf` on the registry. Returns the owner (EIP-55).
     */
    const proveImport = (d: DraftRow, registry: Hex, signature: Hex) =>
      Effect.gen(function*() {
        const signer = yield* Effect.tryPromise({
          try: () => recoverMessageAddress({ message: importMessage(config.publicBaseUrl, d), signature }),
          catch: () => new SignatureInvalid({ detail: "The signature does not recover to an address (EIP-191 over importMessage)." })
        })
        const client = yield* chain.client(d.network)
        const owner = yield* Effect.tryPromise({
          try: () => client.readContract({ address: registry, abi: IdentityRegistryAbi, functionName: "ownerOf", args: [BigInt(d.tokenId!)] }),
          catch: (error) => {
            const reverted = error instanceof BaseError &&
              error.walk((c) => c instanceof ContractFunctionRevertedError || c instanceof ContractFunctionZeroDataError) !== null
            return reverted
              ? new SignerNotTokenOwner({ detail: "The Identity Registry has no owner of this token (no such token)." })
              : new ChainRpcUnavailable({ detail: `The JSON-RPC endpoint of ${d.network} did not answer.`, retryAfter: 30 })
          }
        })
        if (getAddress(owner) !== signer) {
          return yield* new SignerNotTokenOwner({ detail: "The signer of importMessage is not the token's ownerOf on its chain." })
        }
        return signer
      })

    /**
     * Launch_StartLaunchRun: a new run of the draft, answered 202: PREPARING (REGISTRY_GENESIS,
     * adapter venues), or COMPLETED (EXTERNAL_IMPORT, proven at once). Fails with
     * `LaunchDraftNotFound`, `RoleRequired`, `InvalidRequest` (`signature` missing for
     * EXTERNAL_IMPORT, or given for another venue), `ConfigurationMissing` (422: the network,
     * its registry contract or the venue's adapter is not configured), `SignatureInvalid`,
     * `SignerNotTokenOwner` (422) or `ChainRpcUnavailable` (503).
     */
    const startRun = (input: { readonly draftId: string; readonly accountId: string; readonly signature: string | undefined }) =>
      Effect.gen(function*() {
        const d = yield* operableDraft(input.draftId, input.accountId)
        if (d.venue === "EXTERNAL_IMPORT" && input.signature === undefined) {
          return yield* bodyError("signature", "is required for an EXTERNAL_IMPORT run (the token owner's EIP-191 signature of the draft's importMessage)")
        }
        if (d.venue !== "EXTERNAL_IMPORT" && input.signature !== undefined) {
          return yield* bodyError("signature", "applies only to EXTERNAL_IMPORT runs (leave it out)")
        }
        const at = yield* now
        const id = yield* ids.next
        const base = { id, workspaceId: d.workspaceId, draftId: d.id, agentId: d.agentId, venue: d.venue, at }
        switch (d.venue) {
          case "REGISTRY_GENESIS": {
            const registry = yield* registryOf(d.network)
            yield* repo.insertRun({
              ...base,
              state: "PREPARING",
              providerReference: null,
              expectedAssetLocator: `eip155:${chainIdOf(d.network)}/erc721:${getAddress(registry)}`,
              observedAssetId: null,
              steps: [step("PREPARE", "COMPLETED", 1, at)],
              completed: false
            }).pipe(dieOnStorageFailure)
            break
          }
          case "EXTERNAL_IMPORT": {
            const registry = yield* registryOf(d.network)
            const owner = yield* proveImport(d, registry, input.signature as Hex)
            const assetId = registryTokenAssetId(d.network, registry, d.tokenId!)
            yield* repo.insertRun({
              ...base,
              state: "COMPLETED",
              providerReference: null,
              expectedAssetLocator: assetId,
              observedAssetId: assetId,
              steps: [step("PREPARE", "COMPLETED", 1, at), step("OWNERSHIP_PROOF", "COMPLETED", 1, at), step("COMPLETION", "COMPLETED", 1, at)],
              completed: true
            }).pipe(dieOnStorageFailure)
            yield* recordProvenRegistryToken({ agentId: d.agentId, network: d.network, registry, tokenId: d.tokenId!, owner, at })
            yield* recordActivity({
              agentId: d.agentId,
              activityKey: "launch.completed",
              dedupeKey: `launch-run:${id}`,
              sourceKind: "DOMAIN_EVENT",
              summary: `Attached ERC-8004 identity token ${d.tokenId} of the Identity Registry on ${d.network}.`,
              network: d.network,
              evidencePublicId: id,
              occurredAt: at
            })
            break
          }
          default: {
            const started = yield* adapters[d.venue].start({ draftId: d.id, agentId: d.agentId, network: d.network, signerAddress: d.signerAddress })
            yield* repo.insertRun({
              ...base,
              state: "PREPARING",
              providerReference: started.providerReference,
              expectedAssetLocator: null,
              observedAssetId: null,
              steps: [step("PREPARE", "COMPLETED", 1, at, { providerReference: started.providerReference })],
              completed: false
            }).pipe(dieOnStorageFailure)
          }
        }
        return yield* repo.findById(id).pipe(Effect.flatMap(Effect.orDie), dieOnStorageFailure)
      })

    /** Launch_GetLaunchRun. Fails with `LaunchRunNotFound` (no such run in the caller's workspaces). */
    const getRun = (input: { readonly runId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const member = yield* repo.memberOfRun(input.runId.toLowerCase(), input.accountId).pipe(dieOnStorageFailure)
        if (!Option.getOrElse(member, () => false)) return yield* new LaunchRunNotFound({ detail: `No launch run ${input.runId}.` })
        return yield* repo.findById(input.runId.toLowerCase()).pipe(Effect.flatMap(Effect.orDie), dieOnStorageFailure)
      })

    /**
     * Launch_ListLaunchRuns: one page of the workspace's runs, newest first, optionally of one
     * state. Fails with `WorkspaceNotFound` (not an ACTIVE member) or `InvalidCursor`.
     */
    const listRuns = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly state?: LaunchRunState | undefined
      readonly cursor?: string | undefined
      readonly limit: number
    }) =>
      Effect.gen(function*() {
        const workspaceId = input.workspaceId.toLowerCase()
        const member = yield* sql<{ role: string }>`SELECT role FROM workspace_members
            WHERE workspace_id = ${workspaceId} AND account_id = ${input.accountId} AND state = 'ACTIVE'`.pipe(dieOnStorageFailure)
        if (member.length === 0) return yield* new WorkspaceNotFound({ detail: `No workspace ${input.workspaceId}.` })
        const state = input.state ?? null
        const page = yield* cursor.page({
          position: RunPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Launch_ListLaunchRuns", workspace: workspaceId, principal: input.accountId, state },
          limit: input.limit,
          fetch: (after, take) => repo.listRuns({ workspaceId, state, after, take }).pipe(dieOnStorageFailure),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((r) => r.run), nextCursor: page.nextCursor }
      })

    /**
     * Launch_MaterializeLaunchTransaction (spec §4.3): prepares the chain transaction of the
     * run's current attempt and returns the run (spec §2.4) in AWAITING_SIGNATURE with
     * `transactionIntentId`, the TRANSACTION_INTENT and SIGNATURE steps appended and
     * `version` + 1. From PREPARING or AWAITING_FUNDING the intent belongs to the current
     * attempt; from RETRYABLE_FAILURE it starts the next attempt (`attemptCount` + 1, the
     * failure cleared, the failed attempt's intent SUPERSEDED). One conditional UPDATE
     * (src/db/versioned.ts) first, so of concurrent calls at one version exactly one goes on to
     * prepare an intent (a refusal after it rolls the whole call back).
     *
     * Fails with `LaunchRunNotFound` (`launch-run-not-found`: no such run, or not in one of the
     * caller's workspaces), `RoleRequired` (not OWNER, ADMIN, EDITOR or OPERATOR),
     * `VersionConflict`, `InvalidState` (incl. an EXTERNAL_IMPORT run, which has no transaction),
     * `LaunchVenueUnavailable` (503: the run has no draft, its venue is an adapter's, or its
     * network or registry is not configured) or `ChainRpcUnavailable` (503).
     */
    const materialize = (input: { readonly runId: string; readonly expectedVersion: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const runId = input.runId.toLowerCase()
        const at = yield* now
        const attempt = yield* runVersioned({
          resource: "launch run",
          expectedVersion: input.expectedVersion,
          fromStates: MaterializableStates,
          roles: rolesFor("launch.operate"),
          update: repo.materialize({ id: runId, expectedVersion: input.expectedVersion, accountId: input.accountId, intentId: null, at }),
          current: repo.access({ id: runId, accountId: input.accountId }),
          notFound: () => new LaunchRunNotFound({ detail: `No launch run ${input.runId}.` })
        }).pipe(dieOnStorageFailure)
        const unavailable = (detail: string) => new LaunchVenueUnavailable({ detail, retryAfter: 300 })
        const found = yield* repo.runDraft(runId).pipe(dieOnStorageFailure)
        if (Option.isNone(found)) return yield* unavailable("The launch run has no draft to prepare a transaction from.")
        const d = found.value
        if (d.venue !== "REGISTRY_GENESIS") {
          return yield* unavailable(`The ${d.venue} venue prepares no transaction on this server (no adapter is configured).`)
        }
        const registry = yield* registryOf(d.network).pipe(Effect.mapError((e) => unavailable(e.detail ?? "")))
        const intent = yield* intents.prepare({
          network: d.network,
          signer: "OWNER",
          from: getAddress(d.signerAddress),
          to: registry,
          abi: IdentityRegistryAbi,
          functionName: "register",
          args: [registrationFileUrl(config.publicBaseUrl, d.agentId)],
          purpose: { kind: LaunchRunPurpose, id: runId },
          workspaceId: d.workspaceId,
          ownerAccountId: input.accountId
        }).pipe(
          Effect.catchTag("ConfigurationMissing", (e: ConfigurationMissing) => Effect.fail(unavailable(e.detail ?? "")))
        )
        yield* repo.insertIntent({ id: intent.id, runId, attempt, at }).pipe(dieOnStorageFailure)
        return yield* repo.findById(runId).pipe(Effect.flatMap(Effect.orDie), dieOnStorageFailure)
      })

    return { createDraft, startRun, getRun, listRuns, materialize }
  }),
  dependencies: [LaunchRepo.Default, AgentOperators.Default]
}) {}
