/** HTTP handlers of the Mesh group (tag Social): decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { Mesh } from "./Mesh.js"

export const MeshHttpLive = group(Api, "Mesh", (handlers) =>
  Effect.gen(function*() {
    const mesh = yield* Mesh
    const envelope = yield* Envelope
    return handlers.handle("createMeshPublisher", ({ payload }) =>
      Effect.flatMap(currentSession, (session) =>
        mesh.create({ body: payload, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
  }))
