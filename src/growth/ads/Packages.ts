/**
 * Ad packages (spec §2.3, §2.5; docs/ads.md "Ad packages are offers of the platform's"):
 * Growth_ListAdPackages (public: what a buyer can order, with the offer price to order it by),
 * and the admin commands Growth_CreateAdPackage (a package with its version 1) and
 * Growth_CreateAdPackageVersion (the next version: a new price, asset or run length). Both
 * commands give the new rows their platform offer and price in the same transaction
 * (`ensurePackageOffers` of `PackageOffers.ts`), so what they make is for sale at once.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Audit } from "../../../layers/Audit.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { InvalidRequest, VersionConflict } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { AdsSettings } from "./Config.js"
import { AdPackageCodeTaken, AdPackageNotFound, AdsPlatformUnset } from "./Errors.js"
import { ensurePackageOffers } from "./PackageOffers.js"
import { AdPackage, type CreateAdPackageRequest, type CreateAdPackageVersionRequest } from "./Schemas.js"

/** Inserts version `version` of ad package `packageId` (price in `assetId`'s units); returns its id. */
const insertVersion = (v: {
  readonly packageId: string
  readonly version: number
  readonly assetId: string
  readonly body: { readonly priceUnits: bigint; readonly durationDays: number }
  readonly at: Date
}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = yield* (yield* Ids).next
    yield* sql`INSERT INTO ad_package_versions ${
      sql.insert({
        id,
        package_id: v.packageId,
        version: v.version,
        asset_id: v.assetId,
        price_units: v.body.priceUnits.toString(),
        duration_days: v.body.durationDays,
        created_at: v.at
      })
    }`
    return id
  })
/** Ad packages. Requires `SqlClient`, `Ids`, `Audit`, `AdsSettings`. */
export class Packages extends Effect.Service<Packages>()("agent-directory/AdPackages", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const audit = yield* Audit
    const settings = yield* AdsSettings

    // a package in its wire shape: its versions whose offer price is in effect at `at`, newest first
    const select = (at: Date) =>
      sql`SELECT p.id, p.code, p.name, p.placement_kind AS "placementKind", p.offer_id AS "offerId",
          api_ts(p.created_at) AS "createdAt",
          COALESCE((SELECT json_agg(json_build_object('id', v.id, 'version', v.version, 'priceUnits', v.price_units::text,
              'assetPublicId', a.id, 'assetSymbol', a.symbol, 'assetDecimals', a.decimals, 'assetCaip19', a.caip19,
              'networkPublicId', n.id, 'networkCaip2', n.caip2, 'durationDays', v.duration_days,
              'offerPriceId', v.offer_price_id, 'createdAt', api_ts(v.created_at)) ORDER BY v.version DESC)
            FROM ad_package_versions v
            JOIN service_offer_prices sp ON sp.id = v.offer_price_id
            JOIN assets a ON a.id = v.asset_id JOIN networks n ON n.id = a.network_id
           WHERE v.package_id = p.id AND sp.effective_from <= ${at}
             AND (sp.effective_until IS NULL OR sp.effective_until > ${at})), '[]'::json) AS versions
        FROM ad_packages p JOIN service_offers o ON o.id = p.offer_id`

    const listOnSale = SqlSchema.findAll({
      Request: Schema.DateFromSelf,
      Result: AdPackage,
      execute: (at) => sql`${select(at)} WHERE o.state = 'PUBLISHED' ORDER BY p.code`
    })
    const findById = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, at: Schema.DateFromSelf }),
      Result: AdPackage,
      execute: ({ at, id }) => sql`${select(at)} WHERE p.id = ${id}`
    })

    /** The platform's workspace, when set and a workspace; else `AdsPlatformUnset`. */
    const platformWorkspace = Effect.gen(function*() {
      const id = settings.ads.platformWorkspaceId
      if (Option.isSome(id)) {
        const [row] = yield* sql<{ id: string }>`SELECT id FROM workspaces WHERE id = ${id.value}`
        if (row !== undefined) return row.id
      }
      return yield* new AdsPlatformUnset({
        detail: "No workspace sells ad packages: set ADS_PLATFORM_WORKSPACE_ID to the platform's workspace."
      })
    })

    /** The asset `assetPublicId` names, else a 400 naming the field. */
    const knownAsset = (assetPublicId: string) =>
      Effect.gen(function*() {
        const [row] = yield* sql<{ id: string }>`SELECT id FROM assets WHERE id = ${assetPublicId.toLowerCase()}`
        if (row !== undefined) return row.id
        return yield* new InvalidRequest({
          detail: "The request is not valid: /assetPublicId must be a known asset.",
          errors: [{ in: "body", pointer: "/assetPublicId", detail: "must be a known asset" }]
        })
      })

    /** Links the new rows to their offer and price, then reads the package back as sold. */
    const sell = (packageId: string, platformWorkspaceId: string, at: Date) =>
      Effect.gen(function*() {
        yield* ensurePackageOffers(platformWorkspaceId, at)
        return yield* findById({ id: packageId, at }).pipe(Effect.flatMap(Effect.orDie))
      })

    /**
     * Growth_ListAdPackages: every package whose offer is PUBLISHED, by code, each with its versions
     * whose offer price is in effect now (newest first). A package whose offer is not made yet
     * (no platform workspace) is not on sale and not listed.
     */
    const list = Effect.flatMap(now, listOnSale).pipe(dieOnStorageFailure)

    /**
     * Growth_CreateAdPackage (admin): the package and its version 1, their offer (PUBLISHED, terms
     * revision 1) and price in the platform's workspace, an audit event `ad_package.created` there.
     * Fails with `AdsPlatformUnset`, `InvalidRequest` (unknown asset), `AdPackageCodeTaken`.
     */
    const create = (input: { readonly body: CreateAdPackageRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { body } = input
        const workspaceId = yield* platformWorkspace
        const assetId = yield* knownAsset(body.assetPublicId)
        const at = yield* now
        const id = yield* ids.next
        const inserted = yield* sql<{ id: string }>`INSERT INTO ad_packages ${
          sql.insert({ id, code: body.code, name: body.name, placement_kind: body.placementKind, created_at: at })
        } ON CONFLICT (code) DO NOTHING RETURNING id`
        if (inserted.length === 0) {
          return yield* new AdPackageCodeTaken({ detail: "The body is not valid: /code must not be the code of another ad package." })
        }
        const versionId = yield* insertVersion({ packageId: id, version: 1, assetId, body, at })
        const sold = yield* sell(id, workspaceId, at)
        yield* audit.record({
          workspaceId,
          actorAccountId: input.accountId,
          action: "ad_package.created",
          target: { type: "ad_package", id },
          details: { code: body.code, placementKind: body.placementKind, versionId, offerId: sold.offerId }
        })
        return sold
      }).pipe(dieOnStorageFailure)

    /**
     * Growth_CreateAdPackageVersion (admin): version `expectedVersion + 1` of the package, when
     * `expectedVersion` is its newest version, with its price of the package's offer (in effect
     * from now); the older versions stay on sale. Audit `ad_package.version_created`. Fails with
     * `AdsPlatformUnset`, `AdPackageNotFound`, `VersionConflict`, `InvalidRequest` (unknown asset).
     */
    const createVersion = (input: {
      readonly packageId: string
      readonly body: CreateAdPackageVersionRequest
      readonly accountId: string
    }) =>
      Effect.gen(function*() {
        const { body } = input
        const packageId = input.packageId.toLowerCase()
        const workspaceId = yield* platformWorkspace
        const [found] = yield* sql<{ latest: number }>`
          SELECT (SELECT COALESCE(max(version), 0) FROM ad_package_versions WHERE package_id = p.id)::int AS latest
            FROM ad_packages p WHERE p.id = ${packageId} FOR UPDATE`
        if (found === undefined) return yield* new AdPackageNotFound({ detail: "No ad package has this packageId." })
        if (found.latest !== body.expectedVersion) {
          return yield* new VersionConflict({
            detail: "The body is not valid: /expectedVersion must be the package's newest version; read it again."
          })
        }
        const assetId = yield* knownAsset(body.assetPublicId)
        const at = yield* now
        const versionId = yield* insertVersion({ packageId, version: body.expectedVersion + 1, assetId, body, at })
        const sold = yield* sell(packageId, workspaceId, at)
        yield* audit.record({
          workspaceId,
          actorAccountId: input.accountId,
          action: "ad_package.version_created",
          target: { type: "ad_package", id: packageId },
          details: { versionId, version: body.expectedVersion + 1 }
        })
        return sold
      }).pipe(dieOnStorageFailure)

    return { list, create, createVersion } as const
  })
}) {}
