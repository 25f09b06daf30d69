/**
 * The package as a library: another Effect app mounts `ApiLive` with its own
 * server wiring (no `HttpLive`, no docs) and calls it through a typed client
 * derived from the `Api` contract.
 */
import { HttpApiBuilder, HttpApiClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Api, ApiLive, BackgroundLive, Errors, IdsLive } from "../../src/index.js"
import { testConfigLayer } from "../support/config.js"
import { TestDb } from "../support/TestServer.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoOffers } from "../../demo/services/seed.js"

const EmbeddingAppLive = HttpApiBuilder.serve().pipe(
  Layer.provide(ApiLive),
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(BackgroundLive), // the durable engine and every area's workflows
  Layer.provide(TestDb),
  Layer.provide(IdsLive),
  Layer.provide(testConfigLayer({ cookieSecure: false }))
)

layer(EmbeddingAppLive)("the API mounted by another Effect app", (it) => {
  it.effect("serves typed responses to a client derived from Api", () =>
    Effect.gen(function*() {
      const client = yield* HttpApiClient.make(Api)
      const catalog = yield* client.Protocols.getProtocolCatalog()
      expect(catalog.data.protocols.map((p) => p.key)).toEqual(["mcp", "a2a", "x402", "erc-8004", "openapi"])
      expect(catalog.meta.generatedAt).toBeInstanceOf(Date)
    }))

  it.effect("decodes problem responses into the tagged errors", () =>
    Effect.gen(function*() {
      const client = yield* HttpApiClient.make(Api)
      const error = yield* client.Accounts.signIn({
        payload: { email: DemoAccounts.owner.email, password: "not the password" }
      }).pipe(Effect.flip)
      expect(error).toBeInstanceOf(Errors.Unauthenticated)
      expect(error).toMatchObject({ status: 401, type: "https://agent-directory.dev/problems/unauthenticated" })
    }))

  it.effect("signs in and publishes through the typed client", () =>
    Effect.gen(function*() {
      const client = yield* HttpApiClient.make(Api)
      const { data } = yield* client.Accounts.signIn({
        payload: { email: DemoAccounts.owner.email, password: DemoAccounts.owner.password }
      })
      expect(data.accountPublicId).toBe(DemoAccounts.owner.id)
      expect(data.expiresAt).toBeInstanceOf(Date)
      // without the session cookie (the client keeps no cookie jar) the command is refused, typed
      const refused = yield* client.Services.publishServiceOffer({
        path: { offerId: DemoOffers.spare.id },
        payload: { version: 1 },
        headers: { "idempotency-key": "0190ffff-0000-7000-8000-000000000001" }
      }).pipe(Effect.flip)
      expect(refused).toBeInstanceOf(Errors.Unauthenticated)
    }))
})
