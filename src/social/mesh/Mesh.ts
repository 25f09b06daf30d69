/**
 * Domain rules of the Mesh area (spec §2.7, §4.3 Social_CreateMeshPublisher).
 */
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { type CreateMeshPublisherRequest, publicKeyFingerprint } from "./Schemas.js"
import { AgentNotFound, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { PublicKeyRegistered, PublisherQuotaExceeded } from "./Errors.js"
import { MeshRepo } from "./Repo.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { can, rolesFor } from "../../../schema/roles.js"

/**
 * Publishers a workspace may hold (all states but REVOKED count) unless
 * `mesh_publisher_quotas` gives it another quota.
 */
export const DefaultMeshPublisherQuota = 10

/** Mesh publishers: registration. Requires `SqlClient` and `Ids`. */
export class Mesh extends Effect.Service<Mesh>()("agent-directory/Mesh", {
  effect: Effect.gen(function*() {
    const repo = yield* MeshRepo
    const ids = yield* Ids

    /**
     * Social_CreateMeshPublisher (spec §4.3): registers a PENDING publisher (spec §2.7)
     * with a new `publicKeyId` and `publicKeyFingerprint` = base64url(SHA-256(key)).
     * The body's key was already checked to be a valid Ed25519 public key.
     *
     * Fails with `WorkspaceNotFound` (`workspace-not-found`: not one of the caller's workspaces;
     * `agent-not-found`: `entityPublicId` is not an agent of the workspace), `Forbidden`
     * (`role-required`: not OWNER, ADMIN, EDITOR or OPERATOR), `Conflict`
     * (`publisher-quota-exceeded`; `public-key-registered`: any publisher, of any
     * workspace and state, holds the key).
     */
    const create = (input: { readonly body: CreateMeshPublisherRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { body } = input
        const at = yield* now
        const found = yield* repo.lockQuota({ workspaceId: body.workspaceId, accountId: input.accountId })
        if (Option.isNone(found) || found.value.role === null) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${body.workspaceId} of yours.` })
        }
        const quota = found.value
        if (!can(quota.role!, "mesh.publish")) {
          return yield* new RoleRequired({
            detail: `Registering publishers needs one of the roles ${rolesFor("mesh.publish").join(", ")} in the workspace.`
          })
        }
        if (body.entityPublicId !== undefined) {
          const ours = yield* repo.isWorkspaceAgent({ workspaceId: body.workspaceId, agentId: body.entityPublicId })
          if (!ours) return yield* new AgentNotFound({ detail: `No agent ${body.entityPublicId} in this workspace.` })
        }
        const max = quota.maxPublishers ?? DefaultMeshPublisherQuota
        if (quota.publishers >= max) {
          return yield* new PublisherQuotaExceeded({
            detail: `The workspace holds ${quota.publishers} publishers, its quota is ${max}; revoke one first.`
          })
        }
        const key = Buffer.from(body.publicKeyBase64, "base64")
        const id = yield* ids.next
        const inserted = yield* repo.insert({
          id,
          workspaceId: body.workspaceId,
          entityId: body.entityPublicId ?? null,
          publicKeyId: yield* ids.next,
          publicKey: key,
          fingerprint: publicKeyFingerprint(key),
          allowedSignalTypes: body.allowedSignalTypes,
          perMinute: body.ratePolicy.perMinute,
          burst: body.ratePolicy.burst,
          at
        })
        if (Option.isNone(inserted)) {
          return yield* new PublicKeyRegistered({ detail: "This public key is already registered to a publisher." })
        }
        return yield* repo.findById(id).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    return { create }
  }),
  dependencies: [MeshRepo.Default]
}) {}
