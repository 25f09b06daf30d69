/**
 * Wallets area contract, wallet public profiles (spec §2.14, §4.3): the owner's configuration, the
 * public read by network and address, and follows. Its own group (tag "Wallets" through `OpenApi.Title`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import { Conflict, InvalidState, VersionConflict } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { OwnWalletProfile, WalletNotFound, WalletProfileNotFound } from "../Errors.js"
import { UpdateWalletProfileRequest, WalletProfilePath, WalletPublicProfile } from "../Schemas.js"

const locator = "The profile is named by `network` (its CAIP-2 id such as `eip155:8453`, or the directory's network key " +
  "such as `base`) and `address` (EVM addresses compared without case)."

const shape = "The profile (spec §2.14): `followerCount` counts the accounts following it (a digit string), " +
  "`following` and `ownedByViewer` are the caller's."

export class WalletProfilesApi extends HttpApiGroup.make("WalletProfiles")
  .add(
    HttpApiEndpoint.put("updateWalletProfile", "/api/v1/wallets/:walletPublicId/public-profile")
      .setPath(Schema.Struct({ walletPublicId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(UpdateWalletProfileRequest)
      .addSuccess(Data(WalletPublicProfile))
      .pipe(
        operation({
          id: "Wallets_UpdateWalletProfile",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Configure and publish the public profile of one of your wallets",
          description: "Sets the whole public profile configuration of one of the caller's wallets: `displayName` " +
            "(1-100 characters or null), `bio` (1-1000 or null), `visibility` (PRIVATE or PUBLIC) and " +
            "`favoriteCollectionVisibility`. The first profile of a wallet is created without `expectedVersion` (or " +
            "null) at version 1; after that `expectedVersion` must be the profile's version (version + 1), any other " +
            "(or none) → 409 `version-conflict`. `publishedAt` is set the first time the profile is PUBLIC and kept " +
            "when it turns PRIVATE again; only PUBLIC profiles can be read by others and followed. A wallet the caller " +
            "does not own (a workspace role does not count) or an unknown id → 404 `wallet-not-found`. " + shape,
          errors: [WalletNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("getWalletPublicProfile", "/api/v1/wallet-profiles/:network/:address")
      .setPath(WalletProfilePath)
      .addSuccess(Data(WalletPublicProfile))
      .pipe(
        operation({
          id: "Wallets_GetWalletPublicProfile",
          auth: "optional-user",
          cache: "none",
          scopes: ["public:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "The public profile of a wallet address",
          description: "The PUBLIC profile of an address on a network, for anyone (anonymous, an API key with " +
            "`public:read`, or a signed-in account). " + locator + " " + shape + " Both are false without a " +
            "session. A PRIVATE profile, or none, → 404 `wallet-profile-not-found` (its owner reads it with " +
            "Wallets_GetWalletProfileConfiguration).",
          errors: [WalletProfileNotFound]
        })
      )
  )
  .add(
    HttpApiEndpoint.put("followWallet", "/api/v1/wallet-profiles/:network/:address/follow")
      .setPath(WalletProfilePath)
      .setHeaders(IdempotencyKeyRequired)
      .addSuccess(Data(WalletPublicProfile))
      .pipe(
        operation({
          id: "Wallets_FollowWallet",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Follow a wallet's public profile",
          description: "The caller follows the PUBLIC profile. " + locator + " An account follows a profile at most " +
            "once: following again (or concurrently) changes nothing and `followerCount` moves once. A PRIVATE or " +
            "unknown profile → 404 `wallet-profile-not-found`; the profile of the caller's own wallet → 409 " +
            "`own-wallet-profile`. No body. " + shape,
          errors: [WalletProfileNotFound, OwnWalletProfile]
        })
      )
  )
  .add(
    HttpApiEndpoint.del("unfollowWallet", "/api/v1/wallet-profiles/:network/:address/follow")
      .setPath(WalletProfilePath)
      .setHeaders(IdempotencyKeyRequired)
      .addSuccess(Data(WalletPublicProfile))
      .pipe(
        operation({
          id: "Wallets_UnfollowWallet",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Stop following a wallet's public profile",
          description: "The caller stops following the profile. " + locator + " Unfollowing a PUBLIC profile the " +
            "caller does not follow changes nothing; a profile the caller follows can be left even after it turned " +
            "PRIVATE. Any other PRIVATE or unknown profile → 404 `wallet-profile-not-found`. No body. " + shape,
          errors: [WalletProfileNotFound]
        })
      )
  )
  .annotate(OpenApi.Title, "Wallets")
  .annotate(OpenApi.Description, "Wallets: public profiles of wallet addresses, and follows")
{}
