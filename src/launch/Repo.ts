/**
 * SQL of the Launch area: launch runs (spec §2.4) and their transaction intents.
 * Runs are read in the wire shape of `LaunchRun` and decoded with it.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { LaunchRun } from "./Schemas.js"
import { rolesFor } from "../../schema/roles.js"


/** States a transaction intent can be materialized from. */
export const MaterializableStates = ["PREPARING", "AWAITING_FUNDING", "RETRYABLE_FAILURE"] as const

/** A run as seen by one account (role null: not an ACTIVE member of its workspace). */
const RunAccess = Schema.Struct({ version: Schema.Number, state: Schema.String, role: Schema.NullOr(Schema.String) })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** The run in its wire shape, or none. */
  const findById = SqlSchema.findOne({
    Request: Schema.String,
    Result: LaunchRun,
    execute: (id) =>
      sql`SELECT id, launch_draft_id AS "launchDraftId", venue, state, transaction_intent_id AS "transactionIntentId",
            provider_reference AS "providerReference", expected_asset_locator AS "expectedAssetLocator",
            observed_asset_id AS "observedAssetId", failure_code AS "failureCode", failure_summary AS "failureSummary",
            attempt_count AS "attemptCount", version::float8 AS version, api_ts(requested_at) AS "requestedAt",
            api_ts(submitted_at) AS "submittedAt", api_ts(observed_at) AS "observedAt", api_ts(confirmed_at) AS "confirmedAt",
            api_ts(completed_at) AS "completedAt", api_ts(updated_at) AS "updatedAt", steps
          FROM launch_runs WHERE id = ${id}`
  })

  /** The run's version and state and the account's role in its workspace; none if the run does not exist. */
  const access = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.String }),
    Result: RunAccess,
    execute: ({ accountId, id }) =>
      sql`SELECT r.version::float8 AS version, r.state, m.role FROM launch_runs r
          LEFT JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
          WHERE r.id = ${id}`
  })

  /**
   * Materializes in one conditional statement (src/db/versioned.ts): only at
   * `expectedVersion`, from a materializable state, for an operator of the run's
   * workspace. Records `intentId`, moves to AWAITING_SIGNATURE, counts an attempt when
   * retrying a RETRYABLE_FAILURE (clearing the failure), appends the TRANSACTION_INTENT
   * (COMPLETED) and SIGNATURE (PENDING) steps, bumps the version. Returns the attempt
   * the intent belongs to, none when no row changed.
   */
  const materialize = (r: { id: string; expectedVersion: number; accountId: string; intentId: string; at: Date }) => {
    const at = r.at.toISOString()
    // the attempt the intent belongs to (old values: SET expressions see the row before the update)
    const attempt = sql`CASE WHEN l.state = 'RETRYABLE_FAILURE' THEN l.attempt_count + 1 ELSE GREATEST(l.attempt_count, 1) END`
    const step = (name: string, state: string, completedAt: string | null) =>
      sql`jsonb_build_object('step', ${name}::text, 'state', ${state}::text, 'attemptCount', ${attempt},
            'providerReference', NULL, 'errorCode', NULL, 'startedAt', ${at}::text, 'completedAt', ${completedAt}::text)`
    return sql<{ attempt: number }>`
      UPDATE launch_runs l SET
        state = 'AWAITING_SIGNATURE',
        transaction_intent_id = ${r.intentId},
        attempt_count = ${attempt},
        failure_code = NULL,
        failure_summary = NULL,
        steps = l.steps || jsonb_build_array(${step("TRANSACTION_INTENT", "COMPLETED", at)}, ${step("SIGNATURE", "PENDING", null)}),
        version = l.version + 1,
        updated_at = ${r.at}
      WHERE l.id = ${r.id} AND l.version = ${r.expectedVersion}
        AND l.state IN ${sql.in(MaterializableStates)}
        AND EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = l.workspace_id AND m.account_id = ${r.accountId}
                    AND m.state = 'ACTIVE' AND m.role IN ${sql.in(rolesFor("launch.operate"))})
      RETURNING l.attempt_count AS attempt`.pipe(Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.attempt)))
  }

  /**
   * Records the intent of `attempt` (the unique (run, attempt) key refuses a second one)
   * and marks earlier attempts' intents that were never signed SUPERSEDED.
   */
  const insertIntent = (r: { id: string; runId: string; attempt: number; at: Date }) =>
    Effect.zipRight(
      sql`UPDATE launch_transaction_intents SET state = 'SUPERSEDED'
          WHERE launch_run_id = ${r.runId} AND attempt < ${r.attempt} AND state IN ('AWAITING_SIGNATURE', 'FAILED')`,
      sql`INSERT INTO launch_transaction_intents ${
        sql.insert({ id: r.id, launch_run_id: r.runId, attempt: r.attempt, state: "AWAITING_SIGNATURE", created_at: r.at })
      }`
    )

  return { findById, access, materialize, insertIntent } as const
})

/** SQL of the Launch area. */
export class LaunchRepo extends Effect.Service<LaunchRepo>()("agent-directory/LaunchRepo", { effect: make }) {}
