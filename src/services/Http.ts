/** HTTP handlers of the Services area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Services } from "./Services.js"

export const ServicesHttpLive = group(Api, "Services", (handlers) =>
  Effect.gen(function*() {
    const services = yield* Services
    const envelope = yield* Envelope
    return handlers.handle("publishServiceOffer", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        services.publish({ offerId: path.offerId, version: payload.version, accountId: session.accountId }).pipe(
          Effect.flatMap(envelope.data)
        )))
  }))
