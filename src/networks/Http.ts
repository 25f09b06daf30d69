/** HTTP handlers of the Networks area. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Networks } from "./Networks.js"

export const NetworksHttpLive = group(Api, "Networks", (handlers) =>
  Effect.gen(function*() {
    const networks = yield* Networks
    const envelope = yield* Envelope
    return handlers.handle("listNetworks", () => Effect.flatMap(networks.list, envelope.data))
  }))
