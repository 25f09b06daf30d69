/**
 * SQL of identity proofs: challenges (`agent_identity_challenges`, migration 0017), the
 * binding of a proven locator (`agent_identities`) and the agents' verification states.
 * Storage failures are defects.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AgentLocator, VerificationState } from "../../../schema/agents.js"
import type { Locator } from "../../identity/Locator.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import type { ProofMethod } from "./Schemas.js"
import type { WalletRelation } from "../../../schema/walletRelations.js"

/** A stored challenge, as a proof reads it. */
export interface ChallengeRow {
  readonly id: string
  readonly agentId: string
  readonly family: string
  readonly kind: string
  readonly network: string | null
  readonly scope: string | null
  readonly nativeId: string
  readonly locator: string
  readonly message: string
  /** ISO date-time texts. */
  readonly expiresAt: string
  readonly usedAt: string | null
  /** The wallet relation an ADDRESS challenge proves (null for other kinds, and for challenges older than migration 0029). */
  readonly relation: WalletRelation | null
}

const decodeLocator = Schema.decodeUnknown(AgentLocator)

export class IdentitiesRepo extends Effect.Service<IdentitiesRepo>()("agent-directory/IdentitiesRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The name of an agent (it exists: the caller's access was checked). */
    const agentName = (agentId: string) =>
      sql<{ name: string }>`SELECT name FROM agents WHERE id = ${agentId}`.pipe(
        Effect.map((rows) => rows[0]?.name ?? ""),
        dieOnStorageFailure
      )

    /** The CAIP-2 chain id of a network key (null without one). */
    const caip2Of = (networkKey: string | null) =>
      networkKey === null
        ? Effect.succeed(null)
        : sql<{ caip2: string | null }>`SELECT caip2 FROM networks WHERE key = ${networkKey}`.pipe(
          Effect.map((rows) => rows[0]?.caip2 ?? null),
          dieOnStorageFailure
        )

    /** Stores a new challenge. */
    const insertChallenge = (c: {
      readonly id: string
      readonly agentId: string
      readonly accountId: string
      readonly locator: Locator
      readonly message: string
      readonly createdAt: Date
      readonly expiresAt: Date
      readonly relation: WalletRelation | null
    }) =>
      sql`INSERT INTO agent_identity_challenges ${
        sql.insert({
          id: c.id,
          agent_id: c.agentId,
          account_id: c.accountId,
          family: c.locator.family,
          kind: c.locator.kind,
          network: c.locator.network,
          scope: c.locator.scope,
          native_id: c.locator.nativeId,
          locator: c.locator.locator,
          message: c.message,
          created_at: c.createdAt,
          expires_at: c.expiresAt,
          relation: c.relation
        })
      }`.pipe(Effect.asVoid, dieOnStorageFailure)

    /** The agent's challenge `id`, locked for this transaction (a concurrent proof waits, then sees it used). */
    const challengeForUpdate = (id: string, agentId: string) =>
      sql<ChallengeRow>`SELECT id, agent_id AS "agentId", family, kind, network, scope, native_id AS "nativeId", locator,
            message, api_ts(expires_at) AS "expiresAt", api_ts(used_at) AS "usedAt", relation
          FROM agent_identity_challenges WHERE id = ${id} AND agent_id = ${agentId} FOR UPDATE`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        dieOnStorageFailure
      )

    const markUsed = (id: string, at: Date) =>
      sql`UPDATE agent_identity_challenges SET used_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, dieOnStorageFailure)

    /**
     * Binds the challenged locator to the agent as REGISTRY_BOUND and proven: the agent's
     * bound row of that locator gets `proven_at`/`proof_method`, or a new row `newId` is
     * inserted. Returns the row in its profile shape.
     */
    const bindProven = (c: ChallengeRow, method: ProofMethod, at: Date, newId: string) =>
      Effect.gen(function*() {
        const updated = yield* sql<{ id: string }>`UPDATE agent_identities SET proven_at = ${at}, proof_method = ${method}
          WHERE id = (SELECT id FROM agent_identities WHERE agent_id = ${c.agentId} AND locator = ${c.locator}
                        AND binding = 'REGISTRY_BOUND' ORDER BY id LIMIT 1)
          RETURNING id`
        const id = updated[0]?.id ?? newId
        if (updated.length === 0) {
          yield* sql`INSERT INTO agent_identities ${
            sql.insert({
              id: newId,
              agent_id: c.agentId,
              family: c.family,
              kind: c.kind,
              network: c.network,
              scope: c.scope,
              native_id: c.nativeId,
              locator: c.locator,
              binding: "REGISTRY_BOUND",
              created_at: at,
              proven_at: at,
              proof_method: method
            })
          }`
        }
        if (c.kind === "REGISTRY_TOKEN") {
          // the same token claimed by an imported ERC-8004 registration file (src/agents/imports/) is now proven
          yield* sql`UPDATE agent_identity_claims SET proof_state = 'PROVEN'
            WHERE agent_id = ${c.agentId} AND registry = ${c.scope} AND native_id = ${c.nativeId}
              AND network_caip2 = (SELECT n.caip2 FROM networks n WHERE n.key = ${c.network})`
        }
        const [row] = yield* sql`SELECT json_build_object('publicId', i.id, 'locator', i.locator, 'networkFamily', i.family,
              'locatorKind', i.kind, 'network', i.network,
              'caip2', (SELECT n.caip2 FROM networks n WHERE n.key = i.network),
              'registry', i.scope, 'nativeId', i.native_id, 'provenAt', api_ts(i.proven_at)) AS locator
            FROM agent_identities i WHERE i.id = ${id}`
        return yield* decodeLocator(row!["locator"])
      }).pipe(dieOnStorageFailure)

    /** The agents a locator is REGISTRY_BOUND to (entity UUIDs, sorted). */
    const boundAgents = (locator: string) =>
      sql<{ agentId: string }>`SELECT DISTINCT agent_id AS "agentId" FROM agent_identities
          WHERE locator = ${locator} AND binding = 'REGISTRY_BOUND' ORDER BY agent_id`.pipe(
        Effect.map((rows) => rows.map((r) => r.agentId)),
        dieOnStorageFailure
      )

    const verificationState = (agentId: string) =>
      sql<{ state: string }>`SELECT verification_state AS state FROM agents WHERE id = ${agentId}`.pipe(
        Effect.flatMap((rows) => Schema.decodeUnknown(VerificationState)(rows[0]?.state)),
        dieOnStorageFailure
      )

    /** Deletes the challenges expired at `at`; returns how many. */
    const deleteExpired = (at: Date) =>
      sql`DELETE FROM agent_identity_challenges WHERE expires_at <= ${at} RETURNING 1`.pipe(
        Effect.map((rows) => rows.length),
        dieOnStorageFailure
      )

    return {
      agentName,
      caip2Of,
      insertChallenge,
      challengeForUpdate,
      markUsed,
      bindProven,
      boundAgents,
      verificationState,
      deleteExpired
    }
  })
}) {}
