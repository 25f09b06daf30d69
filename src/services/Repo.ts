/**
 * SQL of the Services area: service offers with their current terms and prices.
 * Rows are built in the wire shape of `ServiceOffer` (spec §2.5) and decoded with it.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ServiceOffer } from "./Schemas.js"
import { updateVersioned } from "../db/versioned.js"
import { rolesFor } from "../../schema/roles.js"

/** What the publish rules need to know about an offer, as seen by one account. */
export const OfferAccess = Schema.Struct({
  state: Schema.String,
  version: Schema.Number,
  role: Schema.NullOr(Schema.String),
  hasCurrentPrice: Schema.Boolean,
  hasTerms: Schema.Boolean
})
export type OfferAccess = typeof OfferAccess.Type

/** States an offer can be published from. */
export const PublishableFrom: ReadonlyArray<string> = ["DRAFT", "REVIEW", "PAUSED"]


const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const currentPrice = (at: Date) =>
    sql`EXISTS (SELECT 1 FROM service_offer_prices p WHERE p.offer_id = o.id
        AND p.effective_from <= ${at} AND (p.effective_until IS NULL OR p.effective_until > ${at}))`
  const hasTerms = sql`EXISTS (SELECT 1 FROM service_offer_terms t WHERE t.offer_id = o.id)`

  /** The offer in its wire shape, or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: ServiceOffer,
    execute: (id) =>
      sql`SELECT o.id, o.service_id AS "serviceId", o.state, o.version::float8 AS version, o.title, o.slug,
            o.description, o.pricing_model AS "pricingModel", o.fulfillment_policy_version AS "fulfillmentPolicyVersion",
            (SELECT json_build_object('id', t.id, 'revision', t.revision, 'termsMarkdown', t.terms_markdown,
                                      'createdAt', api_ts(t.created_at))
               FROM service_offer_terms t WHERE t.offer_id = o.id ORDER BY t.revision DESC LIMIT 1) AS "termsRevision",
            api_ts(o.published_at) AS "publishedAt",
            COALESCE((SELECT json_agg(json_build_object('id', p.id, 'version', p.version, 'networkPublicId', p.network_id,
                        'assetPublicId', p.asset_id, 'units', p.units::text, 'effectiveFrom', api_ts(p.effective_from),
                        'effectiveUntil', api_ts(p.effective_until), 'x402ResourceTemplate', p.x402_resource_template)
                        ORDER BY p.effective_from, p.id)
               FROM service_offer_prices p WHERE p.offer_id = o.id), '[]'::json) AS prices
          FROM service_offers o WHERE o.id = ${id}`
  })

  /** The offer's state and the account's role in its workspace, or none if the offer does not exist. */
  const access = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.String, at: Schema.DateFromSelf }),
    Result: OfferAccess,
    execute: ({ accountId, at, id }) =>
      sql`SELECT o.state, o.version::float8 AS version, m.role,
            ${currentPrice(at)} AS "hasCurrentPrice", ${hasTerms} AS "hasTerms"
          FROM service_offers o JOIN services s ON s.id = o.service_id
          LEFT JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
          WHERE o.id = ${id}`
  })

  /**
   * Publishes in one conditional statement (the shared optimistic-concurrency
   * mechanism, `src/db/versioned.ts`), only if every rule holds (version, state,
   * current price, terms, editor role). Returns the new version, or none.
   */
  const publish = (r: { id: string; version: number; accountId: string; at: Date }) =>
    updateVersioned({
      table: "service_offers",
      id: r.id,
      expectedVersion: r.version,
      set: sql`state = 'PUBLISHED', published_at = ${r.at}, updated_at = ${r.at}`,
      fromStates: PublishableFrom,
      where: [
        sql`EXISTS (SELECT 1 FROM service_offers o WHERE o.id = service_offers.id AND ${currentPrice(r.at)} AND ${hasTerms})`,
        sql`EXISTS (SELECT 1 FROM services s JOIN workspace_members m ON m.workspace_id = s.workspace_id
                    WHERE s.id = service_offers.service_id AND m.account_id = ${r.accountId} AND m.state = 'ACTIVE'
                      AND m.role IN ${sql.in(rolesFor("services.offers.write"))})`
      ]
    })

  /** The agent an offer's service belongs to (none for a service of no agent, or no such offer). */
  const agentOf = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ agentId: Schema.String }),
    execute: (id) =>
      sql`SELECT s.agent_id AS "agentId" FROM service_offers o JOIN services s ON s.id = o.service_id
          WHERE o.id = ${id} AND s.agent_id IS NOT NULL`
  })

  return { findById, access, publish, agentOf } as const
})

/** SQL of the Services area. */
export class ServicesRepo extends Effect.Service<ServicesRepo>()("agent-directory/ServicesRepo", { effect: make }) {}
