/** HTTP handlers of the Agents area. */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { noneMatch } from "../http/Conditional.js"
import { AgentCards } from "./cards/AgentCards.js"
import { Cursor } from "../../layers/Cursor.js"
import { Api } from "../api/Api.js"
import { CurrentPrincipal, currentSession } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { principalScope } from "../http/group.js"
import { Resolver } from "../identity/Resolver.js"
import { Agents } from "./Agents.js"
import { AgentsRepo, FavoritePosition } from "./Repo.js"
import { group } from "../http/group.js"
import { Registration } from "./registration/Registration.js"
import { Favorites } from "./favorites/Favorites.js"
import { FavoriteAdded } from "../../schema/agents.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { erc8004RegistrationFile } from "./registration/Erc8004File.js"

export const AgentsHttpLive = group(Api, "Agents", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* AgentsRepo
    const agents = yield* Agents
    const cursor = yield* Cursor
    const envelope = yield* Envelope
    const resolver = yield* Resolver
    const registration = yield* Registration
    const cards = yield* AgentCards
    const favorites = yield* Favorites
    const config = yield* AppConfig
    return handlers.handle("listFavoriteAgents", ({ urlParams }) =>
      Effect.gen(function*() {
        const session = yield* currentSession
        const page = yield* cursor.page({
          position: FavoritePosition,
          cursor: urlParams.cursor,
          param: "cursor",
          binding: { operation: "Agents_ListFavoriteAgents", principal: session.accountId },
          limit: urlParams.limit,
          fetch: (after, take) => repo.favorites(session.accountId, after, take),
          positionOf: (row) => row.position
        })
        return yield* envelope.page(page.rows.map((row) => row.agent), page.nextCursor)
      }))
      .handle("listAgents", ({ urlParams }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const page = yield* agents.list(urlParams, principalScope(principal))
          return yield* envelope.page(page.rows, page.nextCursor)
        }))
      .handle("listAgentFacets", ({ urlParams }) => agents.facets(urlParams).pipe(Effect.flatMap(envelope.data)))
      .handle("getAgent", ({ path }) => agents.profile(path.entityPublicId).pipe(Effect.flatMap(envelope.data)))
      .handle("getAgentCard", ({ path }) =>
        Effect.gen(function*() {
          const card = yield* cards.forAgent(path.entityPublicId)
          const request = yield* HttpServerRequest.HttpServerRequest
          // the client's copy is current: 304 with no body (RFC 9110 §15.4.5)
          if (noneMatch(request.headers["if-none-match"], card.etag)) {
            return HttpServerResponse.empty({ status: 304, headers: { etag: card.etag } })
          }
          // the exact text (a published card's signatures cover it), not re-encoded through the Schema
          return HttpServerResponse.text(card.body, { contentType: "application/json", headers: { etag: card.etag } })
        }))
      .handle("getErc8004Registration", ({ path }) =>
        agents.profile(path.entityPublicId).pipe(
          // the exact JSON of the file (not re-encoded through the Schema: `version` stays absent when none)
          Effect.map((profile) =>
            HttpServerResponse.text(JSON.stringify(erc8004RegistrationFile(profile, config.publicBaseUrl)), {
              contentType: "application/json"
            }))
        ))
      .handle("createAgent", ({ payload }) =>
        Effect.flatMap(currentSession, (s) =>
          registration.create({ body: payload, accountId: s.accountId }).pipe(Effect.flatMap(envelope.data))))
      .handle("updateAgent", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          registration.update({ entityPublicId: path.entityPublicId, body: payload, accountId: s.accountId })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("retireAgent", ({ path, payload }) =>
        Effect.flatMap(currentSession, (s) =>
          registration.retire({ entityPublicId: path.entityPublicId, body: payload, accountId: s.accountId })
            .pipe(Effect.flatMap(envelope.data))))
      .handle("favoriteAgent", ({ path }) =>
        Effect.gen(function*() {
          const session = yield* currentSession
          const { added, item } = yield* favorites.add({ entityPublicId: path.entityPublicId, accountId: session.accountId })
          const body = yield* envelope.data(item)
          // wrapped: the 201 (added now); the plain envelope: the 200 (already a favorite)
          return added ? new FavoriteAdded(body) : body
        }))
      .handle("unfavoriteAgent", ({ path }) =>
        Effect.flatMap(currentSession, (s) => favorites.remove({ entityPublicId: path.entityPublicId, accountId: s.accountId })))
      .handle("resolveAgentIdentities", ({ payload }) =>
        resolver.resolveAll(payload.locators).pipe(Effect.flatMap((results) => envelope.data({ results }))))
      .handle("getPublicAgentActivity", ({ path, urlParams }) =>
        agents.activity(path.entityPublicId, urlParams).pipe(
          Effect.flatMap((page) => envelope.page(page.rows, page.nextCursor))
        ))
  }))
