/**
 * Wallet registration (spec §4.3, ours in the spec's conventions): an EVM address becomes a wallet
 * of a workspace when it proves control with a signed EIP-4361 message (./SiweProof.ts), and the
 * workspace's wallets are listed by cursor pages.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Chain } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { Cursor } from "../../../layers/Cursor.js"
import { Ids } from "../../../layers/Ids.js"
import { ensureNetworkRow } from "../../../layers/NetworkRows.js"
import {
  ChallengeExpired,
  ConfigurationMissing,
  InvalidState,
  ProofInvalid,
  RoleRequired,
  WorkspaceNotFound
} from "../../../schema/errors.js"
import { can, rolesInWords } from "../../../schema/roles.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { NonceUsed, WalletAlreadyRegistered } from "../Errors.js"
import { WalletListPosition, WalletRegistrationRepo } from "./Repo.js"
import { verifySiweProof } from "./SiweProof.js"

/** Input of {@link WalletRegistration.register}. */
export interface RegisterWalletInput {
  readonly workspaceId: string
  readonly account: string
  readonly message: string
  readonly signature: string
  readonly accountId: string
}

/** Wallet registration and the workspace's wallet list. Requires `SqlClient`, `Ids`, `Cursor`, `AppConfig`, `Chain`. */
export class WalletRegistration extends Effect.Service<WalletRegistration>()("agent-directory/WalletRegistration", {
  effect: Effect.gen(function*() {
    const repo = yield* WalletRegistrationRepo
    const config = yield* AppConfig
    const chain = yield* Chain
    const ids = yield* Ids
    const cursor = yield* Cursor

    /** The caller's membership: `WorkspaceNotFound` unless an ACTIVE member; returns the role and the workspace state. */
    const membership = (workspaceId: string, accountId: string) =>
      Effect.flatMap(
        dieOnStorageFailure(repo.workspaceRole({ workspaceId, accountId })),
        (found) =>
          Option.isSome(found) && found.value.role !== null
            ? Effect.succeed({ role: found.value.role, state: found.value.state })
            : Effect.fail(new WorkspaceNotFound({ detail: `No workspace ${workspaceId}.` }))
      )

    /** The network row of a CAIP-2 id: the directory's, else a configured network's (added), else 422. */
    const networkOf = (caip2: string) =>
      Effect.gen(function*() {
        const known = yield* dieOnStorageFailure(repo.networkId(caip2))
        if (Option.isSome(known)) return known.value
        const configured = chain.networks.find((n) => n.id === caip2)
        if (configured === undefined) {
          return yield* new ConfigurationMissing({
            detail: "The account's network is neither a directory network nor configured (CHAIN_RPC_URLS)."
          })
        }
        return yield* Effect.provideService(ensureNetworkRow(configured), Ids, ids)
      })

    /**
     * Wallets_RegisterWallet: records the CAIP-10 `account` as a wallet of the workspace, owned by
     * the caller, when `message` (EIP-4361, for this service's origin, the account's chain) is
     * signed by the account's address. The message's nonce is used up with it.
     *
     * Fails, in this order, with `WorkspaceNotFound` (not an ACTIVE member), `RoleRequired`
     * (`wallets.register`), `InvalidState` (workspace not ACTIVE), `ProofInvalid` (malformed,
     * other account, other domain, not yet valid, wrong signer), `ChallengeExpired` (message
     * expired), `ConfigurationMissing` (network unknown), `NonceUsed`, `WalletAlreadyRegistered`.
     */
    const register = (input: RegisterWalletInput) =>
      Effect.gen(function*() {
        const member = yield* membership(input.workspaceId, input.accountId)
        if (!can(member.role, "wallets.register")) {
          return yield* new RoleRequired({ detail: `Registering wallets needs ${rolesInWords("wallets.register")} in the workspace.` })
        }
        if (member.state !== "ACTIVE") {
          return yield* new InvalidState({ detail: `The workspace is ${member.state}; wallets are registered in ACTIVE workspaces.` })
        }
        const [namespace, reference, address] = input.account.split(":") as [string, string, string]
        const caip2 = `${namespace}:${reference}`
        const at = yield* now
        const proven = yield* verifySiweProof({
          account: { chainId: Number(reference), address },
          message: input.message,
          signature: input.signature,
          origin: config.publicBaseUrl,
          at
        }).pipe(Effect.mapError((refusal) =>
          refusal.reason === "expired"
            ? new ChallengeExpired({ detail: refusal.detail })
            : new ProofInvalid({ detail: refusal.detail })
        ))
        const networkId = yield* networkOf(caip2)
        const fresh = yield* dieOnStorageFailure(repo.useNonce({
          address: proven.address,
          nonce: proven.nonce,
          at,
          expiresAt: proven.validUntil
        }))
        if (!fresh) {
          return yield* new NonceUsed({ detail: "The message's nonce was already used; sign a message with a new nonce." })
        }
        const id = yield* ids.next
        const inserted = yield* dieOnStorageFailure(repo.insertWallet({
          id,
          workspaceId: input.workspaceId,
          accountId: input.accountId,
          networkId,
          address: proven.address,
          at
        }))
        if (!inserted) {
          return yield* new WalletAlreadyRegistered({ detail: "The account is already a registered wallet." })
        }
        return yield* dieOnStorageFailure(repo.findWallet(id)).pipe(Effect.flatMap(Effect.orDie))
      })

    /**
     * Wallets_ListWallets: one page of the workspace's wallets, newest first, with the signed
     * cursor of the next page (bound to the workspace and the caller). Every ACTIVE member may
     * read. Fails with `WorkspaceNotFound`, `InvalidCursor`.
     */
    const list = (input: { workspaceId: string; accountId: string; limit: number; cursor?: string | undefined }) =>
      Effect.gen(function*() {
        yield* membership(input.workspaceId, input.accountId)
        const page = yield* cursor.page({
          position: WalletListPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Wallets_ListWallets", workspace: input.workspaceId, principal: input.accountId },
          limit: input.limit,
          fetch: (after, take) => dieOnStorageFailure(repo.listWallets(input.workspaceId, after, take)),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.wallet), nextCursor: page.nextCursor }
      })

    return { register, list }
  }),
  dependencies: [WalletRegistrationRepo.Default]
}) {}
