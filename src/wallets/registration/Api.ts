/**
 * Wallets area contract, wallet registration (spec §4.3 wallets, ours in the spec's conventions): an
 * address proven by a signed EIP-4361 message becomes a wallet of a workspace; the workspace's wallets
 * by cursor pages. Its own group (tag "Wallets" through `OpenApi.Title`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Data, Page } from "../../../schema/envelope.js"
import {
  ChallengeExpired,
  ConfigurationMissing,
  InvalidCursor,
  InvalidState,
  ProofInvalid,
  RoleRequired,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { NonceUsed, WalletAlreadyRegistered } from "../Errors.js"
import { ListWalletsQuery, RegisterWalletRequest, Wallet } from "../Schemas.js"

export class WalletRegistrationApi extends HttpApiGroup.make("WalletRegistration")
  .add(
    HttpApiEndpoint.post("registerWallet", "/api/v1/wallets")
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(RegisterWalletRequest)
      .addSuccess(Data(Wallet), { status: 201 })
      .pipe(
        operation({
          id: "Wallets_RegisterWallet",
          permission: "wallets.register",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "Register an EVM address as a wallet of a workspace, proven by a signed Sign-In with Ethereum message",
          description: [
            "Registers `account` (CAIP-10 `eip155:<chainId>:0x…`) as a wallet of the workspace `workspaceId`, owned by",
            "the caller (its profile and policies are the caller's to manage). The proof is `message`, an EIP-4361",
            "(Sign-In with Ethereum) message the client builds (e.g. viem `createSiweMessage`), and `signature`, the",
            "address's EIP-191 `personal_sign` of it (EOA signatures only). The message must:",
            "",
            "- name the account's address and chain id (`Chain ID`), with `version` 1;",
            "- have `domain` = this service's host and `uri` on this service's origin (`PUBLIC_BASE_URL`);",
            "- carry a `nonce` of at least 8 letters or digits, never used before for this address (a message proves",
            "  once: 409 `nonce-used`);",
            "- carry `Issued At` at most 5 minutes in the future (and `Not Before`, if any, passed); with an",
            "  `Expiration Time`, that time must be ahead; without one, `Issued At` must be at most 10 minutes old",
            "  (else 410 `challenge-expired`).",
            "",
            "Other refusals: a message that is not EIP-4361, names another account or another domain, or is not",
            "signed by the address → 422 `proof-invalid`; a network neither in the directory nor configured",
            "(`CHAIN_RPC_URLS`) → 422 `configuration-missing` (a configured network gets its directory row, key = its",
            "CAIP-2 id); an address already registered on that network (by anyone) → 409 `wallet-already-registered`.",
            "The caller needs the OWNER, ADMIN or EDITOR role in the workspace (else 403 `role-required`); a workspace",
            "the caller is not an ACTIVE member of is not found (404); a workspace not ACTIVE → 409 `invalid-state`.",
            "",
            "Checks in order: 404, 403, 409 `invalid-state`, 422/410 (the message, then its signature), 422",
            "`configuration-missing`, 409 `nonce-used`, 409 `wallet-already-registered`. 201 with the wallet."
          ].join("\n"),
          errors: [WorkspaceNotFound, RoleRequired, InvalidState, ProofInvalid, ChallengeExpired, ConfigurationMissing, NonceUsed, WalletAlreadyRegistered]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listWallets", "/api/v1/wallets")
      .setUrlParams(ListWalletsQuery)
      .addSuccess(Page(Wallet, 100))
      .pipe(
        operation({
          id: "Wallets_ListWallets",
          auth: "required-user",
          cache: "private",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "The wallets registered for a workspace (cursor pages)",
          description: "The wallets of the workspace `workspaceId`, newest first: `walletPublicId`, `network` (CAIP-2), " +
            "`account` (CAIP-10), `address` (EIP-55), `proofMethod` (`SIWE`) and `provenAt`, `createdAt`. `limit` 1-100 " +
            "(default 25); `nextCursor` (null on the last page) is signed and bound to this workspace and caller (any " +
            "other use: 400 `invalid-cursor`). Every role of an ACTIVE member may read; a workspace the caller is not a " +
            "member of is not found (404 `workspace-not-found`).",
          errors: [WorkspaceNotFound, InvalidCursor]
        })
      )
  )
  .annotate(OpenApi.Title, "Wallets")
  .annotate(OpenApi.Description, "Wallets: registration of addresses proven by signature")
{}
