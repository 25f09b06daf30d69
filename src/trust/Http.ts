/** HTTP handlers of the Trust area: decode → service → envelope. */
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { AgentFindings } from "./findings/Findings.js"
import { Trust } from "./Trust.js"

export const TrustHttpLive = group(Api, "Trust", (handlers) =>
  Effect.gen(function*() {
    const trust = yield* Trust
    const findings = yield* AgentFindings
    const envelope = yield* Envelope
    return handlers.handle("createFeedback", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        trust.create({ entityPublicId: path.entityPublicId, body: payload, accountId: session.accountId }).pipe(
          Effect.flatMap(envelope.data)
        )))
      .handle("voteFeedback", ({ path, payload }) =>
        Effect.flatMap(currentSession, (session) =>
          trust.vote({ feedbackId: path.feedbackId, vote: payload.vote, accountId: session.accountId }).pipe(
            Effect.flatMap(envelope.data)
          )))
      .handle("withdrawFeedback", ({ path, payload }) =>
      Effect.flatMap(currentSession, (session) =>
        trust.withdraw({ feedbackId: path.feedbackId, ...payload, accountId: session.accountId }).pipe(
          Effect.flatMap(envelope.data)
        )))
      .handle("listAgentFindings", ({ path, urlParams }) =>
        Effect.flatMap(findings.list(path.entityPublicId, urlParams), (page) => envelope.page(page.rows, page.nextCursor)))
  }))
