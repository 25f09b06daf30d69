/** HTTP handlers of the Services area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { CurrentPrincipal, currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Services } from "./Services.js"

export const ServicesHttpLive = group(Api, "Services", (handlers) =>
  Effect.gen(function*() {
    const services = yield* Services
    const envelope = yield* Envelope
    const offerId = (path: { readonly offerId: string }) => path.offerId.toLowerCase()
    return handlers
      .handle("createServiceOffer", ({ payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.create({ ...payload, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
      .handle("getServiceOffer", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          services.get(offerId(path), principal._tag === "Session" ? principal.accountId : null).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("updateServiceOffer", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.update({ ...payload, offerId: offerId(path), accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("setOfferPrices", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.setPrices({ ...payload, offerId: offerId(path), accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("createTermsRevision", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.addTerms({ ...payload, offerId: offerId(path), accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("publishServiceOffer", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.publish({ offerId: offerId(path), version: payload.version, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("pauseServiceOffer", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.pause({ offerId: offerId(path), version: payload.version, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("retireServiceOffer", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          services.retire({ offerId: offerId(path), version: payload.version, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("listAgentOffers", ({ path, urlParams }) =>
        services.listForAgent(path.agentId, urlParams).pipe(
          Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
        ))
  }))
