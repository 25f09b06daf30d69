/**
 * Wallet public profiles (spec §2.14, §4.3): the owner configures and publishes a wallet's
 * profile; anyone reads a PUBLIC one by network and address; signed-in accounts follow it.
 */
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { VersionConflict } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { explainRefusal } from "../../db/versioned.js"
import { OwnWalletProfile, WalletNotFound, WalletProfileNotFound } from "../Errors.js"
import { type ProfileConfiguration, type ProfileRef, WalletProfilesRepo } from "./Repo.js"

/** Input of {@link WalletProfiles.update}. */
export interface UpdateProfileInput extends ProfileConfiguration {
  readonly walletId: string
  readonly accountId: string
  readonly expectedVersion?: number | null | undefined
}

/** A profile locator of the public paths: network (CAIP-2 id or key) and address. */
export interface ProfileLocator {
  readonly network: string
  readonly address: string
}

/** Wallet public profiles and follows. Requires `SqlClient`, `Ids`. */
export class WalletProfiles extends Effect.Service<WalletProfiles>()("agent-directory/WalletProfiles", {
  effect: Effect.gen(function*() {
    const repo = yield* WalletProfilesRepo
    const ids = yield* Ids

    const profile = (id: string, viewer: string | null) =>
      dieOnStorageFailure(repo.findProfile({ id, viewer })).pipe(Effect.flatMap(Effect.orDie))

    /**
     * Wallets_UpdateWalletProfile: sets the whole configuration of the profile of one of the
     * caller's wallets: creates it (version 1) when the wallet has none and `expectedVersion` is
     * absent or null, else replaces it at `expectedVersion` (version + 1). `publishedAt` is set the
     * first time the profile is PUBLIC and kept after. Returns the profile as its owner sees it.
     *
     * Fails with `WalletNotFound` (absent or not the caller's), `VersionConflict` (a profile exists
     * and `expectedVersion` is not its version, or none exists and one was given, or a concurrent
     * creation won).
     */
    const update = (input: UpdateProfileInput) =>
      Effect.gen(function*() {
        const wallet = yield* dieOnStorageFailure(repo.ownedWallet({ id: input.walletId, accountId: input.accountId }))
        if (Option.isNone(wallet)) return yield* new WalletNotFound({ detail: `No wallet ${input.walletId}.` })
        const at = yield* now
        const configuration: ProfileConfiguration = {
          displayName: input.displayName,
          bio: input.bio,
          visibility: input.visibility,
          favoriteCollectionVisibility: input.favoriteCollectionVisibility
        }
        const existing = yield* dieOnStorageFailure(repo.profileOfWallet(input.walletId))
        const expected = input.expectedVersion ?? null
        if (Option.isNone(existing)) {
          if (expected !== null) {
            return yield* new VersionConflict({
              detail: "The wallet has no profile yet; create it without expectedVersion."
            })
          }
          const id = yield* ids.next
          const created = yield* dieOnStorageFailure(repo.insertProfile({
            ...configuration,
            id,
            walletId: input.walletId,
            networkId: wallet.value.networkId,
            address: wallet.value.address,
            at
          }))
          if (!created) {
            return yield* new VersionConflict({ detail: "A profile of this wallet's address exists; reload it and retry." })
          }
          return yield* profile(id, input.accountId)
        }
        if (expected === null) {
          return yield* new VersionConflict({
            detail: `The wallet's profile is at version ${existing.value.version}; send it as expectedVersion.`
          })
        }
        const changed = yield* dieOnStorageFailure(repo.updateProfile({
          ...configuration,
          id: existing.value.id,
          expectedVersion: expected,
          at
        }))
        if (Option.isNone(changed)) {
          return yield* explainRefusal({
            resource: "wallet-profile",
            id: existing.value.id,
            notFound: (detail) => new WalletNotFound({ detail }),
            current: yield* dieOnStorageFailure(repo.profileOfWallet(input.walletId)),
            expectedVersion: expected
          })
        }
        return yield* profile(existing.value.id, input.accountId)
      })

    /** The PUBLIC profile of a locator, else `WalletProfileNotFound`. */
    const publicProfile = (locator: ProfileLocator) =>
      Effect.flatMap(
        dieOnStorageFailure(repo.findByLocator(locator)),
        (found): Effect.Effect<ProfileRef, WalletProfileNotFound> =>
          Option.isSome(found) && found.value.visibility === "PUBLIC"
            ? Effect.succeed(found.value)
            : Effect.fail(new WalletProfileNotFound({ detail: "No public profile of that address on that network." }))
      )

    /**
     * Wallets_GetWalletPublicProfile: the PUBLIC profile of an address on a network, with
     * `following` and `ownedByViewer` for a signed-in viewer (false for others). A PRIVATE or
     * absent profile → `WalletProfileNotFound`.
     */
    const read = (locator: ProfileLocator, viewer: string | null) =>
      Effect.flatMap(publicProfile(locator), (ref) => profile(ref.id, viewer))

    /**
     * Wallets_FollowWallet: the caller follows the PUBLIC profile (once: following again changes
     * nothing). Fails with `WalletProfileNotFound` (absent or PRIVATE), `OwnWalletProfile`.
     */
    const follow = (locator: ProfileLocator, accountId: string) =>
      Effect.gen(function*() {
        const ref = yield* publicProfile(locator)
        if (ref.ownerAccountId === accountId) {
          return yield* new OwnWalletProfile({ detail: "An account does not follow the profile of its own wallet." })
        }
        yield* dieOnStorageFailure(repo.follow({ profileId: ref.id, accountId, at: yield* now }))
        return yield* profile(ref.id, accountId)
      })

    /**
     * Wallets_UnfollowWallet: the caller stops following the profile (unfollowing a profile not
     * followed changes nothing). A profile the caller follows can be left even after it turned
     * PRIVATE; else it must be PUBLIC. Fails with `WalletProfileNotFound`.
     */
    const unfollow = (locator: ProfileLocator, accountId: string) =>
      Effect.gen(function*() {
        const found = yield* dieOnStorageFailure(repo.findByLocator(locator))
        const notFound = new WalletProfileNotFound({ detail: "No public profile of that address on that network." })
        if (Option.isNone(found)) return yield* notFound
        const removed = yield* dieOnStorageFailure(repo.unfollow({ profileId: found.value.id, accountId }))
        if (!removed && found.value.visibility !== "PUBLIC") return yield* notFound
        return yield* profile(found.value.id, accountId)
      })

    return { update, read, follow, unfollow }
  }),
  dependencies: [WalletProfilesRepo.Default]
}) {}
