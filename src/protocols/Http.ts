/** HTTP handlers of the Protocols area. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { Envelope } from "../http/Envelope.js"
import { ProtocolsRepo } from "./Repo.js"
import { group } from "../http/group.js"

export const ProtocolsHttpLive = group(Api, "Protocols", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* ProtocolsRepo
    const envelope = yield* Envelope
    return handlers.handle("getProtocolCatalog", () =>
      repo.all.pipe(Effect.flatMap((protocols) => envelope.data({ protocols }))))
  }))
