/**
 * The invitation expiry workflow (spec §2.12, §3 invitation states), started by
 * Workspaces_CreateInvitation in its transaction, one execution per invitation: a durable
 * sleep of the invitation's time to live (`INVITATION_TTL_DAYS`; `DurableClock`: it survives
 * restarts and moves with the test clock) until the invitation's `expiresAt`, then activity `expire`: PENDING → EXPIRED with an
 * `invitation.expired` audit event by the platform. An invitation accepted or revoked in the
 * meantime stays as it is. Acceptance already refuses a PENDING invitation past `expiresAt`,
 * so the answer is right even before this step has run.
 */
import { SqlClient } from "@effect/sql"
import { Activity, Workflow } from "@effect/workflow"
import { Effect, Layer, Schema } from "effect"
import { Audit, AuditLive } from "../../../layers/Audit.js"
import { retryTransient, sleepUntil, survivingStorageErrors } from "../../../layers/Engine.js"
import { InvitationsRepo } from "./Repo.js"

/** The workflow: expire invitation `invitationId` at `expiresAtMs` (epoch ms) unless it was answered (execution id from `invitationId`). */
export const InvitationExpiryWorkflow = Workflow.make({
  name: "WorkspaceInvitationExpiry",
  payload: { invitationId: Schema.String, expiresAtMs: Schema.Number },
  idempotencyKey: ({ invitationId }) => invitationId
})

/** The workflow's implementation, registered on the engine. Requires `SqlClient`, `Ids` (plus the engine). */
export const InvitationExpiryLive = InvitationExpiryWorkflow.toLayer(({ expiresAtMs, invitationId }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* InvitationsRepo
    const audit = yield* Audit
    yield* sleepUntil("ttl", expiresAtMs)
    yield* Activity.make({
      name: "expire",
      execute: sql.withTransaction(Effect.gen(function*() {
        const workspaceId = yield* repo.expire(invitationId)
        if (workspaceId === undefined) return
        yield* audit.record({
          workspaceId,
          actorAccountId: null,
          action: "invitation.expired",
          target: { type: "invitation", id: invitationId }
        })
      })).pipe(retryTransient, Effect.orDie)
    })
  }).pipe(survivingStorageErrors, Effect.provide(Layer.merge(InvitationsRepo.Default, AuditLive))))
