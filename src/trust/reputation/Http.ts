/** HTTP handlers of the Reputation group: decode → service → envelope (with the projection's freshness). */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Reputation } from "./Reputation.js"

export const ReputationHttpLive = group(Api, "Reputation", (handlers) =>
  Effect.gen(function*() {
    const reputation = yield* Reputation
    const envelope = yield* Envelope
    return handlers
      .handle("getAgentTrust", ({ path }) =>
        Effect.flatMap(reputation.trust(path.entityPublicId), (r) => envelope.data(r.data, r.freshness)))
      .handle("getAgentRank", ({ path }) =>
        Effect.flatMap(reputation.rank(path.entityPublicId), (r) => envelope.data(r.data, r.freshness)))
      .handle("getAgentPerformance", ({ path }) =>
        Effect.flatMap(reputation.performance(path.entityPublicId), (r) => envelope.data(r.data, r.freshness)))
  }))
