/** HTTP handlers of the Accounts area. */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Redacted } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Api } from "../api/Api.js"
import { currentSession, SessionCookieName } from "../api/security.js"
import { clientAddress } from "../http/ClientAddress.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { Accounts } from "./Accounts.js"
import { ApiKeys } from "./apiKeys/ApiKeys.js"
import { SignUp } from "./signUp/SignUp.js"
import { Mfa } from "./mfa/Mfa.js"

export const AccountsHttpLive = group(Api, "Accounts", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const apiKeys = yield* ApiKeys
    const signUp = yield* SignUp
    const mfa = yield* Mfa
    const envelope = yield* Envelope
    const config = yield* AppConfig
    return handlers
      .handle("signIn", ({ payload }) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const signedIn = yield* accounts.signIn({
            email: payload.email,
            password: payload.password,
            origin: request.headers["origin"],
            host: request.headers["host"],
            userAgent: request.headers["user-agent"] ?? null,
            clientAddress: clientAddress(request, config.trustedProxyHops)
          })
          yield* HttpApp.appendPreResponseHandler((_, response) =>
            Effect.orDie(HttpServerResponse.setCookie(response, SessionCookieName, Redacted.value(signedIn.token), {
              httpOnly: true,
              sameSite: "lax",
              path: "/",
              secure: config.cookieSecure,
              expires: signedIn.expiresAt
            }))
          )
          return yield* envelope.data({
            accountPublicId: signedIn.accountId,
            sessionId: signedIn.sessionId,
            csrfToken: signedIn.csrfToken,
            expiresAt: signedIn.expiresAt,
            mfaRequired: signedIn.mfaRequired
          })
        }))
      .handle("signUp", ({ payload }) => signUp.signUp(payload).pipe(Effect.flatMap(envelope.data)))
      .handle("verifyEmail", ({ payload }) => signUp.verifyEmail(payload.token).pipe(Effect.flatMap(envelope.data)))
      .handle("requestPasswordReset", ({ payload }) =>
        signUp.requestPasswordReset(payload.email).pipe(Effect.flatMap(envelope.data)))
      .handle("completePasswordReset", ({ payload }) =>
        signUp.completePasswordReset(payload).pipe(Effect.flatMap(envelope.data)))
      .handle("getMe", () =>
        currentSession.pipe(Effect.flatMap((s) => accounts.me(s.accountId)), Effect.flatMap(envelope.data)))
      .handle("listSessions", () =>
        currentSession.pipe(
          Effect.flatMap((s) => accounts.sessions(s.accountId, s.sessionId)),
          Effect.flatMap(envelope.data)
        ))
      .handle("revokeSession", ({ path }) =>
        Effect.flatMap(currentSession, (s) =>
          accounts.revoke(path.sessionId, s).pipe(Effect.flatMap(envelope.data))))
      .handle("createApiKey", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          apiKeys.create({
            workspaceId: path.workspacePublicId,
            accountId: s.accountId,
            name: payload.name,
            scopes: payload.scopes,
            expiresAt: payload.expiresAt,
            allowedOrigins: payload.allowedOrigins
          }).pipe(Effect.flatMap(envelope.data))))
      .handle("listApiKeys", ({ path }) =>
        currentSession.pipe(
          Effect.flatMap((s) => apiKeys.list(path.workspacePublicId, s.accountId)),
          Effect.flatMap(envelope.data)
        ))
      .handle("revokeApiKey", ({ path }) =>
        Effect.flatMap(currentSession, (s) =>
          apiKeys.revoke(path.workspacePublicId, path.apiKeyPublicId, s.accountId).pipe(Effect.flatMap(envelope.data))))
      .handle("verifyMfa", ({ payload }) =>
        Effect.flatMap(currentSession, (s) => mfa.verify(s, payload.code).pipe(Effect.flatMap(envelope.data))))
      .handle("enrollTotp", () =>
        Effect.flatMap(currentSession, (s) => mfa.enroll(s.accountId).pipe(Effect.flatMap(envelope.data))))
      .handle("confirmTotp", ({ payload }) =>
        Effect.flatMap(currentSession, (s) => mfa.confirm(s.accountId, payload.code).pipe(Effect.flatMap(envelope.data))))
      .handle("disableTotp", ({ payload }) =>
        Effect.flatMap(currentSession, (s) => mfa.disable(s.accountId, payload.code).pipe(Effect.flatMap(envelope.data))))
      .handle("regenerateRecoveryCodes", ({ payload }) =>
        Effect.flatMap(currentSession, (s) => mfa.regenerate(s.accountId, payload.code).pipe(Effect.flatMap(envelope.data))))
  }))
