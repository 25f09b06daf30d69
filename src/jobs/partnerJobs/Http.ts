/** HTTP handlers of partner job sources (Jobs_SyncPartnerJobSource). */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Sources } from "./Sources.js"

export const PartnerJobSourcesHttpLive = group(Api, "PartnerJobSources", (handlers) =>
  Effect.gen(function*() {
    const sources = yield* Sources
    const envelope = yield* Envelope
    return handlers.handle("syncPartnerJobSource", ({ path, payload }) =>
      sources.requestSync({ sourceId: path.sourceId, body: payload }).pipe(Effect.flatMap(envelope.data)))
  }))
