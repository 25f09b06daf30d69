/**
 * Domain rules of the Services area (spec §2.5, §3, §4.3).
 */
import { Effect, Option } from "effect"
import { Conflict, Forbidden, NotFound } from "../../schema/problem.js"
import { now } from "../../layers/Clock.js"
import { OfferEditorRoles, PublishableFrom, ServicesRepo } from "./Repo.js"


/** Service offers: publication. Requires `SqlClient`. */
export class Services extends Effect.Service<Services>()("agent-directory/Services", {
  effect: Effect.gen(function*() {
    const repo = yield* ServicesRepo

    /**
     * Services_PublishServiceOffer (spec §4.3): moves the offer to PUBLISHED and sets
     * `publishedAt`, when `version` is the current version (optimistic concurrency),
     * the state is DRAFT, REVIEW or PAUSED, and the offer has a current price and
     * terms. The change is one conditional UPDATE, so concurrent publishes at one
     * version succeed exactly once.
     *
     * Fails with `NotFound` (no such offer, or the caller is not a member of its
     * workspace), `Forbidden` (member without an editor role), `Conflict`
     * (`version-conflict`, `invalid-state`, `offer-incomplete`).
     */
    const publish = (input: { readonly offerId: string; readonly version: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        const changed = yield* repo.publish({ id: input.offerId, version: input.version, accountId: input.accountId, at })
        if (!changed) return yield* explainRefusal(input, at)
        return yield* repo.findById(input.offerId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(Effect.catchTags({ SqlError: Effect.die, ParseError: Effect.die }))

    const explainRefusal = (input: { readonly offerId: string; readonly version: number; readonly accountId: string }, at: Date) =>
      Effect.gen(function*() {
        const found = yield* repo.access({ id: input.offerId, accountId: input.accountId, at })
        if (Option.isNone(found) || found.value.role === null) {
          return yield* new NotFound({ kind: "offer-not-found", detail: `No service offer ${input.offerId}.` })
        }
        const offer = found.value
        if (!(OfferEditorRoles as ReadonlyArray<string>).includes(offer.role!)) {
          return yield* new Forbidden({ kind: "role-required", detail: "Publishing needs the OWNER, ADMIN or EDITOR role in the offer's workspace." })
        }
        if (offer.version !== input.version) {
          return yield* new Conflict({
            kind: "version-conflict",
            detail: `The offer is at version ${offer.version}, not ${input.version}; reload it and retry.`
          })
        }
        if (!PublishableFrom.includes(offer.state)) {
          return yield* new Conflict({ kind: "invalid-state", detail: `An offer in state ${offer.state} cannot be published.` })
        }
        return yield* new Conflict({
          kind: "offer-incomplete",
          detail: !offer.hasTerms ? "The offer has no terms revision." : "The offer has no current price."
        })
      })

    return { publish }
  }),
  dependencies: [ServicesRepo.Default]
}) {}
