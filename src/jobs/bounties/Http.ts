/** HTTP handlers of bounty dispute resolution (Jobs_ResolveBountyDispute). */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Disputes } from "./Disputes.js"

export const BountyDisputesHttpLive = group(Api, "BountyDisputes", (handlers) =>
  Effect.gen(function*() {
    const disputes = yield* Disputes
    const envelope = yield* Envelope
    return handlers.handle("resolveBountyDispute", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        disputes.resolve({ ...path, actorAccountId: session.accountId, body: payload }).pipe(Effect.flatMap(envelope.data))))
  }))
