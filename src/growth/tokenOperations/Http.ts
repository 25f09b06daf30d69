/**
 * HTTP handlers of the admin token operations (Growth_ListAdminTokenOperations,
 * Growth_CreateTokenOperation, Growth_ApproveTokenOperation, Growth_CancelTokenOperation).
 */
import { Effect } from "effect"
import { now } from "../../../layers/Clock.js"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { TokenOperations } from "./TokenOperations.js"

export const TokenOperationsHttpLive = group(Api, "TokenOperations", (handlers) =>
  Effect.gen(function*() {
    const operations = yield* TokenOperations
    const envelope = yield* Envelope
    return handlers
      .handle("listAdminTokenOperations", () =>
        Effect.gen(function*() {
          const asOf = yield* now
          const data = yield* operations.list
          const meta = yield* envelope.meta
          return { data, asOf, meta }
        }))
      .handle("createTokenOperation", ({ payload }) =>
        Effect.flatMap(currentSession, (session) => operations.create({ body: payload, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("approveTokenOperation", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          operations.approve({ id: path.operationId, expectedVersion: payload.expectedVersion, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("cancelTokenOperation", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          operations.cancel({ id: path.operationId, expectedVersion: payload.expectedVersion, accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
  }))
