/** HTTP handlers of partner job sources (Jobs_CreatePartnerJobSource, Jobs_ListPartnerJobSources, Jobs_UpdatePartnerJobSource, Jobs_SyncPartnerJobSource). */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Sources } from "./Sources.js"

export const PartnerJobSourcesHttpLive = group(Api, "PartnerJobSources", (handlers) =>
  Effect.gen(function*() {
    const sources = yield* Sources
    const envelope = yield* Envelope
    return handlers
      .handle("createPartnerJobSource", ({ payload }) =>
        Effect.flatMap(currentSession, (session) => sources.create(payload, session.accountId)).pipe(
          Effect.flatMap(envelope.data)
        ))
      .handle("listPartnerJobSources", () => sources.list.pipe(Effect.flatMap(envelope.data)))
      .handle("updatePartnerJobSource", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) => sources.update(path.sourceId, payload, session.accountId)).pipe(
          Effect.flatMap(envelope.data)
        ))
      .handle("syncPartnerJobSource", ({ path, payload }) =>
        sources.requestSync({ sourceId: path.sourceId, body: payload }).pipe(Effect.flatMap(envelope.data)))
  }))
