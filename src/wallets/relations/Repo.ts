/**
 * SQL of wallet-agent relations (`agent_wallet_relations`, migration 0029):
 * the write a proof makes (src/agents/identities/Identities.ts, inside the proof's transaction) and the two
 * public lists. A relation's wallet is the `wallets` row of its network and address (EVM
 * addresses compared without case, others exactly), when one exists. Storage failures are defects.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AgentWallet, WalletAgent, type WalletRelation } from "../../../schema/walletRelations.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"

/** Keyset position of both lists: the relation row's id (rows in id order). */
export const RelationPosition = Schema.String

/** One relation to record: the agent, the network (key) and address, the relation and its proof. */
export interface RelationProof {
  /** The row id used when the relation is new (from Ids). */
  readonly id: string
  readonly agentId: string
  /** The network key (as on `agent_identities.network`). */
  readonly network: string
  /** The address, EVM in EIP-55 form. */
  readonly address: string
  readonly relation: WalletRelation
  readonly proofKind: "SIGNATURE" | "REGISTRY" | "ATTESTATION"
  readonly proofReference: string
  readonly verifiedAt: Date
}

const AgentWalletRow = Schema.Struct({ id: Schema.String, item: AgentWallet })
const WalletAgentRow = Schema.Struct({ id: Schema.String, item: WalletAgent })

export class AgentRelationsRepo extends Effect.Service<AgentRelationsRepo>()("agent-directory/AgentRelationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** `w` (wallets) holds the address of `r` (agent_wallet_relations) on `n` (its network). */
    const sameAccount = sql`w.network_id = r.network_id
      AND (w.address = r.address OR (n.family = 'EVM' AND lower(w.address) = lower(r.address)))`

    const proof = sql`json_build_object('kind', r.proof_kind, 'reference', r.proof_reference, 'verifiedAt', api_ts(r.verified_at))`

    /**
     * Records a proven relation: inserted, or, when the agent already has this relation to this
     * address, its proof replaced by the newer one. A network key without a row records nothing.
     */
    const record = (p: RelationProof) =>
      sql`INSERT INTO agent_wallet_relations (id, agent_id, network_id, address, relation, proof_kind, proof_reference, verified_at)
          SELECT ${p.id}, ${p.agentId}, n.id, ${p.address}, ${p.relation}, ${p.proofKind}, ${p.proofReference}, ${p.verifiedAt}
            FROM networks n WHERE n.key = ${p.network}
          ON CONFLICT (agent_id, network_id, address, relation) DO UPDATE
            SET proof_kind = excluded.proof_kind, proof_reference = excluded.proof_reference, verified_at = excluded.verified_at`
        .pipe(Effect.asVoid, dieOnStorageFailure)

    /** Whether the agent exists. */
    const agentExists = (agentId: string) =>
      sql`SELECT 1 FROM agents WHERE id = ${agentId}`.pipe(Effect.map((rows) => rows.length > 0), dieOnStorageFailure)

    /** Whether the wallet exists. */
    const walletExists = (walletId: string) =>
      sql`SELECT 1 FROM wallets WHERE id = ${walletId}`.pipe(Effect.map((rows) => rows.length > 0), dieOnStorageFailure)

    /** The agent's relations after `after` (id order), at most `take`. */
    const agentWallets = (agentId: string, after: string | undefined, take: number) =>
      sql`SELECT r.id, json_build_object(
              'walletPublicId', (SELECT w.id FROM wallets w WHERE ${sameAccount} ORDER BY w.id LIMIT 1),
              'network', json_build_object('publicId', n.id, 'key', n.key, 'family', n.family,
                                           'displayName', n.display_name, 'caip2', n.caip2),
              'address', r.address,
              'caip10', CASE WHEN n.caip2 IS NULL THEN NULL ELSE n.caip2 || ':' || r.address END,
              'relation', r.relation,
              'proof', ${proof}) AS item
            FROM agent_wallet_relations r JOIN networks n ON n.id = r.network_id
           WHERE r.agent_id = ${agentId} ${after === undefined ? sql`` : sql`AND r.id > ${after}`}
           ORDER BY r.id LIMIT ${take}`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(AgentWalletRow))),
        dieOnStorageFailure
      )

    /** The relations of the wallet's network and address after `after` (id order), at most `take`. */
    const walletAgents = (walletId: string, after: string | undefined, take: number) =>
      sql`SELECT r.id, json_build_object(
              'agent', json_build_object('publicId', a.id, 'canonicalSlug', a.canonical_slug, 'name', a.name,
                                         'verificationState', a.verification_state),
              'relation', r.relation,
              'proof', ${proof}) AS item
            FROM wallets w
            JOIN networks n ON n.id = w.network_id
            JOIN agent_wallet_relations r ON ${sameAccount}
            JOIN agents a ON a.id = r.agent_id
           WHERE w.id = ${walletId} ${after === undefined ? sql`` : sql`AND r.id > ${after}`}
           ORDER BY r.id LIMIT ${take}`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(WalletAgentRow))),
        dieOnStorageFailure
      )

    return { record, agentExists, walletExists, agentWallets, walletAgents }
  })
}) {}
