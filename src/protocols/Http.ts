/** HTTP handlers of the Protocols area. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { Envelope } from "../http/Envelope.js"
import { ProtocolsRepo } from "./Repo.js"

export const ProtocolsHttpLive = HttpApiBuilder.group(Api, "Protocols", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* ProtocolsRepo
    const envelope = yield* Envelope
    return handlers.handle("getProtocolCatalog", () =>
      repo.all.pipe(Effect.flatMap((protocols) => envelope.data({ protocols }))))
  }))
