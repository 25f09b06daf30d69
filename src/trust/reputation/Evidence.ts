/**
 * Marking an agent's evidence as changed: every write that changes what the
 * trust, rank or performance projections of an agent are computed from (feedback and its
 * withdrawal, votes, favorites, endpoint probes, run outcomes, identity proofs, orders)
 * calls `markAgentEvidence` inside its own transaction, so the mark commits with the
 * evidence or not at all. The projector (src/trust/reputation/) recomputes marked agents and
 * clears their marks; a full recompute on a schedule catches anything else.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"

/** The PostgreSQL notification channel the projector listens on; its payload is the agent id. */
export const ReputationEvidenceChannel = "reputation_evidence"

/**
 * Marks `agentId`'s evidence as changed at `at` (the earliest unprojected change is kept);
 * an id of no agent is not marked (its command then answers its own 404).
 * Must run inside the transaction that writes the evidence. Fails with `SqlError`.
 */
export const markAgentEvidence = (agentId: string, at: Date): Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // only an agent that exists is marked: callers mark before they look the agent up (so a
    // drain never waits on them, see src/agents/registration/Repo.ts), and a mark of an unknown
    // id (the nil uuid, any unknown one) broke the foreign key, a 500 instead of the caller's 404
    yield* sql`INSERT INTO reputation_dirty_agents (agent_id, marked_at)
               SELECT id, ${at} FROM agents WHERE id = ${agentId}
               ON CONFLICT (agent_id) DO NOTHING`
    yield* sql`SELECT pg_notify(${ReputationEvidenceChannel}, ${agentId})`
  })
