/**
 * What one area folder (`src/<area>/`, or a sub-feature `src/<area>/<feature>/`) contributes to the service, beyond its
 * contract (`src/<area>/Api.ts`, added to `src/api/Api.ts`): the root assembles the
 * server's layers and the background work from the list of these in `src/areas.ts`.
 * (An area's demo data, seed step and manifest are not part of it: `demo/areas.ts`.)
 */
import type { Layer } from "effect"

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
}
