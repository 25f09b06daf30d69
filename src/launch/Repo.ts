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

/** What a run launches (its draft). */
const RunDraft = Schema.Struct({
  runId: Schema.String,
  workspaceId: Schema.String,
  draftId: Schema.String,
  agentId: Schema.String,
  venue: Schema.String,
  network: Schema.String,
  signerAddress: Schema.String,
  tokenId: Schema.NullOr(Schema.String),
  state: Schema.String,
  attemptCount: Schema.Number
})
export type RunDraft = typeof RunDraft.Type

/** A stored draft and the reader's role in its workspace. */
const DraftRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  agentId: Schema.String,
  venue: Schema.Literal("REGISTRY_GENESIS", "LAUNCHPAD_FUN", "BROKER_CHAIN", "EXTERNAL_IMPORT"),
  network: Schema.String,
  signerAddress: Schema.String,
  tokenId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  role: Schema.NullOr(Schema.String)
})
export type DraftRow = typeof DraftRow.Type

/** Keyset position of a run in Launch_ListLaunchRuns: `requested_at` (text, microseconds) and the id; newest first. */
export const RunPosition = Schema.Tuple(Schema.String, Schema.String)

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
  const materialize = (r: { id: string; expectedVersion: number; accountId: string; intentId: string | null; at: Date }) => {
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
        sql.insert({ id: r.id, launch_run_id: r.runId, attempt: r.attempt, state: "AWAITING_SIGNATURE", created_at: r.at, transaction_intent_id: r.id })
      }`
    ).pipe(Effect.zipRight(sql`UPDATE launch_runs SET transaction_intent_id = ${r.id} WHERE id = ${r.runId}`))

  /** What a run launches: its draft's agent, venue, network, signer and token (none for runs without a draft). */
  const runDraft = SqlSchema.findOne({
    Request: Schema.String,
    Result: RunDraft,
    execute: (id) =>
      sql`SELECT r.id AS "runId", r.workspace_id AS "workspaceId", d.id AS "draftId", d.agent_id AS "agentId", r.venue, d.network,
            d.signer_address AS "signerAddress", d.token_id::text AS "tokenId", r.state, r.attempt_count AS "attemptCount"
          FROM launch_runs r JOIN launch_drafts d ON d.id = r.launch_draft_id WHERE r.id = ${id}`
  })

  /** Stores a draft. */
  const insertDraft = (d: {
    id: string; workspaceId: string; agentId: string; venue: string; network: string; signerAddress: string
    tokenId: string | null; accountId: string; at: Date
  }) =>
    sql`INSERT INTO launch_drafts ${
      sql.insert({
        id: d.id, workspace_id: d.workspaceId, agent_id: d.agentId, venue: d.venue, network: d.network,
        signer_address: d.signerAddress, token_id: d.tokenId, created_by: d.accountId, created_at: d.at
      })
    }`.pipe(Effect.asVoid)

  /** A draft and the account's role in its workspace (null: not an ACTIVE member); none if it does not exist. */
  const draftAccess = SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, accountId: Schema.String }),
    Result: DraftRow,
    execute: ({ accountId, id }) =>
      sql`SELECT d.id, d.workspace_id AS "workspaceId", d.agent_id AS "agentId", d.venue, d.network,
            d.signer_address AS "signerAddress", d.token_id::text AS "tokenId", api_ts(d.created_at) AS "createdAt", m.role
          FROM launch_drafts d
          LEFT JOIN workspace_members m ON m.workspace_id = d.workspace_id AND m.account_id = ${accountId} AND m.state = 'ACTIVE'
          WHERE d.id = ${id}`
  })

  /** Stores a new run (version 1). */
  const insertRun = (r: {
    id: string; workspaceId: string; draftId: string; agentId: string; venue: string; state: string
    providerReference: string | null; expectedAssetLocator: string | null; observedAssetId: string | null
    steps: ReadonlyArray<unknown>; at: Date; completed: boolean
  }) =>
    sql`INSERT INTO launch_runs ${
      sql.insert({
        id: r.id, workspace_id: r.workspaceId, launch_draft_id: r.draftId, agent_id: r.agentId, venue: r.venue, state: r.state,
        provider_reference: r.providerReference, expected_asset_locator: r.expectedAssetLocator, observed_asset_id: r.observedAssetId,
        attempt_count: 1, version: 1, steps: JSON.stringify(r.steps), requested_at: r.at, updated_at: r.at,
        confirmed_at: r.completed ? r.at : null, completed_at: r.completed ? r.at : null
      })
    }`.pipe(Effect.asVoid)

  /** Whether the account is an ACTIVE member of the run's workspace; none if the run does not exist. */
  const memberOfRun = (id: string, accountId: string) =>
    sql<{ member: boolean }>`SELECT EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = r.workspace_id
          AND m.account_id = ${accountId} AND m.state = 'ACTIVE') AS member FROM launch_runs r WHERE r.id = ${id}`.pipe(
      Effect.map((rows) => rows[0] === undefined ? Option.none() : Option.some(Boolean(rows[0].member)))
    )

  /** One page of a workspace's runs, newest first (`requested_at`, then id), optionally of one state. */
  const listRuns = (q: { workspaceId: string; state: string | null; after: typeof RunPosition.Type | undefined; take: number }) =>
    sql<{ id: string; position: string }>`SELECT id, to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
        FROM launch_runs WHERE workspace_id = ${q.workspaceId}
          ${q.state === null ? sql`` : sql`AND state = ${q.state}`}
          ${q.after === undefined ? sql`` : sql`AND (requested_at, id) < (${q.after[0]}::timestamptz, ${q.after[1]}::uuid)`}
        ORDER BY requested_at DESC, id DESC LIMIT ${q.take}`.pipe(
      Effect.flatMap((rows) =>
        Effect.forEach(rows, (row) =>
          Effect.map(findById(row.id), (run) => ({ run: Option.getOrThrow(run), position: [row.position, row.id] as const }))))
    )

  /** The run row locked for this transaction (an outcome handler's read), or none. */
  const lockRun = (id: string) =>
    sql<{ state: string; agentId: string | null; workspaceId: string }>`SELECT state, agent_id AS "agentId", workspace_id AS "workspaceId"
        FROM launch_runs WHERE id = ${id} FOR UPDATE`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])))

  /**
   * Moves a run to `state` (an outcome of its chain intent), setting the given columns, appending
   * `steps`, bumping the version.
   */
  const advance = (r: {
    id: string; state: string; at: Date; steps: ReadonlyArray<unknown>
    providerReference?: string | null; observedAssetId?: string | null; failure?: readonly [string, string] | null
    submittedAt?: Date | null; observedAt?: Date | null; confirmedAt?: Date; completedAt?: Date
  }) =>
    sql`UPDATE launch_runs SET state = ${r.state}, version = version + 1, updated_at = ${r.at},
          steps = steps || ${JSON.stringify(r.steps)}::jsonb
          ${r.providerReference === undefined ? sql`` : sql`, provider_reference = ${r.providerReference}`}
          ${r.observedAssetId === undefined ? sql`` : sql`, observed_asset_id = ${r.observedAssetId}`}
          ${r.failure === undefined ? sql`` : sql`, failure_code = ${r.failure?.[0] ?? null}, failure_summary = ${r.failure?.[1] ?? null}`}
          ${r.submittedAt === undefined ? sql`` : sql`, submitted_at = ${r.submittedAt}`}
          ${r.observedAt === undefined ? sql`` : sql`, observed_at = ${r.observedAt}`}
          ${r.confirmedAt === undefined ? sql`` : sql`, confirmed_at = ${r.confirmedAt}`}
          ${r.completedAt === undefined ? sql`` : sql`, completed_at = ${r.completedAt}`}
        WHERE id = ${r.id}`.pipe(Effect.asVoid)

  /** Marks the run's attempt intent (the chain intent `intentId`) SIGNED or FAILED. */
  const markAttempt = (intentId: string, state: "SIGNED" | "FAILED") =>
    sql`UPDATE launch_transaction_intents SET state = ${state} WHERE transaction_intent_id = ${intentId}`.pipe(Effect.asVoid)

  return {
    findById, access, materialize, insertIntent, runDraft, insertDraft, draftAccess, insertRun, memberOfRun, listRuns, lockRun,
    advance, markAttempt
  } as const
})

/** SQL of the Launch area. */
export class LaunchRepo extends Effect.Service<LaunchRepo>()("agent-directory/LaunchRepo", { effect: make }) {}
