/**
 * The MCP area's purge on the durable engine (`layers/Engine.ts`): expired OAuth flows
 * (`mcp_oauth_flows`, written by MCP_BeginMcpOAuth with a 10-minute life, see
 * `Mcp.ts`) hold a PKCE `code_verifier` and a `state` that can never be used again.
 * A `ClusterCron` deletes them every 15 minutes (UTC), with one idempotent
 * `DELETE … WHERE expires_at <= now` relative to Effect's `Clock`, so an expired
 * verifier stays at rest at most a quarter of an hour (plus the engine's poll).
 */
import { ClusterCron } from "@effect/cluster"
import { Cron, Duration, Effect, Layer } from "effect"
import { now } from "../../layers/Clock.js"
import { McpRepo } from "./Repo.js"

/** One purge: deletes the flows expired now and returns how many. Requires `SqlClient`, `McpRepo`. */
export const purgeExpiredOAuthFlows = Effect.flatMap(McpRepo, (repo) => Effect.flatMap(now, repo.deleteExpiredFlows))

/**
 * The cron job (`PurgeMcpOAuthFlows`, every 15 minutes UTC) registered on the
 * engine. A late occurrence is still run (it only catches up). Requires the engine's
 * `Sharding` and `SqlClient`.
 */
export const OAuthFlowPurgeLive = ClusterCron.make({
  name: "PurgeMcpOAuthFlows",
  cron: Cron.unsafeParse("*/15 * * * *", "UTC"),
  skipIfOlderThan: Duration.days(3650),
  execute: purgeExpiredOAuthFlows.pipe(
    Effect.tap((deleted) =>
      deleted === 0 ? Effect.void : Effect.logInfo("expired MCP OAuth flows purged").pipe(Effect.annotateLogs({ deleted }))
    ),
    Effect.asVoid
  )
}).pipe(Layer.provide(McpRepo.Default))
