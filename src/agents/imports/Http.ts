/** HTTP handlers of the AgentImports group (tag Agents): start an import, read it. */
import { Effect } from "effect"
import { Api } from "../../api/Api.js"
import { currentSession } from "../../api/security.js"
import { Envelope } from "../../http/Envelope.js"
import { group } from "../../http/group.js"
import { AgentImports } from "./Imports.js"

export const AgentImportsHttpLive = group(Api, "AgentImports", (handlers) =>
  Effect.gen(function*() {
    const imports = yield* AgentImports
    const envelope = yield* Envelope
    return handlers
      .handle("importAgentSource", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          imports.create({ ...payload, agentId: path.entityPublicId.toLowerCase(), accountId: session.accountId }))
          .pipe(Effect.flatMap(envelope.data)))
      .handle("getAgentImport", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          imports.get({
            agentId: path.entityPublicId.toLowerCase(),
            importId: path.importId.toLowerCase(),
            accountId: session.accountId
          })).pipe(Effect.flatMap(envelope.data)))
  }))
