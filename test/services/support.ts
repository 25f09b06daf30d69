/**
 * Helpers for the Services_PublishServiceOffer, concurrency and idempotency tests
 * (test/services, test/idempotency): the publish call and direct reads of the
 * offer row and the idempotency records.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { call, type CallOptions, type Reply } from "../support/http.js"
import { DemoOffers } from "../../demo/services/seed.js"

export type DemoOfferName = keyof typeof DemoOffers

/** The publish path of an offer (a demo offer name or any string as the id). */
export const publishPath = (offer: DemoOfferName | string) =>
  `/api/v1/offers/${offer in DemoOffers ? DemoOffers[offer as DemoOfferName].id : offer}/publish`

/** POST /api/v1/offers/{offerId}/publish. */
export const publish = (offer: DemoOfferName | string, options: CallOptions = {}) =>
  call("POST", publishPath(offer), options)

/** An offer row as stored. */
export interface OfferRow {
  readonly state: string
  readonly version: number
  readonly publishedAt: string | null
  readonly updatedAt: string
}

/** Reads an offer's row straight from the database. */
export const readOffer = (offer: DemoOfferName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<OfferRow>`SELECT state, version::int AS version,
        api_ts(published_at) AS "publishedAt", api_ts(updated_at) AS "updatedAt"
      FROM service_offers WHERE id = ${DemoOffers[offer].id}`
    expect(rows).toHaveLength(1)
    return rows[0]!
  }).pipe(Effect.orDie)

/**
 * Puts every demo offer that is not published in the demo data back to its demo
 * state and version, so that each test starts from the demo data whatever ran before.
 */
export const restoreOffers = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const offer of Object.values(DemoOffers)) {
    if (offer.state === "PUBLISHED") continue
    yield* sql`UPDATE service_offers SET state = ${offer.state}, version = ${offer.version}, published_at = NULL
      WHERE id = ${offer.id}`
  }
}).pipe(Effect.orDie)

/** Number of stored idempotency records for a key. */
export const countIdempotencyRecords = (key: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM idempotency_records WHERE idempotency_key = ${key}`
    return rows[0]!.n
  }).pipe(Effect.orDie)

/** Asserts a replayed response: marked with `idempotent-replayed: true`, byte-identical to the original. */
export const expectReplayOf = (replay: Reply, original: Reply) => {
  expect(replay.headers["idempotent-replayed"]).toBe("true")
  expect(replay.status).toBe(original.status)
  expect(replay.text).toBe(original.text)
  expect(replay.headers["content-type"]?.split(";")[0]).toBe(original.headers["content-type"]?.split(";")[0])
}

/** Asserts a response that was executed, not replayed. */
export const expectNotReplayed = (reply: Reply) => {
  expect(reply.headers["idempotent-replayed"]).toBeUndefined()
}
