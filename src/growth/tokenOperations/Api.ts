/**
 * Growth area contract, admin token operations (spec §2.13, §4.2). Its own group
 * (identifier `TokenOperations`) published under the OpenAPI tag `Growth`, beside the
 * ad-campaign group of the same tag.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data } from "../../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { ChainRpcUnavailable, Conflict, ConfigurationMissing, InvalidRequest, InvalidState, VersionConflict } from "../../../schema/errors.js"
import {
  CreateTokenOperationRequest,
  TokenOperation,
  TokenOperationCommandRequest,
  TokenOperationList,
  TokenOperationPath
} from "./Schemas.js"
import { operation } from "../../api/operation.js"
import { AssetNotExecutable, SecondApproverRequired, TokenOperationNotFound } from "./Errors.js"

const moves = "States: PLANNED or APPROVAL_REQUIRED → APPROVED → BUILD_PENDING → SUBMITTED → CONFIRMED → RECONCILED; " +
  "CANCELLED from PLANNED, APPROVAL_REQUIRED or APPROVED; FAILED when the transaction fails (`failureCode`: `reverted`, " +
  "`policy-violation`, …). Every move adds one to `version`."

export class TokenOperationsApi extends HttpApiGroup.make("TokenOperations")
  .add(
    HttpApiEndpoint.get("listAdminTokenOperations", "/api/v1/admin/token-operations")
      .addSuccess(TokenOperationList)
      .pipe(
        operation({
          id: "Growth_ListAdminTokenOperations",
          auth: "required-admin",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "List token operations (admin)",
          description: "Every token operation (buybacks, burns, rewards, allocations, distributions, commission payouts, " +
            "treasury transfers, liquidity), newest request first (at most 500), with its network, asset, units (decimal " +
            "strings of chain units), approval and reconciliation times and failure code. `asOf` is the instant the list " +
            "was read. Admin only; takes no parameters."
        })
      )
  )
  .add(
    HttpApiEndpoint.post("createTokenOperation", "/api/v1/admin/token-operations")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateTokenOperationRequest)
      .addSuccess(Data(TokenOperation), { status: 201 })
      .pipe(
        operation({
          id: "Growth_CreateTokenOperation",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Plan a token operation (admin)",
          description: [
            "Plans a movement of the platform's treasury token and answers 201 with the operation: PLANNED, or",
            "APPROVAL_REQUIRED when `units` exceeds the approval threshold (`TOKEN_OPERATION_APPROVAL_THRESHOLD_UNITS`).",
            "`network` is a CAIP-2 id or a directory network's id and must be a configured chain; `assetId` is an asset id",
            "or a CAIP-19 id (`eip155:8453/erc20:0x…`) and must be that network's treasury token (422",
            "`asset-not-executable`); `units` are chain units (decimal string, > 0); `destination` is the recipient's EVM",
            "address (required, except for a BURN, which sends to `0x…dEaD`); `source` labels the paying account (default",
            "the platform signer's CAIP-10 account). BUYBACK and LIQUIDITY need a trading venue adapter, which is not",
            "configured: 422 `configuration-missing`, as are an unconfigured network, treasury token or platform signer.",
            moves
          ].join("\n"),
          errors: [InvalidRequest, ConfigurationMissing, AssetNotExecutable, ChainRpcUnavailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("approveTokenOperation", "/api/v1/admin/token-operations/:operationId/approve")
      .setPath(TokenOperationPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(TokenOperationCommandRequest)
      .addSuccess(Data(TokenOperation), { status: 202 })
      .pipe(
        operation({
          id: "Growth_ApproveTokenOperation",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Approve a token operation (admin)",
          description: [
            "Approves a PLANNED operation (any administrator, its creator included) or an APPROVAL_REQUIRED one (an",
            "administrator other than its creator, else 403 `second-approver-required`) at `expectedVersion`, and starts it:",
            "the ERC-20 `transfer` of the treasury token from the platform signer is prepared as a transaction intent",
            "(`transactionIntentPublicId`, Wallets_GetTransactionIntent) in the same transaction and the operation answers",
            "202 BUILD_PENDING; the platform's sender signs and broadcasts it, and the block watcher moves the operation to",
            "SUBMITTED, then CONFIRMED and RECONCILED (a journal entry, `journalEntryId`) at the network's confirmation",
            "depth. 409 `version-conflict` or `invalid-state`; 422 `configuration-missing` when the chain settings are",
            "gone; 503 `chain-rpc-unavailable` when fees and gas cannot be estimated (nothing is recorded; retry).",
            moves
          ].join("\n"),
          errors: [TokenOperationNotFound, SecondApproverRequired, VersionConflict, InvalidState, Conflict, ConfigurationMissing, ChainRpcUnavailable]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("cancelTokenOperation", "/api/v1/admin/token-operations/:operationId/cancel")
      .setPath(TokenOperationPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(TokenOperationCommandRequest)
      .addSuccess(Data(TokenOperation))
      .pipe(
        operation({
          id: "Growth_CancelTokenOperation",
          auth: "required-admin",
          cache: "none",
          sensitive: true,
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Cancel a token operation (admin)",
          description: "Cancels a PLANNED, APPROVAL_REQUIRED or APPROVED operation at `expectedVersion` (any administrator) " +
            "and answers 200 with it CANCELLED. An operation whose transaction is built or sent cannot be cancelled " +
            "(409 `invalid-state`); 409 `version-conflict` when `expectedVersion` is not the current one. " + moves,
          errors: [TokenOperationNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .annotate(OpenApi.Title, "Growth")
  .annotate(OpenApi.Description, "Growth: ad campaigns, ad events and token operations")
{}
