/** HTTP handlers of the Services area: decode → service → envelope. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Idempotency } from "../../layers/Idempotency.js"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { Services } from "./Services.js"

export const ServicesHttpLive = HttpApiBuilder.group(Api, "Services", (handlers) =>
  Effect.gen(function*() {
    const services = yield* Services
    const idempotency = yield* Idempotency
    const envelope = yield* Envelope
    return handlers.handle("publishServiceOffer", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        idempotency.run(
          { path, payload },
          services.publish({ offerId: path.offerId, version: payload.version, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )
        )))
  }))
