/**
 * Wallets area contract, wallet-agent relations (spec §9: "public wallet-agent
 * relation API with explicit relation and proof"): an agent's wallets and a wallet's agents, each
 * relation with its explicit `relation` and `proof`. Its own group (tag "Wallets" through
 * `OpenApi.Title`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { AgentPath } from "../../../schema/agents.js"
import { Page } from "../../../schema/envelope.js"
import { AgentNotFound, InvalidCursor } from "../../../schema/errors.js"
import { AgentWallet, WalletAgent, WalletPath, WalletRelationsQuery } from "../../../schema/walletRelations.js"
import { operation } from "../../api/operation.js"
import { WalletNotFound } from "../Errors.js"

const rule = "A relation is explicit and proven, never inferred: it exists only where a proof of the agent's " +
  "identities (Agents_ProveIdentity) made it. SIGNATURE: the address signed an ADDRESS identity challenge that named " +
  "the relation (`relation` of Agents_CreateIdentityChallenge, default OWNER); `proof.reference` is the proven " +
  "identity's public id (the agent's `locators[].publicId`). REGISTRY: the address signed a registry-token challenge " +
  "and is the token's `ownerOf` (relation OWNER); `proof.reference` is the token's CAIP-19 id " +
  "`eip155:<chain>/erc721:<registry>/<tokenId>`. ATTESTATION is declared but no operation produces it yet. An " +
  "address that merely funded an agent or received transfers from it is never related to it (spec §9). A later proof " +
  "of the same relation replaces its proof (`verifiedAt`)."

const paging = "Cursor pages in the order the relations were recorded: `limit` 1-100 (default 25); `nextCursor` " +
  "(null on the last page) is signed and bound to this operation and path: used elsewhere it is a 400 `invalid-cursor`."

const statuses = [400, 401, 403, 404, 500, 503] as const

export class WalletAgentRelationsApi extends HttpApiGroup.make("WalletAgentRelations")
  .add(
    HttpApiEndpoint.get("listAgentWallets", "/api/v1/agents/:entityPublicId/wallets")
      .setPath(AgentPath)
      .setUrlParams(WalletRelationsQuery)
      .addSuccess(Page(AgentWallet, 100))
      .pipe(
        operation({
          id: "Wallets_ListAgentWallets",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [...statuses],
          summary: "The wallets of an agent, each with its explicit relation and proof (cursor pages)",
          description: "The agent's wallet relations: `walletPublicId` (the directory's wallet of this network and " +
            "address, null when no account holds one), `network` `{publicId, key, family, displayName, caip2}`, " +
            "`address` (EVM in EIP-55 form), `caip10` (`<caip2>:<address>`), `relation` (OWNER, OPERATOR, PAYOUT, " +
            "TREASURY) and `proof` `{kind, reference, verifiedAt}`.\n\n" + rule + "\n\n" + paging +
            " An unknown agent is a 404 `agent-not-found`. Public: anonymous callers and API keys with `agents:read`.",
          errors: [AgentNotFound, InvalidCursor]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listWalletAgents", "/api/v1/wallets/:walletPublicId/agents")
      .setPath(WalletPath)
      .setUrlParams(WalletRelationsQuery)
      .addSuccess(Page(WalletAgent, 100))
      .pipe(
        operation({
          id: "Wallets_ListWalletAgents",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [...statuses],
          summary: "The agents related to a wallet's address, each with its explicit relation and proof (cursor pages)",
          description: "The agents with a relation to the wallet's network and address (EVM addresses compared " +
            "without case): `agent` `{publicId, canonicalSlug, name, verificationState}`, `relation` (OWNER, OPERATOR, " +
            "PAYOUT, TREASURY) and `proof` `{kind, reference, verifiedAt}`. The relations belong to the address, not to " +
            "the account holding the wallet: anyone may read them.\n\n" + rule + "\n\n" + paging +
            " An unknown wallet is a 404 `wallet-not-found`. Public: anonymous callers and API keys with `agents:read`.",
          errors: [WalletNotFound, InvalidCursor]
        })
      )
  )
  .annotate(OpenApi.Title, "Wallets")
  .annotate(OpenApi.Description, "Wallets: wallet-agent relations with explicit relation and proof")
{}
