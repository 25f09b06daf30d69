/** HTTP handlers of identity proofs (Agents_CreateIdentityChallenge, Agents_ProveIdentity): decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Identities } from "./Identities.js"

export const AgentIdentitiesHttpLive = group(Api, "AgentIdentities", (handlers) =>
  Effect.gen(function*() {
    const identities = yield* Identities
    const envelope = yield* Envelope
    return handlers
      .handle("createIdentityChallenge", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          identities.createChallenge({
            entityPublicId: path.entityPublicId,
            accountId: session.accountId,
            locator: payload,
            relation: payload.relation
          })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("proveIdentity", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          identities.prove({
            entityPublicId: path.entityPublicId,
            accountId: session.accountId,
            challengeId: payload.challengeId,
            signature: payload.signature
          }).pipe(Effect.flatMap(envelope.data))))
  }))
