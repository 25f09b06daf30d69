/**
 * Entitlements gate an agent's runtime (docs/runtime-access.md): an agent with a PUBLISHED offer
 * granting `runtime_access` sells conversations with it. Its operators (ACTIVE members of the
 * workspace operating it) converse freely; anyone else needs, in a workspace they are an ACTIVE
 * member of with a role that may converse, an ACTIVE or GRACE entitlement of an order for a
 * `runtime_access` offer of that agent, and each run uses one of its `run_quota` runs.
 * Agents without such an offer are not gated. Plain Effects on `SqlClient`, run in the caller's
 * transaction (the run's).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { PaymentRequired } from "../../../schema/errors.js"
import { rolesFor } from "../../../schema/roles.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"

/** The roles that may converse with an agent (`runtime.converse`), in the buyer's workspace too. */
const converseRoles = rolesFor("runtime.converse")

/** The PUBLISHED offers granting `runtime_access` to the agent, by id (none: the agent is not gated). */
export const runtimeOffers = (agentId: string): Effect.Effect<ReadonlyArray<string>, never, SqlClient.SqlClient> =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: string }>`SELECT f.id FROM service_offers f JOIN services s ON s.id = f.service_id
      WHERE s.agent_id = ${agentId} AND f.state = 'PUBLISHED' AND f.runtime_access
      ORDER BY f.created_at, f.id`.pipe(Effect.map((rows) => rows.map((r) => r.id)), Effect.orDie))

/** What a customer of the agent's runtime (not one of its operators) may know of it, if they may converse with it. */
export interface RuntimeCustomer {
  /** The agent's lifecycle state (ACTIVE or RETIRED). */
  readonly state: string
  readonly runtimeConfigured: boolean
}

/**
 * Whether `accountId` may converse with the agent as a customer: the agent has a PUBLISHED
 * `runtime_access` offer, and the account is an ACTIVE member, with a role that may converse
 * (OWNER, ADMIN, EDITOR, OPERATOR), of some workspace. Running still needs an entitlement
 * ({@link meterRun}). None when the agent does not exist or sells no runtime access.
 */
export const runtimeCustomer = (input: {
  readonly agentId: string
  readonly accountId: string
}): Effect.Effect<Option.Option<RuntimeCustomer>, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    if ((yield* runtimeOffers(input.agentId)).length === 0) return Option.none()
    const rows = yield* sql<RuntimeCustomer>`
      SELECT a.state, EXISTS (SELECT 1 FROM agent_runtime_configs c WHERE c.agent_id = a.id) AS "runtimeConfigured"
      FROM agents a
      WHERE a.id = ${input.agentId}
        AND EXISTS (SELECT 1 FROM workspace_members m WHERE m.account_id = ${input.accountId} AND m.state = 'ACTIVE'
                      AND m.role IN ${sql.in(converseRoles)})`
    return Option.fromNullable(rows[0])
  }).pipe(Effect.orDie)

/** How a run was let through {@link meterRun}. */
export type RunMeter =
  | { readonly _tag: "Unmetered" }
  | { readonly _tag: "Metered"; readonly entitlementId: string }

/**
 * Lets one run of the agent start for `accountId`, in the run's transaction. Not gated (an agent
 * without a PUBLISHED `runtime_access` offer, or the account an ACTIVE member of the agent's
 * operating workspace): `Unmetered`. Otherwise it takes a run from an entitlement of a workspace
 * where the account is an ACTIVE member with a role that may converse: ACTIVE or GRACE, in effect
 * now (from `effective_from` to `grace_until`, else `effective_until`), for a `runtime_access`
 * offer of the agent, with runs left (`runs_used < run_quota`, or no quota); the one ending first
 * is used and its `runs_used` goes up by one: `Metered`.
 *
 * Fails with `PaymentRequired` (402 `payment-required`, the offers to buy in `offerIds`) when no
 * such entitlement exists (none bought, expired, revoked, or its runs used up).
 */
export const meterRun = (input: {
  readonly agentId: string
  readonly accountId: string
}): Effect.Effect<RunMeter, PaymentRequired, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const offers = yield* runtimeOffers(input.agentId)
    if (offers.length === 0) return { _tag: "Unmetered" } as const
    const operator = yield* sql`SELECT 1 FROM agents a
      JOIN workspace_members m ON m.workspace_id = a.workspace_id AND m.account_id = ${input.accountId} AND m.state = 'ACTIVE'
      WHERE a.id = ${input.agentId}`
    if (operator.length > 0) return { _tag: "Unmetered" } as const
    const at = yield* now
    const [metered] = yield* sql<{ id: string }>`
      UPDATE entitlements SET runs_used = runs_used + 1, updated_at = ${at}
      WHERE id = (
        SELECT e.id FROM entitlements e
          JOIN orders o ON o.id = e.order_id
          JOIN service_offers f ON f.id = o.offer_id AND f.runtime_access
          JOIN services s ON s.id = f.service_id AND s.agent_id = ${input.agentId}
          JOIN workspace_members m ON m.workspace_id = o.workspace_id AND m.account_id = ${input.accountId}
            AND m.state = 'ACTIVE' AND m.role IN ${sql.in(converseRoles)}
        WHERE e.state IN ('ACTIVE', 'GRACE') AND e.effective_from <= ${at}
          AND COALESCE(e.grace_until, e.effective_until, 'infinity'::timestamptz) > ${at}
          AND (e.run_quota IS NULL OR e.runs_used < e.run_quota)
        ORDER BY e.effective_until NULLS LAST, e.id
        LIMIT 1
        FOR UPDATE OF e)
        AND (run_quota IS NULL OR runs_used < run_quota)
      RETURNING id`
    if (metered !== undefined) return { _tag: "Metered", entitlementId: metered.id } as const
    return yield* new PaymentRequired({
      detail: "Running this agent needs an ACTIVE entitlement to its runtime, with runs left, in a workspace of yours: " +
        "buy one of the offers in `offerIds`.",
      extensions: { offerIds: offers }
    })
  }).pipe(dieOnStorageFailure)
