/**
 * Recording the wallet-agent relation a proof establishes (spec §9: a relation exists only
 * where a proof made it): Agents_VerifyIdentityProof calls it inside the proof's transaction
 * (src/agents/identities/Identities.ts). Storage failures are defects.
 */
import { Effect } from "effect"
import { AgentRelationsRepo, type RelationProof } from "./Repo.js"

export type { RelationProof }

/** The write of proven wallet-agent relations. Requires `SqlClient`. */
export class WalletRelationProofs extends Effect.Service<WalletRelationProofs>()("agent-directory/WalletRelationProofs", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentRelationsRepo
    return {
      /**
       * Records `proof`'s relation: inserted, or, when the agent already has this relation to
       * this address, its proof replaced by the newer one. A network key without a row records nothing.
       */
      record: (proof: RelationProof): Effect.Effect<void> => repo.record(proof)
    }
  }),
  dependencies: [AgentRelationsRepo.Default]
}) {}
