/**
 * Serving a test-only HttpApi with the project's own middleware, envelope and
 * infrastructure: for auth modes the contract does not use yet (required-admin,
 * optional-user). Sessions are opened through the Auth service on the server's clock.
 */
import { type HttpApi, HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { Auth, AuthLive } from "../../layers/Auth.js"
import { ClockManual, makeManualClock } from "../../layers/Clock.js"
import { IdsSequence } from "../../layers/Ids.js"
import { OperationsLive } from "../../src/api/policies.js"
import { PublicAuthLive, SessionAuthLive } from "../../src/http/AuthMiddleware.js"
import { EnvelopeLive } from "../../src/http/Envelope.js"
import { RateBudgetMiddlewareLive } from "../../src/http/RateBudgetMiddleware.js"
import { RequestMiddlewareLive } from "../../src/http/RequestMiddleware.js"
import { RateBudgetLive } from "../../layers/RateBudget.js"
import { testConfigLayer } from "../support/config.js"
import type { Session } from "../support/http.js"
import { TestDb, TestEpoch } from "../support/TestServer.js"
import { DemoAccounts, type DemoAccountName } from "../../demo/accounts/seed.js"

/** A server for `api`: `apiLive` is `HttpApiBuilder.api(api)` with its groups provided. */
export const serveTestApi = <E, R>(api: HttpApi.HttpApi.Any, apiLive: Layer.Layer<HttpApi.Api, E, R>) => {
  const clock = makeManualClock(TestEpoch)
  const layer = HttpApiBuilder.serve().pipe(
    Layer.provide(apiLive),
    Layer.provide(RequestMiddlewareLive),
    Layer.provide([SessionAuthLive, PublicAuthLive, EnvelopeLive, RateBudgetMiddlewareLive]),
    Layer.provide(RateBudgetLive),
    Layer.provide(OperationsLive(api)),
    Layer.provideMerge(AuthLive),
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(TestDb),
    Layer.provide(IdsSequence("0000000c")),
    Layer.provide(testConfigLayer()),
    Layer.provide(ClockManual(clock)),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

  /**
   * Opens a session for a demo account through the Auth service, on the server's clock. The
   * test API has no Accounts_VerifyMfa: a half signed-in session (the demo admin has TOTP) is
   * completed in the database, as that operation would.
   */
  const sessionOf = (account: DemoAccountName) =>
    Effect.gen(function*() {
      const auth = yield* Auth
      const { email, password } = DemoAccounts[account]
      const signed = yield* auth.signIn({ email, password, userAgent: null }).pipe(Effect.withClock(clock), Effect.orDie)
      if (signed.mfaRequired) {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE sessions SET mfa_pending = false WHERE id = ${signed.sessionId}`.pipe(Effect.orDie)
      }
      return {
        cookie: `session=${Redacted.value(signed.token)}`,
        csrf: signed.csrfToken,
        accountId: signed.accountId,
        sessionId: signed.sessionId
      } satisfies Session
    })

  return { layer, clock, sessionOf }
}
