/** HTTP handlers of the Procurement area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Procurement } from "./Procurement.js"

export const ProcurementHttpLive = group(Api, "Procurement", (handlers) =>
  Effect.gen(function*() {
    const procurement = yield* Procurement
    const envelope = yield* Envelope
    return handlers.handle("resumeProcurementIntent", ({ path }) =>
      Effect.flatMap(currentSession, (session) =>
        procurement.resume({ agentId: path.entityPublicId, intentId: path.intentPublicId, accountId: session.accountId }).pipe(
          Effect.flatMap(envelope.data)
        )))
  }))
