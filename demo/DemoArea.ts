/**
 * What one area's demo folder (`demo/<area>/`, mirroring `src/<area>/`) contributes: its seed
 * step and its manifest entries. `demo/areas.ts` lists them; `demo/seed.ts` and
 * `demo/manifest.ts` are assembled from that list.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import type { Effect } from "effect"
import type { AppConfig } from "../layers/AppConfig.js"
import type { Auth } from "../layers/Auth.js"

/** The demo part of one area of `src/areas.ts`. */
export interface DemoArea {
  /** The area's folder, as in `src/areas.ts` (`agents`, `jobs/bounties`). */
  readonly name: string
  /**
   * Inserts the area's demo data, inside the seed's one transaction, after the shared
   * reference data (`demo/seed.ts`) and the areas listed before it. Fails with `SqlError`.
   */
  readonly seed?: Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient | Auth | AppConfig>
  /** Its entries of the demo manifest (`demo/manifest.ts`): one working request per operation, by operationId. */
  readonly manifest?: Readonly<Record<string, ManifestOperation>>
}

/**
 * One request of the demo manifest: who sends it (`as`: a demo account, signed in with
 * its CSRF token; `anonymous`; or the demo public API key) and its path, query and body.
 * POST/PUT/PATCH/DELETE requests also need a fresh Idempotency-Key, which the caller supplies.
 */
export interface ManifestOperation {
  readonly as: "admin" | "owner" | "member" | "outsider" | "anonymous" | "apiKey:public"
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
