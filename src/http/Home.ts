/**
 * `GET /`: where a newcomer who opens the server's address lands. It answers JSON
 * (like every other route, readable in a browser and with curl) with the links to
 * the docs UI, the OpenAPI description, the MCP server and the directory's A2A Agent Card,
 * rather than a 404.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Layer } from "effect"
import { DirectoryPaths } from "./DirectoryAgentCard.js"

/**
 * The body of `GET /`: `{ name, links: { docs, openapi, mcp, agentCard } }` (paths on this
 * server: the docs UI, the OpenAPI description, the MCP server and the directory's A2A Agent Card).
 */
export const home = {
  name: "Agent Directory API",
  links: {
    docs: DirectoryPaths.docs,
    openapi: DirectoryPaths.openapi,
    mcp: DirectoryPaths.mcp,
    agentCard: DirectoryPaths.agentCard
  }
} as const

/** Serves {@link home} at `GET /` on the HttpApi router. */
export const HomeLive: Layer.Layer<never> = HttpApiBuilder.Router.use((router) =>
  router.get("/", Effect.succeed(HttpServerResponse.unsafeJson(home, { headers: { "cache-control": "no-cache" } })))
)
