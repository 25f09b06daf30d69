/**
 * Every operation the OpenAPI description lists, assembled from the areas' expectations
 * (`test/<area>/operations.ts`, each exporting `operations` by operationId): what
 * test/openapi/OpenApi.test.ts checks `/openapi.json` against. A new area's file is added
 * to {@link areaOperations}; the test fails on a file that is not (and on an operation
 * that no area lists).
 */
import { operations as accounts } from "../accounts/operations.js"
import { operations as admin } from "../admin/operations.js"
import { operations as agents } from "../agents/operations.js"
import { operations as commerce } from "../commerce/operations.js"
import { operations as growth } from "../growth/operations.js"
import { operations as jobs } from "../jobs/operations.js"
import { operations as launch } from "../launch/operations.js"
import { operations as mcp } from "../mcp/operations.js"
import { operations as networks } from "../networks/operations.js"
import { operations as procurement } from "../procurement/operations.js"
import { operations as protocols } from "../protocols/operations.js"
import { operations as registry } from "../registry/operations.js"
import { operations as runtime } from "../runtime/operations.js"
import { operations as services } from "../services/operations.js"
import { operations as social } from "../social/operations.js"
import { operations as stats } from "../stats/operations.js"
import { operations as trust } from "../trust/operations.js"
import { operations as wallets } from "../wallets/operations.js"
import { operations as workspaces } from "../workspaces/operations.js"

/** What spec §4 lists for one operation, or the service declares for one of ours. */
export interface OperationExpectation {
  readonly method: "get" | "post" | "put" | "patch" | "delete"
  /** The OpenAPI path template. */
  readonly path: string
  /** Its one tag. */
  readonly tag: string
  /** `x-auth-mode`. */
  readonly auth: "public" | "optional-user" | "required-user" | "required-admin"
  /** `x-cache-policy`. */
  readonly cache: "none" | "private" | "public-catalog"
  /** `x-required-scopes`. */
  readonly scopes: ReadonlyArray<string>
  /** The Idempotency-Key header: required (true), optional, or absent (false). */
  readonly idempotency: boolean | "optional"
  /** `x-rate-cost` when not 1. */
  readonly cost?: number
  /** Exactly the response statuses, ascending. */
  readonly statuses: ReadonlyArray<number>
}

/** One area's expectations, by operationId. */
export type OperationExpectations = Readonly<Record<string, OperationExpectation>>

/** Each area test folder's expectations, by folder (`test/<folder>/operations.ts`). */
export const areaOperations: Readonly<Record<string, OperationExpectations>> = {
  accounts,
  admin,
  agents,
  commerce,
  growth,
  jobs,
  launch,
  mcp,
  networks,
  procurement,
  protocols,
  registry,
  runtime,
  services,
  social,
  stats,
  trust,
  wallets,
  workspaces
}
