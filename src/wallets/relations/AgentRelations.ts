/**
 * Wallet-agent relations (spec §9: "public wallet-agent relation API with
 * explicit relation and proof"): Wallets_ListAgentWallets and Wallets_ListWalletAgents.
 *
 * Rules:
 * - A relation exists only where a proof made it (src/agents/identities/Identities.ts): a proven ADDRESS
 *   identity (SIGNATURE, with the relation the challenge named) or a proven registry token (its
 *   `ownerOf` signer is the agent's OWNER, REGISTRY). An address merely observed funding or
 *   receiving transfers from an agent (`agent_identities` FUNDED / TRANSFERRED) never makes one.
 * - Both lists page by a signed cursor bound to the operation and the agent or wallet, in the
 *   order the relations were recorded (their row ids).
 */
import { Effect } from "effect"
import { Cursor } from "../../../layers/Cursor.js"
import { AgentNotFound, type InvalidCursor } from "../../../schema/errors.js"
import type { AgentWallet, WalletAgent } from "../../../schema/walletRelations.js"
import { AgentRelationsRepo, RelationPosition } from "./Repo.js"
import { WalletNotFound } from "../Errors.js"

/** One page of a relation list. */
export interface RelationPage<A> {
  readonly rows: ReadonlyArray<A>
  readonly nextCursor: string | null
}

/** A page request: the cursor of the previous page (if any) and the page size (1-100). */
export interface PageQuery {
  readonly cursor?: string | undefined
  readonly limit: number
}

export class AgentRelations extends Effect.Service<AgentRelations>()("agent-directory/AgentRelations", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentRelationsRepo
    const cursor = yield* Cursor

    /** Wallets_ListAgentWallets: the agent's relations. Fails with `AgentNotFound` or `InvalidCursor`. */
    const agentWallets = (
      entityPublicId: string,
      query: PageQuery
    ): Effect.Effect<RelationPage<AgentWallet>, AgentNotFound | InvalidCursor> =>
      Effect.gen(function*() {
        const agentId = entityPublicId.toLowerCase()
        if (!(yield* repo.agentExists(agentId))) {
          return yield* new AgentNotFound({ detail: "No agent has this entity UUID." })
        }
        const page = yield* cursor.page({
          position: RelationPosition,
          cursor: query.cursor,
          param: "cursor",
          binding: { operation: "Wallets_ListAgentWallets", agent: agentId },
          limit: query.limit,
          fetch: (after, take) => repo.agentWallets(agentId, after, take),
          positionOf: (row) => row.id
        })
        return { rows: page.rows.map((row) => row.item), nextCursor: page.nextCursor }
      })

    /** Wallets_ListWalletAgents: the agents related to the wallet's address. Fails with `WalletNotFound` or `InvalidCursor`. */
    const walletAgents = (
      walletPublicId: string,
      query: PageQuery
    ): Effect.Effect<RelationPage<WalletAgent>, WalletNotFound | InvalidCursor> =>
      Effect.gen(function*() {
        const walletId = walletPublicId.toLowerCase()
        if (!(yield* repo.walletExists(walletId))) {
          return yield* new WalletNotFound({ detail: "No wallet has this public id." })
        }
        const page = yield* cursor.page({
          position: RelationPosition,
          cursor: query.cursor,
          param: "cursor",
          binding: { operation: "Wallets_ListWalletAgents", wallet: walletId },
          limit: query.limit,
          fetch: (after, take) => repo.walletAgents(walletId, after, take),
          positionOf: (row) => row.id
        })
        return { rows: page.rows.map((row) => row.item), nextCursor: page.nextCursor }
      })

    return { agentWallets, walletAgents }
  }),
  dependencies: [AgentRelationsRepo.Default]
}) {}
