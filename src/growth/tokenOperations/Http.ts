/** HTTP handlers of the admin token operations view (Growth_ListAdminTokenOperations). */
import { Effect } from "effect"
import { now } from "../../../layers/Clock.js"
import { Api } from "../../api/Api.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { TokenOperationsRepo } from "./Repo.js"

export const TokenOperationsHttpLive = group(Api, "TokenOperations", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* TokenOperationsRepo
    const envelope = yield* Envelope
    return handlers.handle("listAdminTokenOperations", () =>
      Effect.gen(function*() {
        const asOf = yield* now
        const data = yield* repo.list().pipe(Effect.orDie)
        const meta = yield* envelope.meta
        return { data, asOf, meta }
      }))
  }))
