/**
 * Agents area contract, identity proofs: challenge a locator of an agent, then
 * prove control of it by signing the challenge. Its own group (tag "Agents" through
 * `OpenApi.Title`), so these operations live in their own files beside the directory reads.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { AgentPath } from "../../../schema/agents.js"
import { Data } from "../../../schema/envelope.js"
import { AgentNotFound, ChallengeExpired, ConfigurationMissing, InvalidRequest, InvalidState, RoleRequired } from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { agentVisibility } from "../../agentAccess/AgentVisibilityApi.js"
import {
  ChainRpcUnavailable,
  DidNotResolvable,
  IdentityChallengeNotFound,
  IdentityChallengeUsed,
  SignatureInvalid,
  SignerNotTokenOwner
} from "../Errors.js"
import {
  CreateIdentityChallengeRequest,
  IdentityChallenge,
  ProveIdentityRequest,
  ProvenIdentity
} from "./Schemas.js"


export class AgentIdentitiesApi extends HttpApiGroup.make("AgentIdentities")
  .add(
    HttpApiEndpoint.post("createIdentityChallenge", "/api/v1/agents/:entityPublicId/identity-challenges")
      .setPath(AgentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateIdentityChallengeRequest)
      .addSuccess(Data(IdentityChallenge), { status: 201 })
      .pipe(
        operation({
          id: "Agents_CreateIdentityChallenge",
          permission: "agents.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 422, 500, 503],
          summary: "Challenge a locator of an agent: the message to sign to prove control of it",
          description: "The locator is given in the fields of the spec §9 batch line (`networkFamily`, `network`, " +
            "`protocol`, `locatorKind`, `registry`, `nativeId`); `network` is a network key, UUID or CAIP-2 chain id " +
            "(`eip155:8453`), and an EVM address may be a CAIP-10 account id (`eip155:8453:0x…`). Provable: EVM " +
            "`ADDRESS`, EVM `REGISTRY_TOKEN` with its `registry` (ERC-8004 identity or any ERC-721), SVM `ASSET` (its " +
            "base58 key signs) and `DID` (`did:key` with an Ed25519 key, `did:web`); an off-chain registry key or another " +
            "DID method is a 400 naming the field. A token's chain needs a JSON-RPC endpoint (`CHAIN_RPC_URLS`), else 422 " +
            "`configuration-missing`.\n\n" +
            "`relation` (ADDRESS locators only): what the address is to the agent, OWNER (default, " +
            "when absent or null), OPERATOR, PAYOUT or TREASURY. The message names it (in its statement and on a " +
            "`Wallet Relation:` line), so the signature covers it; the proof then records that wallet-agent relation " +
            "(Wallets_ListAgentWallets). A `relation` on another locator kind is a 400 naming the field.\n\n" +
            "201 `{challengeId, message, expiresAt}`: `message` is an EIP-4361-like text naming this service's origin, " +
            "the agent, the canonical locator, the CAIP-2 chain id, a random nonce and the issue and expiry times; sign it " +
            "exactly and send the signature to Agents_ProveIdentity before `expiresAt` (10 minutes). A challenge proves " +
            "once; expired challenges are purged (every 15 minutes). " + agentVisibility,
          errors: [InvalidRequest, RoleRequired, AgentNotFound, InvalidState, ConfigurationMissing]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("proveIdentity", "/api/v1/agents/:entityPublicId/identities")
      .setPath(AgentPath)
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(ProveIdentityRequest)
      .addSuccess(Data(ProvenIdentity), { status: 201 })
      .pipe(
        operation({
          id: "Agents_ProveIdentity",
          permission: "agents.write",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "Prove control of a challenged locator by its signature; binds it to the agent",
          description: "`signature` signs the challenge's `message`: EVM an EIP-191 `personal_sign` signature " +
            "(`0x` + 130 hex; an address must be the signer, a registry token's `ownerOf(tokenId)` on its chain must be " +
            "the signer, read through `CHAIN_RPC_URLS`); SVM an Ed25519 signature of the message's UTF-8 bytes by the " +
            "base58 key, in base58; DID an Ed25519 signature in base64url without padding, by the did:key's key or by an " +
            "Ed25519 key of the did:web document's `authentication`.\n\n" +
            "201: the locator, now REGISTRY_BOUND to the agent with `provenAt` (as on the profile), the `proofMethod` and " +
            "the agent's `verificationState`: VERIFIED (from UNVERIFIED, PARTIAL or EXPIRED), or CONFLICTED for every " +
            "agent the locator is then bound to when it is bound to several (the resolver's rule); CONFLICTED and REVOKED " +
            "agents keep their state.\n\n" +
            "Checks in order: 404 `agent-not-found`, 403 `role-required`, 404 `identity-challenge-not-found` (not this " +
            "agent's, or purged), 409 `identity-challenge-used` (a challenge proves once), 410 `challenge-expired`, then " +
            "the proof: 422 `signature-invalid`, `signer-not-token-owner`, `did-not-resolvable` or " +
            "`configuration-missing` (no RPC endpoint for the chain), 503 `chain-rpc-unavailable` (the endpoint did not " +
            "answer within 5 s).\n\n" +
            "Wallet-agent relation (Wallets_ListAgentWallets): a proven address gets the relation its " +
            "challenge named, proof SIGNATURE referencing the locator's `publicId`; a proven registry token makes its " +
            "signer the agent's OWNER, proof REGISTRY referencing the token's CAIP-19 id. Other kinds of identity make no " +
            "relation. A refused proof leaves the challenge usable until it expires. " + agentVisibility,
          errors: [
            RoleRequired,
            AgentNotFound,
            InvalidState,
            IdentityChallengeNotFound,
            IdentityChallengeUsed,
            ChallengeExpired,
            SignatureInvalid,
            SignerNotTokenOwner,
            DidNotResolvable,
            ConfigurationMissing,
            ChainRpcUnavailable
          ]
        })
      )
  )
  .annotate(OpenApi.Title, "Agents")
  .annotate(OpenApi.Description, "Agents: proof of control of an agent's identities")
{}
