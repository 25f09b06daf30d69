/**
 * Domain rules of the Services area (spec §2.5, §3, §4.3).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { OfferIncomplete, OfferNotFound } from "./Errors.js"
import { recordActivity } from "../../layers/Activity.js"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { runVersioned } from "../db/versioned.js"
import { PublishableFrom, ServicesRepo } from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { rolesFor } from "../../schema/roles.js"

/** Service offers: publication. Requires `SqlClient`, `Ids`. */
export class Services extends Effect.Service<Services>()("agent-directory/Services", {
  effect: Effect.gen(function*() {
    const repo = yield* ServicesRepo
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids

    /**
     * Services_PublishServiceOffer (spec §4.3): moves the offer to PUBLISHED and sets
     * `publishedAt`, when `version` is the current version (optimistic concurrency),
     * the state is DRAFT, REVIEW or PAUSED, and the offer has a current price and
     * terms. The change is one conditional UPDATE through the shared optimistic
     * concurrency of `src/db/versioned.ts`, so concurrent publishes at one version
     * succeed exactly once.
     *
     * Fails with `NotFound` (no such offer, or the caller is not a member of its
     * workspace), `Forbidden` (member without an editor role), `Conflict`
     * (`version-conflict`, `invalid-state`, `offer-incomplete`).
     *
     * An offer of an agent's service records, in the same transaction, the agent's public
     * activity item DOMAIN_EVENT `offer.published` (spec §2.21), once per offer version published.
     */
    const publish = (input: { readonly offerId: string; readonly version: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        yield* runVersioned({
          resource: "service offer",
          expectedVersion: input.version,
          fromStates: PublishableFrom,
          roles: rolesFor("services.offers.write"),
          update: repo.publish({ id: input.offerId, version: input.version, accountId: input.accountId, at }),
          current: repo.access({ id: input.offerId, accountId: input.accountId, at }),
          notFound: () => new OfferNotFound({ detail: `No service offer ${input.offerId}.` }),
          otherwise: (offer): OfferIncomplete =>
            new OfferIncomplete({
              detail: !offer.hasTerms ? "The offer has no terms revision." : "The offer has no current price."
            })
        })
        const offer = yield* repo.findById(input.offerId).pipe(Effect.flatMap(Effect.orDie))
        const agent = yield* repo.agentOf(input.offerId)
        if (Option.isSome(agent)) {
          yield* recordActivity({
            agentId: agent.value.agentId,
            activityKey: "offer.published",
            dedupeKey: `offer.published:${offer.id}:${offer.version}`,
            sourceKind: "DOMAIN_EVENT",
            summary: `Published the offer ${offer.title}.`,
            occurredAt: at
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(Ids, ids))
        }
        return offer
      }).pipe(dieOnStorageFailure)

    return { publish }
  }),
  dependencies: [ServicesRepo.Default]
}) {}
