/** HTTP handlers of the Launch area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Launch } from "./Launch.js"

export const LaunchHttpLive = group(Api, "Launch", (handlers) =>
  Effect.gen(function*() {
    const launch = yield* Launch
    const envelope = yield* Envelope
    return handlers.handle("materializeLaunchTransaction", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        launch.materialize({ runId: path.runId, expectedVersion: payload.expectedVersion, accountId: session.accountId }).pipe(
          Effect.flatMap(envelope.data)
        )))
  }))
