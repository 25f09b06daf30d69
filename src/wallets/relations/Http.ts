/** HTTP handlers of wallet-agent relations (Wallets_ListAgentWallets, Wallets_ListWalletAgents): decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { AgentRelations } from "./AgentRelations.js"

export const WalletAgentRelationsHttpLive = group(Api, "WalletAgentRelations", (handlers) =>
  Effect.gen(function*() {
    const relations = yield* AgentRelations
    const envelope = yield* Envelope
    return handlers
      .handle("listAgentWallets", ({ path, urlParams }) =>
        relations.agentWallets(path.entityPublicId, urlParams).pipe(
          Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
        ))
      .handle("listWalletAgents", ({ path, urlParams }) =>
        relations.walletAgents(path.walletPublicId, urlParams).pipe(
          Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
        ))
  }))
