/**
 * SQL of the Services area: services, their offers with terms revisions and prices.
 * Rows are built in the wire shape of `ServiceOffer` (spec §2.5) and decoded with it.
 */
import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { type FulfillmentInput, ServiceOffer } from "./Schemas.js"
import { updateVersioned } from "../db/versioned.js"
import { rolesFor } from "../../schema/roles.js"

/** What the command rules need to know about an offer, as seen by one account. */
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
/** States whose offer can be edited, priced and given new terms (every state but RETIRED). */
export const EditableFrom: ReadonlyArray<string> = ["DRAFT", "REVIEW", "PUBLISHED", "PAUSED", "SUSPENDED"]
/** States an offer can be paused from. */
export const PausableFrom: ReadonlyArray<string> = ["PUBLISHED"]
/** States an offer can be retired from (RETIRED is final). */
export const RetirableFrom: ReadonlyArray<string> = ["DRAFT", "REVIEW", "PUBLISHED", "PAUSED", "SUSPENDED"]

/** The keyset position of Services_ListAgentOffers: newest publication first, then id. */
export const AgentOfferPosition = Schema.Struct({ publishedAt: Schema.String, id: Schema.String })
export type AgentOfferPosition = typeof AgentOfferPosition.Type

/** An asset as a price needs it: its network. */
const AssetRow = Schema.Struct({ id: Schema.String, networkId: Schema.String })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const currentPrice = (at: Date) =>
    sql`EXISTS (SELECT 1 FROM service_offer_prices p WHERE p.offer_id = o.id
        AND p.effective_from <= ${at} AND (p.effective_until IS NULL OR p.effective_until > ${at}))`
  const hasTerms = sql`EXISTS (SELECT 1 FROM service_offer_terms t WHERE t.offer_id = o.id)`

  /** The wire columns of offer `o`; `at`: only the prices in effect then (else every price, oldest first). */
  const offerColumns = (at: Date | undefined) =>
    sql`o.id, o.service_id AS "serviceId", o.state, o.version::float8 AS version, o.title, o.slug,
        o.description, o.pricing_model AS "pricingModel", o.fulfillment_policy_version AS "fulfillmentPolicyVersion",
        (SELECT json_build_object('id', t.id, 'revision', t.revision, 'termsMarkdown', t.terms_markdown,
                                  'createdAt', api_ts(t.created_at))
           FROM service_offer_terms t WHERE t.offer_id = o.id ORDER BY t.revision DESC LIMIT 1) AS "termsRevision",
        api_ts(o.published_at) AS "publishedAt",
        COALESCE((SELECT json_agg(json_build_object('id', p.id, 'version', p.version, 'networkPublicId', p.network_id,
                    'assetPublicId', p.asset_id, 'units', p.units::text, 'effectiveFrom', api_ts(p.effective_from),
                    'effectiveUntil', api_ts(p.effective_until), 'x402ResourceTemplate', p.x402_resource_template)
                    ORDER BY p.effective_from, p.version, p.network_id NULLS FIRST, p.asset_id, p.id)
           FROM service_offer_prices p WHERE p.offer_id = o.id ${
      at === undefined ? sql`` : sql`AND p.effective_from <= ${at} AND (p.effective_until IS NULL OR p.effective_until > ${at})`
    }), '[]'::json) AS prices,
        json_build_object('entitlementCode', COALESCE(o.entitlement_code, upper(regexp_replace(o.slug, '[^a-zA-Z0-9]+', '_', 'g'))), 'entitlementDays', o.entitlement_days,
          'graceDays', o.grace_days, 'runtimeAccess', o.runtime_access, 'runQuota', o.run_quota,
          'payoutAddress', o.payout_address) AS fulfillment`

  /** The offer in its wire shape (every price, its windows included), or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: ServiceOffer,
    execute: (id) => sql`SELECT ${offerColumns(undefined)} FROM service_offers o WHERE o.id = ${id}`
  })

  /** The offer if `accountId` (null: anonymous) may read it: PUBLISHED, or the caller is an ACTIVE member of its workspace. */
  const findVisible = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.NullOr(Schema.String) }),
    Result: ServiceOffer,
    execute: ({ accountId, id }) =>
      sql`SELECT ${offerColumns(undefined)} FROM service_offers o JOIN services s ON s.id = o.service_id
          WHERE o.id = ${id} AND (o.state = 'PUBLISHED' OR EXISTS (
            SELECT 1 FROM workspace_members m WHERE m.workspace_id = s.workspace_id AND m.account_id = ${accountId}
              AND m.state = 'ACTIVE'))`
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

  /** The caller holds `services.offers.write` in the workspace of the offer's service (a condition on `service_offers`). */
  const editorOf = (accountId: string) =>
    sql`EXISTS (SELECT 1 FROM services s JOIN workspace_members m ON m.workspace_id = s.workspace_id
                WHERE s.id = service_offers.service_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
                  AND m.role IN ${sql.in(rolesFor("services.offers.write"))})`

  /** A versioned change of an offer by an editor (`src/db/versioned.ts`); returns the new version, or none. */
  const change = (r: {
    readonly id: string
    readonly version: number
    readonly accountId: string
    readonly set: Statement.Fragment
    readonly fromStates: ReadonlyArray<string>
    readonly where?: ReadonlyArray<Statement.Fragment>
  }) =>
    updateVersioned({
      table: "service_offers",
      id: r.id,
      expectedVersion: r.version,
      set: r.set,
      fromStates: r.fromStates,
      where: [...(r.where ?? []), editorOf(r.accountId)]
    })

  /**
   * Publishes in one conditional statement, only if every rule holds (version, state,
   * current price, terms, editor role). Returns the new version, or none.
   */
  const publish = (r: { id: string; version: number; accountId: string; at: Date }) =>
    change({
      id: r.id,
      version: r.version,
      accountId: r.accountId,
      set: sql`state = 'PUBLISHED', published_at = ${r.at}, updated_at = ${r.at}`,
      fromStates: PublishableFrom,
      where: [sql`EXISTS (SELECT 1 FROM service_offers o WHERE o.id = service_offers.id AND ${currentPrice(r.at)} AND ${hasTerms})`]
    })

  /** The agent an offer's service belongs to (none for a service of no agent, or no such offer). */
  const agentOf = SqlSchema.findOne({
    Request: Schema.String,
    Result: Schema.Struct({ agentId: Schema.String }),
    execute: (id) =>
      sql`SELECT s.agent_id AS "agentId" FROM service_offers o JOIN services s ON s.id = o.service_id
          WHERE o.id = ${id} AND s.agent_id IS NOT NULL`
  })

  /**
   * The service of agent `agentId` in workspace `workspaceId`, created (named after the agent) when it
   * has none; concurrent first offers share one row (`services_agent_idx`). Returns its id.
   */
  const ensureService = (r: { readonly newId: string; readonly agentId: string; readonly workspaceId: string }) =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO services (id, workspace_id, agent_id, name)
        SELECT ${r.newId}, ${r.workspaceId}, a.id, a.name FROM agents a WHERE a.id = ${r.agentId}
        ON CONFLICT (workspace_id, agent_id) WHERE agent_id IS NOT NULL DO NOTHING`
      const rows = yield* sql<{ readonly id: string }>`SELECT id FROM services
        WHERE workspace_id = ${r.workspaceId} AND agent_id = ${r.agentId}`
      return rows[0]!.id
    })

  /** The fulfillment policy's columns, as assignments. */
  const fulfillmentSet = (f: FulfillmentInput) =>
    sql`entitlement_code = ${f.entitlementCode}, entitlement_days = ${f.entitlementDays}, grace_days = ${f.graceDays},
        runtime_access = ${f.runtimeAccess}, run_quota = ${f.runQuota}, payout_address = ${f.payoutAddress}`

  /** Whether the offer's policy differs from `f` (a boolean SQL expression on `service_offers`). */
  const fulfillmentChanged = (f: FulfillmentInput) =>
    sql`(entitlement_code, entitlement_days, grace_days, runtime_access, run_quota, payout_address) IS DISTINCT FROM
        (${f.entitlementCode}::text, ${f.entitlementDays}::integer, ${f.graceDays}::integer, ${f.runtimeAccess}::boolean,
         ${f.runQuota}::integer, ${f.payoutAddress}::text)`

  /** Inserts a DRAFT offer at version 1 unless its slug is taken in the service; true when inserted. */
  const insertOffer = (r: {
    readonly id: string
    readonly serviceId: string
    readonly title: string
    readonly slug: string
    readonly description: string
    readonly pricingModel: string
    readonly fulfillment: FulfillmentInput
    readonly at: Date
  }) =>
    Effect.map(
      sql<{ readonly id: string }>`INSERT INTO service_offers (id, service_id, state, version, title, slug, description,
          pricing_model, fulfillment_policy_version, published_at, created_at, updated_at, entitlement_code,
          entitlement_days, grace_days, runtime_access, run_quota, payout_address)
        VALUES (${r.id}, ${r.serviceId}, 'DRAFT', 1, ${r.title}, ${r.slug}, ${r.description}, ${r.pricingModel}, 1, NULL,
          ${r.at}, ${r.at}, ${r.fulfillment.entitlementCode}, ${r.fulfillment.entitlementDays}, ${r.fulfillment.graceDays},
          ${r.fulfillment.runtimeAccess}, ${r.fulfillment.runQuota}, ${r.fulfillment.payoutAddress})
        ON CONFLICT (service_id, slug) DO NOTHING RETURNING id`,
      (rows) => rows.length === 1
    )

  /** Whether another offer of the offer's service than `offerId` has `slug`. */
  const slugTakenBeside = (offerId: string, slug: string) =>
    Effect.map(
      sql<{ readonly taken: boolean }>`SELECT EXISTS (SELECT 1 FROM service_offers o JOIN service_offers x
          ON x.service_id = o.service_id AND x.id <> o.id AND x.slug = ${slug} WHERE o.id = ${offerId}) AS taken`,
      (rows) => rows[0]?.taken === true
    )

  /** Appends the next terms revision of an offer (1 for its first). */
  const insertTerms = (r: { readonly id: string; readonly offerId: string; readonly termsMarkdown: string; readonly at: Date }) =>
    sql`INSERT INTO service_offer_terms (id, offer_id, revision, terms_markdown, created_at)
      SELECT ${r.id}, ${r.offerId}, COALESCE(MAX(revision), 0) + 1, ${r.termsMarkdown}, ${r.at}
      FROM service_offer_terms WHERE offer_id = ${r.offerId}`

  /**
   * Closes every price window of the offer still open at `from` (its end becomes `from`, or its start
   * for a price not yet in effect: an empty window); the rows are otherwise never rewritten, so an
   * order's price stays as it was sold.
   */
  const closePrices = (offerId: string, from: Date) =>
    sql`UPDATE service_offer_prices SET effective_until = GREATEST(effective_from, ${from})
      WHERE offer_id = ${offerId} AND (effective_until IS NULL OR effective_until > ${from})`

  /** The next price set's `version` of the offer (1 for its first). */
  const nextPriceVersion = (offerId: string) =>
    Effect.map(
      sql<{ readonly version: number }>`SELECT (COALESCE(MAX(version), 0) + 1)::float8 AS version
        FROM service_offer_prices WHERE offer_id = ${offerId}`,
      (rows) => rows[0]!.version
    )

  /** Inserts one price row. */
  const insertPrice = (r: {
    readonly id: string
    readonly offerId: string
    readonly version: number
    readonly networkId: string | null
    readonly assetId: string
    readonly units: bigint
    readonly from: Date
    readonly until: Date | null
    readonly x402ResourceTemplate: string | null
  }) =>
    sql`INSERT INTO service_offer_prices (id, offer_id, version, network_id, asset_id, units, effective_from,
        effective_until, x402_resource_template)
      VALUES (${r.id}, ${r.offerId}, ${r.version}, ${r.networkId}, ${r.assetId}, ${r.units.toString()}, ${r.from},
        ${r.until}, ${r.x402ResourceTemplate})`

  /** The assets among `ids`, with their network. */
  const assets = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed([] as ReadonlyArray<typeof AssetRow.Type>)
      : Effect.flatMap(
        sql`SELECT id, network_id AS "networkId" FROM assets WHERE id IN ${sql.in(ids)}`,
        Schema.decodeUnknown(Schema.Array(AssetRow))
      )

  /** The CAIP-2 id of network `networkId` (null when it has none), or none when there is no such network. */
  const networkCaip2 = (networkId: string) =>
    Effect.map(
      sql<{ readonly caip2: string | null }>`SELECT caip2 FROM networks WHERE id = ${networkId}`,
      (rows) => Option.map(Option.fromNullable(rows[0]), (r) => r.caip2)
    )

  /** The id of the asset with CAIP-19 id `caip19`, or none. */
  const assetByCaip19 = (caip19: string) =>
    Effect.map(
      sql<{ readonly id: string }>`SELECT id FROM assets WHERE caip19 = ${caip19}`,
      (rows) => Option.map(Option.fromNullable(rows[0]), (r) => r.id)
    )

  /** Adds an asset row (nothing when one with its CAIP-19 id exists). */
  const insertAsset = (a: { readonly id: string; readonly networkId: string; readonly caip19: string; readonly symbol: string | null; readonly decimals: number }) =>
    sql`INSERT INTO assets (id, network_id, symbol, decimals, caip19)
        VALUES (${a.id}, ${a.networkId}, ${a.symbol}, ${a.decimals}, ${a.caip19}) ON CONFLICT (caip19) DO NOTHING`

  /** Whether agent `agentId` exists. */
  const agentExists = (agentId: string) =>
    Effect.map(
      sql<{ readonly found: boolean }>`SELECT EXISTS (SELECT 1 FROM agents WHERE id = ${agentId}) AS found`,
      (rows) => rows[0]?.found === true
    )

  /**
   * The PUBLISHED offers of agent `agentId` (through its services), newest publication first, after
   * `after`, at most `take`, each with the prices in effect at `at`.
   */
  const publishedOfAgent = (agentId: string, after: AgentOfferPosition | undefined, take: number, at: Date) =>
    Effect.flatMap(
      sql`SELECT ${offerColumns(at)}, api_ts(o.published_at) AS "position"
          FROM service_offers o JOIN services s ON s.id = o.service_id
          WHERE s.agent_id = ${agentId} AND o.state = 'PUBLISHED' ${
        after === undefined
          ? sql``
          : sql`AND (o.published_at < ${after.publishedAt}::timestamptz
                 OR (o.published_at = ${after.publishedAt}::timestamptz AND o.id > ${after.id}))`
      }
          ORDER BY o.published_at DESC, o.id LIMIT ${take}`,
      (rows) =>
        Schema.decodeUnknown(Schema.Array(Schema.Struct({ position: Schema.String, offer: ServiceOffer })))(
          rows.map((row) => {
            const { position, ...offer } = row as Record<string, unknown>
            return { position, offer }
          })
        )
    )

  return {
    findById,
    findVisible,
    access,
    change,
    publish,
    agentOf,
    ensureService,
    insertOffer,
    fulfillmentSet,
    fulfillmentChanged,
    slugTakenBeside,
    insertTerms,
    closePrices,
    nextPriceVersion,
    insertPrice,
    assets,
    networkCaip2,
    assetByCaip19,
    insertAsset,
    agentExists,
    publishedOfAgent
  } as const
})

/** SQL of the Services area. */
export class ServicesRepo extends Effect.Service<ServicesRepo>()("agent-directory/ServicesRepo", { effect: make }) {}
