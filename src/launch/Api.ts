/** Launch area contract (spec §2.4, §3, §4.3): launch drafts and runs (docs/launch.md). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { Data, Page } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import {
  CreateLaunchDraftRequest,
  LaunchDraft,
  LaunchRun,
  ListLaunchRunsQuery,
  MaterializeLaunchTransactionRequest,
  StartLaunchRunRequest
} from "./Schemas.js"
import { operation } from "../api/operation.js"
import {
  AgentNotFound,
  ChainRpcUnavailable,
  ConfigurationMissing,
  Conflict,
  InvalidCursor,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict,
  WorkspaceNotFound
} from "../../schema/errors.js"
import { SignatureInvalid, SignerNotTokenOwner } from "../../schema/errors.js"
import { LaunchDraftNotFound, LaunchRunNotFound, LaunchVenueUnavailable } from "./Errors.js"

export class LaunchApi extends HttpApiGroup.make("Launch")
  .add(
    HttpApiEndpoint.post("createLaunchDraft", "/api/v1/launch-drafts")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateLaunchDraftRequest)
      .addSuccess(Data(LaunchDraft), { status: 201 })
      .pipe(
        operation({
          id: "Launch_CreateLaunchDraft",
          permission: "launch.operate",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create a launch draft: what a launch run launches (agent, venue, network, signing wallet)",
          description: "Extension of ours (spec §2.4 names `launchDraftId`). Answers 201 with the draft. Body: " +
            "`workspaceId`, `agentId` (an ACTIVE agent the workspace operates: any other, or a workspace the caller is " +
            "not an active member of, is 404 `agent-not-found`; a retired one 409 `invalid-state`), `venue` " +
            "(REGISTRY_GENESIS, LAUNCHPAD_FUN, BROKER_CHAIN or EXTERNAL_IMPORT), `network` (a CAIP-2 chain id, e.g. " +
            "`eip155:8453`), `signerAddress` (the owner's wallet, `0x` and 40 hex digits: it signs the run's " +
            "transaction and receives the registry token; stored EIP-55) and, for EXTERNAL_IMPORT only, `tokenId` " +
            "(the existing ERC-8004 token to attach, decimal; required there, refused elsewhere). An EXTERNAL_IMPORT " +
            "draft carries `importMessage`, the text the token's owner signs (EIP-191) to start its run. Whether the " +
            "venue can serve the draft is checked when a run starts. The caller needs the OWNER, ADMIN, EDITOR or " +
            "OPERATOR role in the workspace (403 `role-required`).",
          errors: [InvalidRequest, AgentNotFound, RoleRequired, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("startLaunchRun", "/api/v1/launch-drafts/:launchDraftId/runs")
      .setPath(Schema.Struct({ launchDraftId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(StartLaunchRunRequest)
      .addSuccess(Data(LaunchRun), { status: 202 })
      .pipe(
        operation({
          id: "Launch_StartLaunchRun",
          permission: "launch.operate",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Start a launch run of a draft (202: PREPARING, or COMPLETED for an EXTERNAL_IMPORT)",
          description: "Extension of ours. Starts a new run of the draft at `version` 1, `attemptCount` 1, and " +
            "answers 202 with it.\n\n" +
            "- **REGISTRY_GENESIS**: the network must be configured (`CHAIN_RPC_URLS`) with an `identityRegistry` " +
            "contract (`CHAIN_CONTRACTS`), else 422 `configuration-missing`. The run is PREPARING with " +
            "`expectedAssetLocator` the registry's CAIP-19 asset type (`eip155:<chainId>/erc721:<registry>`); " +
            "Launch_MaterializeLaunchTransaction then prepares its `register(agentURI)` transaction.\n" +
            "- **EXTERNAL_IMPORT**: body `signature`, the EIP-191 signature of the draft's `importMessage` by the " +
            "token's `ownerOf` on the registry (read on the chain): a signature that does not recover is 422 " +
            "`signature-invalid`, another signer (or no such token) 422 `signer-not-token-owner`, an RPC that does not " +
            "answer 503 `chain-rpc-unavailable`. The run completes at once, without a transaction: COMPLETED with " +
            "`observedAssetId` the token's CAIP-19 id; the token becomes the agent's proven registry identity and a " +
            "`launch.completed` activity item is recorded.\n" +
            "- **LAUNCHPAD_FUN, BROKER_CHAIN**: external venues behind an adapter; without one configured 422 " +
            "`configuration-missing`.\n\n" +
            "`signature` given for another venue, or missing for EXTERNAL_IMPORT, is 400. A draft outside the " +
            "caller's workspaces is 404 `launch-draft-not-found`; the caller needs the OWNER, ADMIN, EDITOR or " +
            "OPERATOR role (403 `role-required`).",
          errors: [
            InvalidRequest,
            LaunchDraftNotFound,
            RoleRequired,
            Conflict,
            ConfigurationMissing,
            SignatureInvalid,
            SignerNotTokenOwner,
            ChainRpcUnavailable
          ]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getLaunchRun", "/api/v1/launch-runs/:runId")
      .setPath(Schema.Struct({ runId: Uuid }))
      .addSuccess(Data(LaunchRun))
      .pipe(
        operation({
          id: "Launch_GetLaunchRun",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500],
          summary: "One launch run (spec §2.4)",
          description: "Extension of ours. The run, for any active member of its workspace; a run outside the " +
            "caller's workspaces is 404 `launch-run-not-found`. The run follows its chain transaction: SUBMITTED " +
            "(`providerReference` the transaction hash, `submittedAt`), OBSERVED (in a block, `observedAt`; back to " +
            "SUBMITTED if a reorg drops the block), then COMPLETED once confirmed (`confirmedAt`, `completedAt`, " +
            "`observedAssetId` the minted token's CAIP-19 id); a reverted transaction or an expired signature request " +
            "makes it RETRYABLE_FAILURE (`failureCode` `transaction-reverted`, `signature-expired`).",
          errors: [LaunchRunNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listLaunchRuns", "/api/v1/launch-runs")
      .setUrlParams(ListLaunchRunsQuery)
      .addSuccess(Page(LaunchRun, 100))
      .pipe(
        operation({
          id: "Launch_ListLaunchRuns",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500],
          summary: "A workspace's launch runs, newest first (cursor pages)",
          description: "Extension of ours. The runs of `workspaceId` (a workspace the caller is an active member of, " +
            "else 404 `workspace-not-found`), newest first (`requestedAt`, then `id`), `limit` per page (1-100, " +
            "default 25), optionally only those in `state`. Pass `nextCursor` back as `cursor` for the next page; it " +
            "is signed and bound to the workspace, the caller and `state` (any other: 400 `invalid-cursor`).",
          errors: [WorkspaceNotFound, InvalidCursor]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("materializeLaunchTransaction", "/api/v1/launch-runs/:runId/transaction-intent")
      .setPath(Schema.Struct({ runId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(MaterializeLaunchTransactionRequest)
      .addSuccess(Data(LaunchRun), { status: 202 })
      .pipe(
        operation({
          id: "Launch_MaterializeLaunchTransaction",
          permission: "launch.operate",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Create the transaction intent of a launch run (from PREPARING, AWAITING_FUNDING or RETRYABLE_FAILURE)",
          description: "Creates the transaction intent the run's wallet must sign and answers 202 with the run: state " +
            "AWAITING_SIGNATURE, `transactionIntentId` set, the steps TRANSACTION_INTENT (COMPLETED) and SIGNATURE (PENDING) " +
            "appended, `version` + 1.\n\n" +
            "The intent (Wallets_GetTransactionIntent) is a REGISTRY_GENESIS run's mint: signed by the OWNER, from the " +
            "draft's `signerAddress` to the network's ERC-8004 Identity Registry, calling `register(agentURI)` with " +
            "the agent's registration file URL (`/api/v1/agents/{id}/erc8004-registration.json`). The owner signs it " +
            "and submits it (Wallets_SubmitTransactionIntent); the run then follows the transaction (Launch_GetLaunchRun). " +
            "A run whose venue prepares no transaction here (an adapter venue), or whose network or registry is not " +
            "configured, is 503 `launch-venue-unavailable`; a network whose RPC does not answer 503 `chain-rpc-unavailable`.\n\n" +
            "Rules (spec §3 shows no transitions; these are the service's): allowed from PREPARING and AWAITING_FUNDING " +
            "(the intent belongs to the current attempt) and from RETRYABLE_FAILURE (a retry: `attemptCount` + 1, " +
            "`failureCode`/`failureSummary` cleared, the failed attempt's intent superseded); any other state is 409 " +
            "`invalid-state`. `expectedVersion` must be the run's current `version` (409 `version-conflict` otherwise; " +
            "of concurrent calls at one version exactly one succeeds). A run has at most one intent per attempt, so a " +
            "second call, whatever its Idempotency-Key, never creates a second intent. The caller needs the OWNER, ADMIN, " +
            "EDITOR or OPERATOR role in the run's workspace (403 `role-required`); a run outside the caller's workspaces " +
            "is 404 `launch-run-not-found`. Checks run in that order: 404, 403, version, state.",
          errors: [LaunchRunNotFound, RoleRequired, VersionConflict, InvalidState, Conflict, LaunchVenueUnavailable, ChainRpcUnavailable]
        })
      )
  )
  .annotate(OpenApi.Description, "Launch: launch drafts and runs that register agents on chain")
{}
