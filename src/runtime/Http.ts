/** HTTP handlers of the Runtime area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Runs } from "./Runs.js"
import { Runtime } from "./Runtime.js"
import { RuntimeConfigs } from "./RuntimeConfigs.js"

export const RuntimeHttpLive = group(Api, "Runtime", (handlers) =>
  Effect.gen(function*() {
    const runtime = yield* Runtime
    const runs = yield* Runs
    const runtimeConfigs = yield* RuntimeConfigs
    const envelope = yield* Envelope
    return handlers
      .handle("listRuntimeTools", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          runtime.listTools({ entityPublicId: path.entityPublicId, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("previewAgentSchedule", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          runtime.preview({
            entityPublicId: path.entityPublicId,
            accountId: session.accountId,
            cronExpression: payload.cronExpression,
            timezone: payload.timezone,
            count: payload.count,
            from: payload.from
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("sendMessage", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          runs.send({
            conversationId: path.conversationId,
            accountId: session.accountId,
            content: payload.content,
            parentMessageId: payload.parentMessageId
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("clearPlaygroundRunData", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          runs.clearPlaygroundData({ runId: path.runId, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
      .handle("configureAgentRuntime", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          runtimeConfigs.configure({ entityPublicId: path.entityPublicId, accountId: session.accountId, request: payload }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("getAgentRuntime", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          runtimeConfigs.get({ entityPublicId: path.entityPublicId, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
  }))
