/**
 * What one area folder (`src/<area>/`, or a sub-feature `src/<area>/<feature>/`) contributes to the service, beyond its
 * contract (`src/<area>/Api.ts`, added to `src/api/Api.ts`): the root assembles the
 * server's layers and the background work from the list of these in `src/areas.ts`.
 * (An area's demo data, seed step and manifest are not part of it: `demo/areas.ts`.)
 */
import type { SqlClient } from "@effect/sql"
import type { Effect, Layer } from "effect"
import type { IntentOutcomeHandler } from "../layers/TransactionIntents.js"

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
  /**
   * The area's reactions to its transaction intents' changes, by purpose kind
   * (layers/TransactionIntents.ts): each kind belongs to one area.
   */
  readonly intentOutcomes?: Readonly<Record<string, IntentOutcomeHandler>>
}

/**
 * Migrations by id (`NNNN_name`): each an effect on `SqlClient` (the default export of
 * `migrations/NNNN_name.ts`), run once in id order and recorded in `effect_sql_migrations`.
 */
export type Migrations = Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>

