/** HTTP handlers of the Protocols area. */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect } from "effect"
import { Api } from "../api/Api.js"
import { Envelope } from "../http/Envelope.js"
import { group } from "../http/group.js"
import { noneMatch } from "../http/Conditional.js"
import { ProtocolCatalogCache } from "./CatalogCache.js"

export const ProtocolsHttpLive = group(Api, "Protocols", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* ProtocolCatalogCache
    const envelope = yield* Envelope
    return handlers.handle("getProtocolCatalog", () =>
      Effect.gen(function*() {
        const { etag, protocols } = yield* catalog.current
        const request = yield* HttpServerRequest.HttpServerRequest
        // the client's copy is current: 304 with no body (RFC 9110 §15.4.5)
        if (noneMatch(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers: { etag } })
        yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "etag", etag)))
        return yield* envelope.data({ protocols })
      }))
  }))
