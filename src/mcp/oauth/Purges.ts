/**
 * The MCP area's purge on the durable engine (`layers/Engine.ts`): expired OAuth flows
 * (`mcp_oauth_flows`, written by MCP_BeginMcpOAuth with a 10-minute life, see
 * `Mcp.ts`) hold a PKCE `code_verifier` and a `state` that can never be used again.
 * A `ClusterCron` deletes them every 15 minutes (UTC), with one idempotent
 * `DELETE … WHERE expires_at <= now` relative to Effect's `Clock`, so an expired
 * verifier stays at rest at most a quarter of an hour (plus the engine's poll).
 */
import { Effect, Layer } from "effect"
import { now } from "../../../layers/Clock.js"
import { expiredRowsPurge } from "../../../layers/Engine.js"
import { McpRepo } from "../Repo.js"

/** One purge: deletes the flows expired now and returns how many. Requires `SqlClient`, `McpRepo`. */
export const purgeExpiredOAuthFlows = Effect.flatMap(McpRepo, (repo) => Effect.flatMap(now, repo.deleteExpiredFlows))

/** The cron job (`PurgeMcpOAuthFlows`, every 15 minutes UTC). Requires the engine's `Sharding` and `SqlClient`. */
export const OAuthFlowPurgeLive = expiredRowsPurge({
  name: "PurgeMcpOAuthFlows",
  what: "expired MCP OAuth flows",
  purge: (at) => Effect.flatMap(McpRepo, (repo) => repo.deleteExpiredFlows(at))
}).pipe(Layer.provide(McpRepo.Default))
