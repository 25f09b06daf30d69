/**
 * THE verification-state rule (spec §3): an agent's `verificationState`
 * from its identity evidence. Both writers use it, so they never disagree: the identity
 * proof (Agents_ProveIdentity, src/agents/identities/Identities.ts) for the agents bound to the proven
 * locator, and the projector (src/trust/reputation/Projection.ts) for the agents it projects.
 *
 * In order, the first that holds:
 * 1. REVOKED stays REVOKED (an administrative decision, not evidence);
 * 2. CONFLICTED: one of the agent's REGISTRY_BOUND locators is REGISTRY_BOUND to another agent too
 *    (the resolver's CONFLICTED);
 * 3. VERIFIED: the agent holds a proven identity (`agent_identities.proven_at` set);
 * 4. EXPIRED stays EXPIRED (its proofs lapsed; nothing proven since);
 * 5. PARTIAL: it has identity claims, none proven (an unproven REGISTRY_BOUND identity, or an
 *    UNPROVEN `agent_identity_claims` row of an import);
 * 6. UNVERIFIED otherwise.
 *
 * A change of state is a change of the profile: `version` + 1 and `updated_at` (its
 * optimistic-concurrency counter), as Agents_ProveIdentity always did.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"

/** SQL: the state the rule gives the agent row aliased `a` (a text expression). */
export const verificationStateSql = (a: string): string => `CASE
  WHEN ${a}.verification_state = 'REVOKED' THEN 'REVOKED'
  WHEN EXISTS (SELECT 1 FROM agent_identities vi
      JOIN agent_identities vo ON vo.locator = vi.locator AND vo.binding = 'REGISTRY_BOUND' AND vo.agent_id <> vi.agent_id
      WHERE vi.agent_id = ${a}.id AND vi.binding = 'REGISTRY_BOUND') THEN 'CONFLICTED'
  WHEN EXISTS (SELECT 1 FROM agent_identities vp WHERE vp.agent_id = ${a}.id AND vp.proven_at IS NOT NULL) THEN 'VERIFIED'
  WHEN ${a}.verification_state = 'EXPIRED' THEN 'EXPIRED'
  WHEN EXISTS (SELECT 1 FROM agent_identities vu WHERE vu.agent_id = ${a}.id AND vu.binding = 'REGISTRY_BOUND')
    OR EXISTS (SELECT 1 FROM agent_identity_claims vc WHERE vc.agent_id = ${a}.id AND vc.proof_state = 'UNPROVEN') THEN 'PARTIAL'
  ELSE 'UNVERIFIED' END`

/**
 * Applies the rule to `agentIds` (or every agent: `"all"`) at `at`; answers the ids of the agents
 * whose state changed. Fails with `SqlError`.
 */
export const applyVerificationRule = (
  agentIds: ReadonlyArray<string> | "all",
  at: Date
): Effect.Effect<ReadonlyArray<string>, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (agentIds !== "all" && agentIds.length === 0) return []
    const sql = yield* SqlClient.SqlClient
    const filter = agentIds === "all" ? "" : "AND a.id = ANY($2::uuid[])"
    const rows = yield* sql.unsafe<{ id: string }>(
      `UPDATE agents t SET verification_state = s.state, version = t.version + 1, updated_at = $1::timestamptz
       FROM (SELECT a.id, ${verificationStateSql("a")} AS state FROM agents a WHERE true ${filter}) s
       WHERE t.id = s.id AND t.verification_state IS DISTINCT FROM s.state
       RETURNING t.id`,
      agentIds === "all" ? [at.toISOString()] : [at.toISOString(), `{${agentIds.join(",")}}`]
    )
    return rows.map((r) => r.id)
  })
