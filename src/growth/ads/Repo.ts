/** SQL of the ad campaigns area (spec §2.3): campaigns in their wire shape, and the rows the commands check. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { updateVersioned } from "../../db/versioned.js"
import { AdCampaign, type AdEventKind, type ReviewDecision } from "./Schemas.js"

/** Most campaigns one list returns (newest first). */
export const AdCampaignListLimit = 500

/** What Growth_CreateAdCampaign checks about its inputs, as one account sees them. */
const CreateContext = Schema.Struct({
  /** The caller's role in the workspace (null: not an ACTIVE member, or no such workspace). */
  role: Schema.NullOr(Schema.String),
  /** The order's state and product, when the order belongs to the workspace. */
  orderState: Schema.NullOr(Schema.String),
  orderProduct: Schema.NullOr(Schema.String),
  /** Whether a campaign already uses the order. */
  orderUsed: Schema.Boolean,
  /** The package version's package code and run length, when it exists. */
  packageCode: Schema.NullOr(Schema.String),
  durationDays: Schema.NullOr(Schema.Number),
  /** Whether `agentPublicId` (when given) is an agent of the workspace. */
  agentInWorkspace: Schema.Boolean
})

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // the wire shape of a campaign; its creative is the latest revision
  const select = sql`SELECT c.id, c.public_id AS "publicId", c.workspace_id AS "workspaceId", c.agent_id AS "agentPublicId",
      c.order_id AS "orderId", c.package_version_id AS "packageVersionId", p.name AS "packageName",
      p.placement_kind AS "placementKind", c.name, c.destination_url AS "destinationUrl", c.state,
      api_ts(c.start_at) AS "startAt", api_ts(c.end_at) AS "endAt",
      (SELECT json_build_object('id', cr.id, 'revision', cr.revision, 'kind', cr.kind, 'state', cr.state,
          'headline', cr.headline, 'body', cr.body, 'storageRef', cr.storage_ref, 'mediaType', cr.media_type,
          'widthPixels', cr.width_pixels, 'heightPixels', cr.height_pixels, 'sizeBytes', cr.size_bytes::text,
          'sha256', cr.sha256, 'altText', cr.alt_text)
        FROM ad_creatives cr WHERE cr.campaign_id = c.id ORDER BY cr.revision DESC LIMIT 1) AS creative,
      c.targets, json_build_object('impressions', c.impressions::text, 'clicks', c.clicks::text,
        'uniqueVisitors', c.unique_visitors::text) AS metrics,
      c.version::float8 AS version, api_ts(c.created_at) AS "createdAt", api_ts(c.updated_at) AS "updatedAt"
    FROM ad_campaigns c
    JOIN ad_package_versions v ON v.id = c.package_version_id
    JOIN ad_packages p ON p.id = v.package_id`

  const order = sql`ORDER BY c.created_at DESC, c.id DESC LIMIT ${AdCampaignListLimit}`

  /** The newest {@link AdCampaignListLimit} campaigns of the workspaces where the account is an ACTIVE member. */
  const listForAccount = SqlSchema.findAll({
    Request: Schema.String,
    Result: AdCampaign,
    execute: (accountId) =>
      sql`${select} WHERE c.workspace_id IN (SELECT workspace_id FROM workspace_members
          WHERE account_id = ${accountId} AND state = 'ACTIVE') ${order}`
  })

  /** The newest {@link AdCampaignListLimit} campaigns of every workspace. */
  const listAll = SqlSchema.findAll({
    Request: Schema.Void,
    Result: AdCampaign,
    execute: () => sql`${select} ${order}`
  })

  /** One campaign in its wire shape. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: AdCampaign,
    execute: (id) => sql`${select} WHERE c.id = ${id}`
  })

  /** Everything Growth_CreateAdCampaign checks, in one read (one campaign per order is kept by {@link insert}). */
  const createContext = SqlSchema.single({
    Request: Schema.Struct({
      accountId: Schema.String,
      workspaceId: Schema.String,
      orderId: Schema.String,
      packageVersionId: Schema.String,
      agentId: Schema.NullOr(Schema.String)
    }),
    Result: CreateContext,
    execute: (r) =>
      sql`SELECT
            (SELECT m.role FROM workspace_members m
              WHERE m.workspace_id = ${r.workspaceId} AND m.account_id = ${r.accountId} AND m.state = 'ACTIVE') AS role,
            o.state AS "orderState", o.product_code AS "orderProduct",
            EXISTS (SELECT 1 FROM ad_campaigns c WHERE c.order_id = ${r.orderId}) AS "orderUsed",
            (SELECT p.code FROM ad_package_versions v JOIN ad_packages p ON p.id = v.package_id
              WHERE v.id = ${r.packageVersionId}) AS "packageCode",
            (SELECT v.duration_days FROM ad_package_versions v WHERE v.id = ${r.packageVersionId}) AS "durationDays",
            (${r.agentId}::uuid IS NULL OR EXISTS (SELECT 1 FROM agents a
              WHERE a.id = ${r.agentId}::uuid AND a.workspace_id = ${r.workspaceId})) AS "agentInWorkspace"
          FROM (SELECT 1) one
          LEFT JOIN orders o ON o.id = ${r.orderId} AND o.workspace_id = ${r.workspaceId}`
  })

  /**
   * Inserts a new campaign with its first (TEXT) creative and zero metrics; false (nothing
   * written) when another campaign already uses the order.
   */
  const insert = (c: {
    readonly id: string
    readonly publicId: string
    readonly creativeId: string
    readonly workspaceId: string
    readonly agentId: string | null
    readonly orderId: string
    readonly packageVersionId: string
    readonly name: string
    readonly destinationUrl: string
    readonly state: "DRAFT" | "PAYMENT_PENDING"
    readonly startAt: Date
    readonly endAt: Date
    readonly targets: ReadonlyArray<{ readonly dimension: string; readonly value: string; readonly exclude: boolean }>
    readonly headline: string
    readonly body: string | null
    readonly accountId: string
    readonly at: Date
  }) =>
    Effect.gen(function*() {
      const inserted = yield* sql`INSERT INTO ad_campaigns ${
        sql.insert({
          id: c.id,
          public_id: c.publicId,
          workspace_id: c.workspaceId,
          agent_id: c.agentId,
          order_id: c.orderId,
          package_version_id: c.packageVersionId,
          name: c.name,
          destination_url: c.destinationUrl,
          state: c.state,
          start_at: c.startAt,
          end_at: c.endAt,
          targets: JSON.stringify(c.targets),
          created_by: c.accountId,
          version: 1,
          created_at: c.at,
          updated_at: c.at
        })
      } ON CONFLICT (order_id) DO NOTHING RETURNING id`
      if (inserted.length === 0) return false
      yield* sql`INSERT INTO ad_creatives ${
        sql.insert({
          id: c.creativeId,
          campaign_id: c.id,
          revision: 1,
          kind: "TEXT",
          state: "DRAFT",
          headline: c.headline,
          body: c.body,
          created_at: c.at
        })
      }`
      return true
    })

  /**
   * Records one ad event of an ACTIVE campaign whose window is open at `at`
   * (`start_at` <= `at` < `end_at`): increments its counter, stores the event row and,
   * for an impression of a visitor not seen before, the visitor and `unique_visitors`.
   * False (nothing written) when the campaign is not ACTIVE, its window is not open (an
   * ended campaign the lifecycle cron has not moved to COMPLETED yet) or it does not
   * exist. The counter's conditional UPDATE comes first, so the checks and the increment
   * are one statement.
   */
  const recordEvent = (e: {
    readonly id: string
    readonly campaignId: string
    readonly kind: AdEventKind
    readonly placement: string
    readonly visitor: string
    readonly at: Date
  }) =>
    Effect.gen(function*() {
      const counter = sql(e.kind === "IMPRESSION" ? "impressions" : "clicks")
      const counted = yield* sql`UPDATE ad_campaigns SET ${counter} = ${counter} + 1
          WHERE id = ${e.campaignId} AND state = 'ACTIVE'
            AND (start_at IS NULL OR start_at <= ${e.at}) AND (end_at IS NULL OR end_at > ${e.at}) RETURNING id`
      if (counted.length === 0) return false
      yield* sql`INSERT INTO ad_events ${
        sql.insert({ id: e.id, campaign_id: e.campaignId, kind: e.kind, placement: e.placement, visitor: e.visitor, occurred_at: e.at })
      }`
      if (e.kind === "IMPRESSION") {
        const seen = yield* sql`INSERT INTO ad_campaign_visitors (campaign_id, visitor, first_seen_at)
            VALUES (${e.campaignId}, ${e.visitor}, ${e.at}) ON CONFLICT DO NOTHING RETURNING visitor`
        if (seen.length === 1) yield* sql`UPDATE ad_campaigns SET unique_visitors = unique_visitors + 1 WHERE id = ${e.campaignId}`
      }
      return true
    })

  /** Stores an applied review: its audit event (admin_audit_events) and the review row with the private decision. */
  const recordReview = (r: {
    readonly id: string
    readonly auditEventId: string
    readonly campaignId: string
    readonly reviewerAccountId: string
    readonly decision: ReviewDecision
    readonly decisionCode: string
    readonly publicDecision: string
    readonly privateDecision: string
    readonly fromState: string
    readonly toState: string
    readonly version: number
    readonly at: Date
  }) =>
    Effect.zipRight(
      sql`INSERT INTO admin_audit_events ${
        sql.insert({
          id: r.auditEventId,
          actor_account_id: r.reviewerAccountId,
          action: "Growth_ReviewAdCampaign",
          subject_kind: "ad-campaign",
          subject_id: r.campaignId,
          reason: r.publicDecision,
          detail: JSON.stringify({
            reviewId: r.id,
            decision: r.decision,
            decisionCode: r.decisionCode,
            fromState: r.fromState,
            toState: r.toState,
            version: r.version
          }),
          created_at: r.at
        })
      }`,
      sql`INSERT INTO ad_campaign_reviews ${
        sql.insert({
          id: r.id,
          campaign_id: r.campaignId,
          audit_event_id: r.auditEventId,
          reviewer_account_id: r.reviewerAccountId,
          decision: r.decision,
          decision_code: r.decisionCode,
          public_decision: r.publicDecision,
          private_decision: r.privateDecision,
          from_state: r.fromState,
          to_state: r.toState,
          created_at: r.at
        })
      }`
    )

  /** Moves the latest creative of a campaign to `state`. */
  const setCreativeState = (campaignId: string, state: string) =>
    sql`UPDATE ad_creatives SET state = ${state} WHERE campaign_id = ${campaignId}
        AND revision = (SELECT max(revision) FROM ad_creatives WHERE campaign_id = ${campaignId})`

  /**
   * The lifecycle's start move (`src/growth/ads/Lifecycle.ts`): every APPROVED or SCHEDULED
   * campaign whose window is open at `at` (`start_at` <= `at` < `end_at`) → ACTIVE, in
   * one conditional UPDATE (version + 1, `updated_at` = `at`). Returns the ids moved; a
   * second call at the same time moves nothing.
   */
  const activateDue = (at: Date) =>
    sql<{ id: string }>`UPDATE ad_campaigns SET state = 'ACTIVE', version = version + 1, updated_at = ${at}
        WHERE state IN ('APPROVED', 'SCHEDULED') AND start_at <= ${at} AND end_at > ${at}
        RETURNING id`.pipe(Effect.map((rows) => rows.map((r) => r.id)))

  /**
   * The lifecycle's end move: every ACTIVE, APPROVED or SCHEDULED campaign whose
   * `end_at` is at or before `at` → COMPLETED, in one conditional UPDATE (version + 1,
   * `updated_at` = `at`); a campaign approved after its window ended completes without
   * having run. Returns the ids moved; a second call at the same time moves nothing.
   */
  const completeDue = (at: Date) =>
    sql<{ id: string }>`UPDATE ad_campaigns SET state = 'COMPLETED', version = version + 1, updated_at = ${at}
        WHERE state IN ('APPROVED', 'SCHEDULED', 'ACTIVE') AND end_at <= ${at}
        RETURNING id`.pipe(Effect.map((rows) => rows.map((r) => r.id)))

  /** The states of an order that has been paid and can fund a submitted campaign. */
  const paidOrderStates = ["PAID", "FULFILLMENT_PENDING", "ACTIVE"] as const

  /**
   * A campaign as one account sees it for a command: its version and state, the account's
   * role in its workspace (null: not an ACTIVE member) and its order's state (null: no order).
   */
  const commandView = (campaignId: string, accountId: string) =>
    Effect.map(
      sql<{ version: number; state: string; role: string | null; orderState: string | null; workspaceId: string }>`
        SELECT c.version::float8 AS version, c.state, c.workspace_id AS "workspaceId",
               (SELECT m.role FROM workspace_members m
                 WHERE m.workspace_id = c.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE') AS role,
               o.state AS "orderState"
          FROM ad_campaigns c LEFT JOIN orders o ON o.id = c.order_id
         WHERE c.id = ${campaignId}`,
      (rows) => Option.fromNullable(rows[0])
    )

  /**
   * The submission's conditional UPDATE (spec §4.2 versioned command): DRAFT or
   * PAYMENT_PENDING → SUBMITTED at `expectedVersion`, when the account holds one of `roles`
   * in the campaign's workspace and the campaign's order is paid. The new version, or none.
   */
  const submit = (s: {
    readonly campaignId: string
    readonly accountId: string
    readonly expectedVersion: number
    readonly roles: ReadonlyArray<string>
    readonly at: Date
  }) =>
    updateVersioned({
      table: "ad_campaigns",
      id: s.campaignId,
      expectedVersion: s.expectedVersion,
      set: sql`state = 'SUBMITTED', updated_at = ${s.at}`,
      fromStates: ["DRAFT", "PAYMENT_PENDING"],
      where: [
        sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = ad_campaigns.workspace_id
              AND m.account_id = ${s.accountId} AND m.state = 'ACTIVE' AND m.role IN ${sql.in(s.roles)})`,
        sql`EXISTS (SELECT 1 FROM orders o WHERE o.id = ad_campaigns.order_id AND o.state IN ${sql.in(paidOrderStates)})`
      ]
    })

  /** Adds the next creative revision of a campaign (state READY). */
  const addCreative = (c: {
    readonly id: string
    readonly campaignId: string
    readonly kind: "TEXT" | "IMAGE"
    readonly headline: string | null
    readonly body: string | null
    readonly storageRef: string | null
    readonly mediaType: string | null
    readonly widthPixels: number | null
    readonly heightPixels: number | null
    readonly sizeBytes: number | null
    readonly sha256: string | null
    readonly altText: string | null
    readonly at: Date
  }) =>
    sql`INSERT INTO ad_creatives (id, campaign_id, revision, kind, state, headline, body, storage_ref, media_type,
                                  width_pixels, height_pixels, size_bytes, sha256, alt_text, created_at)
        SELECT ${c.id}, ${c.campaignId}, COALESCE(max(revision), 0) + 1, ${c.kind}, 'READY', ${c.headline}, ${c.body},
               ${c.storageRef}, ${c.mediaType}, ${c.widthPixels}, ${c.heightPixels}, ${c.sizeBytes === null ? null : String(c.sizeBytes)}::numeric,
               ${c.sha256}, ${c.altText}, ${c.at}
          FROM ad_creatives WHERE campaign_id = ${c.campaignId}`

  /**
   * The campaigns that may be served into a `placement` at `at`: ACTIVE, window open
   * (`start_at` <= `at` < `end_at`), of a package of that placement kind, with an APPROVED
   * current creative; fewest impressions first (then oldest start, then id), at most 200.
   */
  const servable = (placement: string, at: Date) =>
    sql<{ id: string; destinationUrl: string; targets: ReadonlyArray<{ dimension: string; value: string; exclude: boolean }> }>`
      SELECT c.id, c.destination_url AS "destinationUrl", c.targets
        FROM ad_campaigns c
        JOIN ad_package_versions v ON v.id = c.package_version_id
        JOIN ad_packages p ON p.id = v.package_id
       WHERE c.state = 'ACTIVE' AND p.placement_kind = ${placement}
         AND (c.start_at IS NULL OR c.start_at <= ${at}) AND (c.end_at IS NULL OR c.end_at > ${at})
         AND (SELECT cr.state FROM ad_creatives cr WHERE cr.campaign_id = c.id ORDER BY cr.revision DESC LIMIT 1) = 'APPROVED'
       ORDER BY c.impressions, c.start_at, c.id
       LIMIT 200`

  return {
    activateDue,
    completeDue,
    listForAccount,
    listAll,
    findById: (id: string) => findById(id).pipe(Effect.catchTag("ParseError", Effect.die)),
    createContext,
    insert,
    recordEvent,
    recordReview,
    setCreativeState,
    commandView,
    submit,
    addCreative,
    servable
  } as const
})

/** SQL of the ad campaigns area. */
export class AdsRepo extends Effect.Service<AdsRepo>()("agent-directory/AdsRepo", { effect: make }) {}
