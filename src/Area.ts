/**
 * What one area folder (`src/<area>/`, or a sub-feature `src/<area>/<feature>/`) contributes to the service, beyond its
 * contract (`src/<area>/Api.ts`, added to `src/api/Api.ts`): the root assembles the
 * server's layers, the demo seed and the background work from the list of these in
 * `src/areas.ts`.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import type { Effect, Layer } from "effect"
import type { Auth } from "../layers/Auth.js"

/** One area of the service. */
export interface Area {
  /**
   * The area's folder under `src/`: the operationId prefix's area (`jobs` for `Jobs_*`), or a
   * sub-feature of it with its own services (`jobs/bounties`).
   */
  readonly name: string
  /**
   * The handlers of the area's HttpApiGroup(s), with the area's own services provided:
   * what is left to provide is cross-cutting (`layers/`, the request pipeline). Typed
   * `ApiGroup<"AgentDirectoryApi", group name>` by each area (`any` here: a layer's output is
   * contravariant), so `ApiLive` checks that every group of the contract is implemented.
   * `Layer.empty` for an area with no operations (only background work).
   */
  readonly http: Layer.Layer<any, never, any> | Layer.Layer<never, never, never>
  /**
   * Inserts the area's demo data, inside the seed's one transaction, after the core demo
   * data (`src/db/seed.ts`) and the areas listed before it. Fails with `SqlError`.
   */
  readonly seed?: Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient | Auth>
  /** Its entries of the demo manifest (`src/db/manifest.ts`): one working request per operation. */
  readonly manifest?: Readonly<Record<string, ManifestOperation>>
  /**
   * The area's background work: workflows and cron jobs on the durable engine (`layers/Engine.ts`), with
   * the area's own services provided: what is left is the engine, `SqlClient` and the
   * cross-cutting layers (`src/workflows.ts` assembles them).
   */
  readonly workflows?: Layer.Layer<never, never, any>
  /**
   * The area's migrations, by id (`NNNN_name`: ids are global, ordered across every area and
   * `src/db/migrations/`, and never change once released: databases record them). Kept in the
   * area's light `Migrations.ts` (SQL only), which `src/db/migrate.ts` imports too, so migrating
   * needs none of the area's HTTP layers.
   */
  readonly migrations?: Migrations
}

/**
 * Migrations by id (`NNNN_name`): each an effect on `SqlClient` (the default export of
 * `migrations/NNNN_name.ts`), run once in id order and recorded in `effect_sql_migrations`.
 */
export type Migrations = Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>

/**
 * One request of the demo manifest: who sends it (`as`: a demo account, signed in with
 * its CSRF token; `anonymous`; or the demo public API key) and its path, query and body.
 * POST/PUT/PATCH/DELETE requests also need a fresh Idempotency-Key, which the caller supplies.
 */
export interface ManifestOperation {
  readonly as: "admin" | "owner" | "member" | "anonymous" | "apiKey:public"
  readonly path: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string | number>>
  readonly body: unknown
  /** Request headers besides the credential's and Idempotency-Key (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>
  /** An "Example (demo)" sentence the docs add to the operation's description. */
  readonly note?: string
  /**
   * The problem this request answers on the demo data, for an operation whose success
   * needs state the demo data cannot hold (Admin_RetryJobRun needs a FAILED engine
   * execution): its status and problem `type` slug. Say why in `note`. Such an operation
   * has no success example; the manifest and example tests check this answer instead.
   */
  readonly problem?: { readonly status: number; readonly type: string }
}
