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
    return handlers
      .handle("createLaunchDraft", ({ payload }) =>
        Effect.flatMap(currentSession, (session) =>
          launch.createDraft({ body: payload, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
      .handle("startLaunchRun", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          launch.startRun({ draftId: path.launchDraftId, accountId: session.accountId, signature: payload.signature }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("getLaunchRun", ({ path }) =>
        Effect.flatMap(currentSession, (session) =>
          launch.getRun({ runId: path.runId, accountId: session.accountId }).pipe(Effect.flatMap(envelope.data))))
      .handle("listLaunchRuns", ({ urlParams }) =>
        Effect.flatMap(currentSession, (session) =>
          launch.listRuns({ ...urlParams, accountId: session.accountId }).pipe(
            Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
          )))
      .handle("materializeLaunchTransaction", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          launch.materialize({ runId: path.runId, expectedVersion: payload.expectedVersion, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
  }))
