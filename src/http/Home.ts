/**
 * `GET /`: where a newcomer who opens the server's address lands. It answers JSON
 * (like every other route, readable in a browser and with curl) with the links to
 * the docs UI and the OpenAPI description, rather than a 404.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"

/** The body of `GET /`: `{ name, links: { docs, openapi } }` (paths on this server). */
export const home = {
  name: "Agent Directory API",
  links: { docs: "/docs", openapi: "/openapi.json" }
} as const

/** Serves {@link home} at `GET /` on the HttpApi router. */
export const HomeLive: Layer.Layer<never> = HttpApiBuilder.Router.use((router) =>
  router.get("/", Effect.succeed(HttpServerResponse.unsafeJson(home, { headers: { "cache-control": "no-cache" } })))
)
