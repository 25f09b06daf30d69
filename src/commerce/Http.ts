/** HTTP handlers of the Commerce area. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { CommerceRepo } from "./Repo.js"
import { group } from "../http/group.js"

export const CommerceHttpLive = group(Api, "Commerce", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* CommerceRepo
    const envelope = yield* Envelope
    return handlers.handle("listCommerceOrders", () =>
      currentSession.pipe(
        Effect.flatMap((session) => repo.ordersOfMember(session.accountId)),
        Effect.flatMap(envelope.data)
      ))
  }))
