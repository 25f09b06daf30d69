/** HTTP handlers of upstream sources (Partners_CreateUpstreamSource, Partners_ListUpstreamSources, Partners_SyncUpstreamSource). */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Sources } from "./Sources.js"

export const UpstreamSourcesHttpLive = group(Api, "UpstreamSources", (handlers) =>
  Effect.gen(function*() {
    const sources = yield* Sources
    const envelope = yield* Envelope
    return handlers
      .handle("createUpstreamSource", ({ payload }) => sources.create(payload).pipe(Effect.flatMap(envelope.data)))
      .handle("listUpstreamSources", () => sources.list.pipe(Effect.flatMap(envelope.data)))
      .handle("syncUpstreamSource", ({ path, payload }) =>
        sources.requestSync(path.sourceId, payload).pipe(Effect.flatMap(envelope.data)))
  }))
