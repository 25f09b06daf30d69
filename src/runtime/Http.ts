/** HTTP handlers of the Runtime area: decode → service → envelope. */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Stream } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { RunEventStreams } from "./events/RunEventStream.js"
import { Runs } from "./runs/Runs.js"
import { RunControl } from "./control/RunControl.js"
import { Runtime } from "./Runtime.js"
import { Conversations } from "./conversations/Conversations.js"
import { RunReads } from "./runs/RunReads.js"
import { noneMatch } from "../http/Conditional.js"
import { Schedules } from "./schedules/Schedules.js"
import { RuntimeConfigs } from "./config/RuntimeConfigs.js"

export const RuntimeHttpLive = group(Api, "Runtime", (handlers) =>
  Effect.gen(function*() {
    const runtime = yield* Runtime
    const runs = yield* Runs
    const schedules = yield* Schedules
    const control = yield* RunControl
    const runtimeConfigs = yield* RuntimeConfigs
    const envelope = yield* Envelope
    const conversations = yield* Conversations
    const runReads = yield* RunReads
    const runEvents = yield* RunEventStreams
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
      .handle("createConversation", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          conversations.create({
            entityPublicId: path.entityPublicId,
            accountId: session.accountId,
            title: payload.title,
            kind: payload.kind
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("listConversations", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          conversations.list({ entityPublicId: path.entityPublicId, accountId: session.accountId, ...urlParams }).pipe(
            Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
          )))
      .handle("listMessages", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          conversations.messages({ conversationId: path.conversationId, accountId: session.accountId, ...urlParams }).pipe(
            Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
          )))
      .handle("getRun", ({ path, request }) =>
        Effect.gen(function*() {
          const session = yield* currentSession
          const { etag, run } = yield* runReads.get({ runId: path.runId, accountId: session.accountId })
          // the client's copy is current: 304 with no body (RFC 9110 §15.4.5)
          if (noneMatch(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers: { etag } })
          yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "etag", etag)))
          return yield* envelope.data(run)
        }))
      .handle("streamRunEvents", ({ headers, path }) =>
        Effect.flatMap(currentSession, (session) =>
          runEvents.follow({ runId: path.runId, accountId: session.accountId, lastEventId: Number(headers["last-event-id"] ?? "0") }).pipe(
            Effect.map((following) =>
              following._tag === "Finished"
                ? HttpServerResponse.empty({ status: 204 })
                : HttpServerResponse.stream(following.body.pipe(Stream.encodeText), {
                  contentType: "text/event-stream",
                  // no proxy buffering (nginx), no transformation
                  headers: { "cache-control": "no-store, no-transform", "x-accel-buffering": "no" }
                })
            )
          )))
      .handle("createAgentSchedule", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          schedules.create({ entityPublicId: path.entityPublicId, accountId: session.accountId, body: payload })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("listAgentSchedules", ({ path, urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          schedules.list({ entityPublicId: path.entityPublicId, accountId: session.accountId, ...urlParams })
            .pipe(Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor)))))
      .handle("deleteAgentSchedule", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          schedules.remove({ ...path, accountId: session.accountId, expectedVersion: payload.expectedVersion })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("decideToolApproval", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          control.decide({ runId: path.runId, accountId: session.accountId, ...payload }).pipe(Effect.flatMap(envelope.data))))
      .handle("cancelRun", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          control.cancel({ runId: path.runId, accountId: session.accountId, expectedVersion: payload.expectedVersion }).pipe(
            Effect.flatMap(envelope.data)
          )))
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
