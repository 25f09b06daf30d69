/**
 * Webhook subscriptions of a workspace (docs/webhooks.md): OWNERs and ADMINs
 * (`webhooks.manage`) subscribe an https endpoint to event kinds, read its deliveries, rotate
 * its secret and delete it. Deliveries are made by ./Delivery.ts.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Audit } from "../../../layers/Audit.js"
import { now } from "../../../layers/Clock.js"
import { Cursor } from "../../../layers/Cursor.js"
import { Ids } from "../../../layers/Ids.js"
import { isAllowedHost, Outbound } from "../../../layers/Outbound.js"
import { OutboundTargetRefused } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { explainRefusal, updateVersioned } from "../../db/versioned.js"
import { requireAccess } from "../members/Access.js"
import { MembersRepo } from "../members/Repo.js"
import { WebhookSubscriptionNotFound } from "./Errors.js"
import { WebhooksRepo, WebhookPosition } from "./Repo.js"
import type { CreateWebhookSubscriptionRequest } from "./Schemas.js"
import { newSigningSecret, webhookSecretCipher } from "./Secrets.js"

/** How long a rotated-out secret keeps signing deliveries (ms, 24 hours). */
export const PreviousSecretGraceMillis = 24 * 60 * 60 * 1000

/** Webhook subscriptions. Requires `SqlClient`, `AppConfig`, `Outbound`, `Cursor`, `Audit`, `Ids`. */
export class Webhooks extends Effect.Service<Webhooks>()("agent-directory/Webhooks", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* WebhooksRepo
    const members = yield* MembersRepo
    const config = yield* AppConfig
    const outbound = yield* Outbound
    const cursor = yield* Cursor
    const audit = yield* Audit
    const ids = yield* Ids
    const cipher = webhookSecretCipher(config.keys.webhookSecrets)

    const manage = (input: { readonly workspaceId: string; readonly accountId: string }, action: string) =>
      requireAccess(members, { ...input, permission: "webhooks.manage", action }).pipe(dieOnStorageFailure)

    const notFound = () => new WebhookSubscriptionNotFound({ detail: "No such webhook subscription in the workspace." })

    const findOrFail = (workspaceId: string, id: string) =>
      Effect.flatMap(repo.find(workspaceId, id), Option.match({ onNone: () => Effect.fail(notFound()), onSome: Effect.succeed }))

    /**
     * Workspaces_CreateWebhookSubscription: an ACTIVE subscription of `url` to `eventKinds`, with a
     * new signing secret returned once. The URL must pass the outbound rules and be https (http
     * only for a host in `OUTBOUND_ALLOWED_HOSTS`). Fails with the access refusals
     * (members/Access.ts) and `OutboundTargetRefused` (400, naming `/url`).
     */
    const create = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly body: typeof CreateWebhookSubscriptionRequest.Type
    }) =>
      Effect.gen(function*() {
        yield* manage(input, "Subscribing to the workspace's events")
        const url = yield* outbound.checkField(input.body.url, "/url")
        if (url.protocol !== "https:" && !isAllowedHost(outbound.options.allowedHosts, url)) {
          return yield* new OutboundTargetRefused({
            detail: "url must be https.",
            errors: [{ in: "body", pointer: "/url", detail: "must be an https URL" }]
          })
        }
        const id = yield* ids.next
        const at = yield* now
        const secret = newSigningSecret()
        yield* repo.insert({
          id,
          workspaceId: input.workspaceId,
          url: url.toString(),
          eventKinds: [...new Set(input.body.eventKinds)],
          description: input.body.description ?? null,
          secretSealed: cipher.seal(id, secret),
          createdBy: input.accountId,
          at
        })
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "webhook.created",
          target: { type: "webhook_subscription", id },
          details: { eventKinds: [...new Set(input.body.eventKinds)].join(" ") }
        })
        const subscription = yield* findOrFail(input.workspaceId, id).pipe(Effect.orDie)
        return { ...subscription, secret: Redacted.value(secret) }
      })

    /** Workspaces_ListWebhookSubscriptions: the live subscriptions, newest first (secrets never shown). */
    const list = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly limit: number
      readonly cursor?: string | undefined
    }) =>
      Effect.gen(function*() {
        yield* manage(input, "Reading the workspace's webhook subscriptions")
        const page = yield* cursor.page({
          position: WebhookPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: { operation: "Workspaces_ListWebhookSubscriptions", workspace: input.workspaceId, principal: input.accountId },
          limit: input.limit,
          fetch: (after, take) => repo.list({ workspaceId: input.workspaceId, after, take }),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.subscription), nextCursor: page.nextCursor }
      })

    /** Workspaces_ListWebhookDeliveries: one subscription's deliveries, newest first. */
    const deliveries = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly subscriptionId: string
      readonly limit: number
      readonly cursor?: string | undefined
      readonly state?: string | undefined
    }) =>
      Effect.gen(function*() {
        yield* manage(input, "Reading webhook deliveries")
        yield* findOrFail(input.workspaceId, input.subscriptionId)
        const state = input.state ?? null
        const page = yield* cursor.page({
          position: WebhookPosition,
          cursor: input.cursor,
          param: "cursor",
          binding: {
            operation: "Workspaces_ListWebhookDeliveries",
            workspace: input.workspaceId,
            subscription: input.subscriptionId,
            principal: input.accountId,
            state
          },
          limit: input.limit,
          fetch: (after, take) => repo.deliveries({ subscriptionId: input.subscriptionId, state, after, take }),
          positionOf: (row) => row.position
        })
        return { rows: page.rows.map((row) => row.delivery), nextCursor: page.nextCursor }
      })

    /** The versioned change of a live subscription of the workspace, or why it changed nothing. */
    const versioned = (input: {
      readonly workspaceId: string
      readonly subscriptionId: string
      readonly expectedVersion: number
      readonly set: Statement.Fragment
    }) =>
      Effect.gen(function*() {
        const changed = yield* updateVersioned({
          table: "webhook_subscriptions",
          id: input.subscriptionId,
          expectedVersion: input.expectedVersion,
          set: input.set,
          where: [sql`workspace_id = ${input.workspaceId}`, sql`deleted_at IS NULL`]
        }).pipe(Effect.orDie)
        if (Option.isSome(changed)) return
        const current = yield* repo.find(input.workspaceId, input.subscriptionId)
        return yield* explainRefusal({
          resource: "webhook-subscription",
          id: input.subscriptionId,
          notFound,
          current,
          expectedVersion: input.expectedVersion
        })
      })

    /**
     * Workspaces_DeleteWebhookSubscription: the subscription at `expectedVersion` is deleted (it
     * takes no more events; its PENDING deliveries are CANCELLED; its history stays); returns it as deleted. Fails with
     * the access refusals, `WebhookSubscriptionNotFound`, `VersionConflict`.
     */
    const remove = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly subscriptionId: string
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        yield* manage(input, "Deleting a webhook subscription")
        const at = yield* now
        yield* versioned({ ...input, set: sql`deleted_at = ${at}, updated_at = ${at}` })
        yield* repo.cancelPending(input.subscriptionId)
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "webhook.deleted",
          target: { type: "webhook_subscription", id: input.subscriptionId }
        })
        return yield* Effect.flatMap(repo.find(input.workspaceId, input.subscriptionId, true), Option.match({
          onNone: () => Effect.dieMessage("webhook subscription vanished in its transaction"),
          onSome: Effect.succeed
        }))
      })

    /**
     * Workspaces_RotateWebhookSecret: a new signing secret (returned once); the previous one keeps
     * signing deliveries, beside the new one, for {@link PreviousSecretGraceMillis}. Fails with the
     * access refusals, `WebhookSubscriptionNotFound`, `VersionConflict`.
     */
    const rotate = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly subscriptionId: string
      readonly expectedVersion: number
    }) =>
      Effect.gen(function*() {
        yield* manage(input, "Rotating a webhook secret")
        const at = yield* now
        const current = yield* repo.lockSecrets(input.workspaceId, input.subscriptionId)
        if (Option.isNone(current)) return yield* notFound()
        const secret = newSigningSecret()
        const until = new Date(at.getTime() + PreviousSecretGraceMillis)
        yield* versioned({
          ...input,
          set: sql`secret_sealed = ${cipher.seal(input.subscriptionId, secret)},
            previous_secret_sealed = ${current.value.secretSealed}, previous_secret_until = ${until}, updated_at = ${at}`
        })
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "webhook.secret_rotated",
          target: { type: "webhook_subscription", id: input.subscriptionId }
        })
        const subscription = yield* findOrFail(input.workspaceId, input.subscriptionId).pipe(Effect.orDie)
        return { ...subscription, secret: Redacted.value(secret) }
      })

    return { create, list, deliveries, remove, rotate }
  }),
  dependencies: [WebhooksRepo.Default, MembersRepo.Default]
}) {}
