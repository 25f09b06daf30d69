/**
 * Proof of control of an agent identity (spec §7: 410 challenge expired,
 * 422 proof invalid): Agents_CreateIdentityChallenge issues a message to sign for one
 * locator of the agent; Agents_ProveIdentity checks the signature and binds the locator to
 * the agent as REGISTRY_BOUND and proven.
 *
 * Rules:
 * - Only OWNER, ADMIN or EDITOR members of the workspace operating the agent act (404
 *   `agent-not-found` for anyone else, 403 `role-required` for other roles).
 * - Provable locators: EVM ADDRESS (EIP-191 signature by the address), EVM REGISTRY_TOKEN with
 *   its registry (the signer must be `ownerOf(tokenId)` on the chain, read through
 *   `CHAIN_RPC_URLS` of the network's CAIP-2 id; unconfigured → 422 `configuration-missing`; the RPC
 *   and did:web requests go through the guarded outbound client),
 *   SVM ASSET (Ed25519 by its base58 key), DID `did:key` (Ed25519) and `did:web` (an Ed25519
 *   key of its document's `authentication`). Off-chain registry keys cannot be proven (400).
 * - A challenge lives {@link ChallengeTtlMs} (10 minutes, from Clock) and proves once: a
 *   second proof with it is 409 `identity-challenge-used` (whatever its expiry; the challenge
 *   still exists until purged), an expired unused one 410 `challenge-expired`, a purged or
 *   unknown one 404. A refused proof (422) leaves the challenge unused, so it can be retried
 *   until it expires.
 * - Wallet-agent relations (src/wallets/relations/AgentRelations.ts), written in the proof's
 *   transaction: a proven EVM ADDRESS is related to the agent by the `relation` its challenge named
 *   (default OWNER; the message states it, so the signature covers it: a stored relation the message
 *   does not state fails the proof with 422 `signature-invalid`), proof SIGNATURE referencing the
 *   proven identity's public id; a proven REGISTRY_TOKEN makes its signer (the `ownerOf`) the agent's
 *   OWNER, proof REGISTRY referencing the token's CAIP-19 id. `relation` on a challenge of another
 *   locator kind is a 400. Every proof marks the agent's reputation evidence (proofs held).
 * - Verification state (spec §3): once proven, the agents the locator is REGISTRY_BOUND to get the
 *   state of THE verification rule (src/trust/reputation/VerificationRule.ts, shared with the reputation
 *   projector): a locator bound to several agents makes them all CONFLICTED (the resolver's rule);
 *   otherwise a proven identity makes the agent VERIFIED (REVOKED agents keep their state). Their
 *   evidence is marked for the projector (`markAgentEvidence`).
 * - Public activity (spec §2.21): the first proof of a bound identity records one DOMAIN_EVENT
 *   `identity.proven` of the agent in the proof's transaction (summary naming the public locator,
 *   network = the identity's CAIP-2 network when it has one); proving it again records nothing more.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { recordActivity } from "../../../layers/Activity.js"
import { AppConfig } from "../../../layers/AppConfig.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound } from "../../../layers/Outbound.js"
import {
  AgentNotFound,
  ChallengeExpired,
  ConfigurationMissing,
  InvalidRequest,
  type InvalidState,
  type RoleRequired
} from "../../../schema/errors.js"
import type { LocatorInput, ResolutionReason } from "../../../schema/identity.js"
import type { InvalidParam } from "../../../schema/problem.js"
import { parse as parseDid } from "did-resolver"
import type { Locator } from "../../identity/Locator.js"
import { Resolver } from "../../identity/Resolver.js"
import { IdentitiesRepo, type ChallengeRow } from "./Repo.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { applyVerificationRule, markAgentEvidence } from "../../trust/index.js"
import {
  type ChainRpcUnavailable,
  type DidNotResolvable,
  IdentityChallengeNotFound,
  IdentityChallengeUsed,
  SignatureInvalid,
  type SignerNotTokenOwner
} from "../Errors.js"
import type { IdentityChallenge, ProofMethod, ProvenIdentity } from "./Schemas.js"
import { requireActiveAgent, AgentOperators } from "../../agentAccess/Operators.js"
import { didKeyKey, didWebKeys } from "./proofs/DidWeb.js"
import { proveEd25519, svmKey } from "./proofs/Ed25519.js"
import { proveAddress, proveTokenOwner } from "./proofs/Evm.js"
import { challengeMessage, relationLine } from "./ChallengeMessage.js"
import type { WalletRelation } from "../../../schema/walletRelations.js"
import { WalletRelationProofs } from "../../wallets/index.js"
import { rolesFor } from "../../../schema/roles.js"

/** How long a challenge can be used, in milliseconds (10 minutes). */
export const ChallengeTtlMs = 10 * 60_000


/** The rule each normalisation reason stands for (the 400's `errors[].detail`; never the value). */
const reasonRules: Record<string, string> = {
  NETWORK_REQUIRED: "is required for this locator kind",
  NETWORK_UNKNOWN: "must name a known network (key, UUID or CAIP-2 chain id)",
  NETWORK_MALFORMED: "must be a network key, UUID or CAIP-2 chain id (namespace [-a-z0-9]{3,8}, reference [-_a-zA-Z0-9]{1,32})",
  NETWORK_FAMILY_MISMATCH: "must be a network of the locator's networkFamily",
  NETWORK_MISMATCH: "must name the chain of the CAIP-10 account id in nativeId",
  KIND_NOT_IN_FAMILY: "must be a locator kind of the networkFamily",
  ADDRESS_MALFORMED: "must be an EVM address (0x and 40 hex digits) or a CAIP-10 account id",
  ADDRESS_CHECKSUM_MISMATCH: "must carry a valid EIP-55 checksum when mixed-case",
  TOKEN_ID_MALFORMED: "must be a token id (decimal or 0x hex)",
  TOKEN_ID_OUT_OF_RANGE: "must be a token id below 2^256",
  SCHEME_REQUIRED: "is required (the SVM asset scheme)",
  SCHEME_MALFORMED: "must be a scheme of 1-100 lower-case letters, digits, '.', '_' or '-'",
  BASE58_MALFORMED: "must be base58",
  BASE58_NOT_32_BYTES: "must decode to 32 bytes",
  DID_MALFORMED: "must be a DID",
  DID_NOT_BARE: "must be a DID without path, query or fragment",
  REGISTRY_REQUIRED: "is required",
  REGISTRY_MALFORMED: "must be a registry key",
  REGISTRY_KEY_MALFORMED: "must be 1-200 printable ASCII characters"
}

const invalidBody = (errors: ReadonlyArray<InvalidParam>) =>
  new InvalidRequest({
    detail: errors.map((e) => `${e.pointer.slice(1)}: ${e.detail}`).join("; "),
    errors
  })

const param = (field: string, detail: string): InvalidParam => ({ in: "body", pointer: `/${field}`, detail })

const fromReasons = (reasons: ReadonlyArray<ResolutionReason>) =>
  invalidBody(reasons.map((r) => param(r.field ?? "nativeId", reasonRules[r.code] ?? `breaks the rule ${r.code}`)))

/** The proof errors of Agents_ProveIdentity's signature check. */
type ProofError = SignatureInvalid | SignerNotTokenOwner | DidNotResolvable | ChainRpcUnavailable | ConfigurationMissing

export class Identities extends Effect.Service<Identities>()("agent-directory/Identities", {
  effect: Effect.gen(function*() {
    const repo = yield* IdentitiesRepo
    const sqlClient = yield* SqlClient.SqlClient
    const operators = yield* AgentOperators
    const resolver = yield* Resolver
    const config = yield* AppConfig
    const ids = yield* Ids
    const outbound = yield* Outbound
    const relations = yield* WalletRelationProofs

    const access = (entityPublicId: string, accountId: string, action: string) =>
      operators.access({ entityPublicId, accountId, roles: { allowed: rolesFor("agents.write"), action } }).pipe(
        Effect.tap((a) => requireActiveAgent(a, action))
      )

    /** The RPC endpoint of a chain. Fails with `ConfigurationMissing`. */
    const rpcUrl = (caip2: string | null) => {
      const url = caip2 === null ? undefined : config.chainRpcUrls.get(caip2)
      return url === undefined
        ? Effect.fail(
          new ConfigurationMissing({
            detail: "No JSON-RPC endpoint is configured for the token's chain (CHAIN_RPC_URLS), so its owner cannot be read."
          })
        )
        : Effect.succeed(url)
    }

    /** The rules of a provable locator beyond normalisation (400), and the token's RPC endpoint (422). */
    const checkProvable = (l: Locator, caip2: string | null) =>
      Effect.gen(function*() {
        switch (l.kind) {
          case "REGISTRY_KEY":
            return yield* invalidBody([
              param("locatorKind", "must be ADDRESS, REGISTRY_TOKEN, ASSET or DID: an off-chain registry key cannot be proven by a signature")
            ])
          case "REGISTRY_TOKEN":
            if (l.partial) return yield* invalidBody([param("registry", "is required to prove a registry token")])
            yield* rpcUrl(caip2)
            return
          case "DID": {
            const parsed = parseDid(l.nativeId)
            if (parsed?.method === "web") return
            if (parsed?.method === "key" && didKeyKey(parsed.id) !== undefined) return
            return yield* invalidBody([param("nativeId", "must be a did:key (Ed25519) or did:web DID to be proven")])
          }
          default:
            return
        }
      })

    /**
     * Agents_CreateIdentityChallenge. Fails with `AgentNotFound`, `RoleRequired`, `InvalidState`
     * (a retired agent), `InvalidRequest` (the locator's rules) or `ConfigurationMissing` (a token's chain without RPC).
     */
    const createChallenge = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly locator: LocatorInput
      /** The wallet relation to prove (ADDRESS locators only; null = OWNER for an address). */
      readonly relation: WalletRelation | null
    }): Effect.Effect<IdentityChallenge, AgentNotFound | RoleRequired | InvalidState | InvalidRequest | ConfigurationMissing> =>
      Effect.gen(function*() {
        const agentId = input.entityPublicId.toLowerCase()
        yield* access(agentId, input.accountId, "Proving an identity of the agent")
        const session = yield* resolver.session
        const normalised = session.normalise(input.locator)
        if (normalised._tag === "Invalid") return yield* fromReasons(normalised.reasons)
        const locator = normalised.value
        const caip2 = yield* repo.caip2Of(locator.network)
        yield* checkProvable(locator, caip2)
        if (input.relation !== null && locator.kind !== "ADDRESS") {
          return yield* invalidBody([param("relation", "applies only to ADDRESS locators (leave it out or null)")])
        }
        const relation = locator.kind === "ADDRESS" ? input.relation ?? "OWNER" : null
        const issuedAt = yield* now
        const expiresAt = new Date(issuedAt.getTime() + ChallengeTtlMs)
        const challengeId = yield* ids.next
        const message = challengeMessage({
          origin: config.publicBaseUrl,
          agentId,
          agentName: yield* repo.agentName(agentId),
          locator: locator.locator,
          caip2,
          nonce: randomBytes(16).toString("hex"),
          issuedAt,
          expiresAt,
          challengeId,
          relation
        })
        yield* repo.insertChallenge({
          id: challengeId,
          agentId,
          accountId: input.accountId,
          locator,
          message,
          createdAt: issuedAt,
          expiresAt,
          relation
        })
        return { challengeId, message, expiresAt }
      })

    /**
     * Checks the signature of a challenge's message by its locator; the proof method used and,
     * for EVM proofs, the signing address (EIP-55).
     */
    const verify = (
      c: ChallengeRow,
      signature: string
    ): Effect.Effect<{ readonly method: ProofMethod; readonly signer: string | null }, ProofError> =>
      Effect.gen(function*() {
        switch (c.kind) {
          case "ADDRESS":
            // the relation the proof records must be the one the signed message states
            if (c.relation !== null && !c.message.split("\n").includes(relationLine(c.relation))) {
              return yield* new SignatureInvalid({ detail: "The signed challenge message does not state the relation to prove." })
            }
            yield* proveAddress(c.nativeId, c.message, signature)
            return { method: "EIP191" as const, signer: c.nativeId }
          case "REGISTRY_TOKEN": {
            const chain = (yield* repo.caip2Of(c.network)) ?? ""
            const signer = yield* proveTokenOwner({
              fetch: outbound.fetch,
              rpcUrl: yield* rpcUrl(chain),
              chain,
              registry: c.scope!,
              tokenId: c.nativeId,
              message: c.message,
              signature
            })
            return { method: "ERC721_OWNER" as const, signer }
          }
          case "ASSET":
            yield* proveEd25519([svmKey(c.nativeId)], c.message, signature, "base58")
            return { method: "ED25519" as const, signer: null }
          default: {
            const parsed = parseDid(c.nativeId)!
            if (parsed.method === "key") {
              yield* proveEd25519([didKeyKey(parsed.id)!], c.message, signature, "base64url")
              return { method: "DID_KEY" as const, signer: null }
            }
            yield* proveEd25519(yield* didWebKeys(parsed.did, outbound.fetch), c.message, signature, "base64url")
            return { method: "DID_WEB" as const, signer: null }
          }
        }
      })

    /**
     * Agents_ProveIdentity. Fails with `AgentNotFound`, `RoleRequired`,
     * `IdentityChallengeNotFound`, `IdentityChallengeUsed`, `ChallengeExpired`, the proof's
     * 422 causes or `ChainRpcUnavailable`.
     */
    const prove = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly challengeId: string
      readonly signature: string
    }): Effect.Effect<
      ProvenIdentity,
      AgentNotFound | RoleRequired | InvalidState | IdentityChallengeNotFound | IdentityChallengeUsed | ChallengeExpired | ProofError
    > =>
      Effect.gen(function*() {
        const agentId = input.entityPublicId.toLowerCase()
        yield* access(agentId, input.accountId, "Proving an identity of the agent")
        const found = yield* repo.challengeForUpdate(input.challengeId.toLowerCase(), agentId)
        if (Option.isNone(found)) {
          return yield* new IdentityChallengeNotFound({ detail: "The agent has no challenge of this id (expired ones are purged)." })
        }
        const challenge = found.value
        if (challenge.usedAt !== null) {
          return yield* new IdentityChallengeUsed({ detail: "This challenge already proved its identity; create a new challenge." })
        }
        const at = yield* now
        if (new Date(challenge.expiresAt).getTime() <= at.getTime()) {
          return yield* new ChallengeExpired({ detail: "The challenge expired; create a new one and sign its message." })
        }
        const { method, signer } = yield* verify(challenge, input.signature)
        yield* repo.markUsed(challenge.id, at)
        const bound = yield* repo.bindProven(challenge, method, at, yield* ids.next)
        // the wallet-agent relation this proof establishes (never from funding or transfers)
        if (challenge.kind === "ADDRESS" && signer !== null && challenge.network !== null) {
          yield* relations.record({
            id: yield* ids.next,
            agentId,
            network: challenge.network,
            address: signer,
            relation: challenge.relation ?? "OWNER",
            proofKind: "SIGNATURE",
            proofReference: bound.publicId,
            verifiedAt: at
          })
        } else if (challenge.kind === "REGISTRY_TOKEN" && signer !== null && challenge.network !== null) {
          yield* relations.record({
            id: yield* ids.next,
            agentId,
            network: challenge.network,
            address: signer,
            relation: "OWNER",
            proofKind: "REGISTRY",
            proofReference: `${yield* repo.caip2Of(challenge.network)}/erc721:${challenge.scope}/${challenge.nativeId}`,
            verifiedAt: at
          })
        }
        // the one verification rule (src/trust/reputation/VerificationRule.ts) for every agent bound to the locator;
        // their evidence changed, so their projections are marked for the projector
        const agents = [...new Set([...(yield* repo.boundAgents(challenge.locator)), agentId])].sort()
        yield* Effect.forEach(agents, (agent) => markAgentEvidence(agent, at), { discard: true }).pipe(
          Effect.zipRight(applyVerificationRule(agents, at)),
          Effect.provideService(SqlClient.SqlClient, sqlClient),
          dieOnStorageFailure
        )
        yield* recordActivity({
          agentId,
          activityKey: "identity.proven",
          dedupeKey: `identity.proven:${bound.publicId}`,
          sourceKind: "DOMAIN_EVENT",
          summary: `Proved control of the identity ${bound.locator}.`,
          network: bound.caip2,
          occurredAt: at
        }).pipe(Effect.provideService(SqlClient.SqlClient, sqlClient), Effect.provideService(Ids, ids))
        return { ...bound, proofMethod: method, verificationState: yield* repo.verificationState(agentId) }
      })

    return { createChallenge, prove }
  }),
  dependencies: [IdentitiesRepo.Default, AgentOperators.Default, WalletRelationProofs.Default]
}) {}
