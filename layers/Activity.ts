/**
 * Public agent activity (spec §2.21, `Agents_GetPublicAgentActivity`): one row of
 * `agent_activity` per thing an agent did or that was observed of it, written by the area where
 * it happened, in that action's own transaction (an action that rolls back leaves no item).
 * Source kinds: DOMAIN_EVENT (registrations, proofs, launches, published offers),
 * CHAIN_OBSERVATION (the block watcher: transactions of an agent's proven addresses and
 * registry tokens), PROVIDER_OBSERVATION, PRODUCT_EVIDENCE (runs, feedback).
 * `activityKey` names the item (`launch.completed`, `chain.transfer`, …); an item is recorded
 * once per agent and `dedupeKey`, so a retried action records nothing twice.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { now } from "./Clock.js"
import { Ids } from "./Ids.js"

/** The source kinds of spec §2.21. */
export type ActivitySourceKind = "DOMAIN_EVENT" | "CHAIN_OBSERVATION" | "PROVIDER_OBSERVATION" | "PRODUCT_EVIDENCE"

/** One activity item, as its writer describes it. */
export interface ActivityEntry {
  readonly agentId: string
  /** What happened, `<subject>.<verb>` (1..150 chars): `launch.completed`, `offer.published`, `chain.transaction`. */
  readonly activityKey: string
  /** What makes the item unique for the agent (a transaction hash and log index, a run id); a second record with it is ignored. */
  readonly dedupeKey: string
  readonly sourceKind: ActivitySourceKind
  /** One public sentence, or null. Never a secret, an email or a private field. */
  readonly summary: string | null
  /** The CAIP-2 id of the network (a `networks` row's `caip2`), or null. */
  readonly network?: string | null
  readonly transactionReference?: string | null
  readonly explorerUrl?: string | null
  /** The evidence's public id (a run, a feedback item), or null. */
  readonly evidencePublicId?: string | null
  /** When it happened; default now. */
  readonly occurredAt?: Date
}

/**
 * Records `entry` in the caller's transaction (use inside `sql.withTransaction`); a second record
 * of the same agent and `dedupeKey` is ignored. A storage failure is a defect.
 */
export const recordActivity = (entry: ActivityEntry): Effect.Effect<void, never, SqlClient.SqlClient | Ids> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = yield* (yield* Ids).next
    const occurredAt = entry.occurredAt ?? (yield* now)
    yield* sql`INSERT INTO agent_activity (id, agent_id, activity_key, dedupe_key, event_version, summary, source_kind, network_id,
                 transaction_reference, explorer_url, evidence_public_id, occurred_at)
               SELECT ${id}, ${entry.agentId}, ${entry.activityKey}, ${entry.dedupeKey}, 1, ${entry.summary}, ${entry.sourceKind},
                 (SELECT n.id FROM networks n WHERE n.caip2 = ${entry.network ?? null}), ${entry.transactionReference ?? null},
                 ${entry.explorerUrl ?? null}, ${entry.evidencePublicId ?? null}, ${occurredAt}
               ON CONFLICT (agent_id, dedupe_key) DO NOTHING`
  }).pipe(Effect.orDie)
