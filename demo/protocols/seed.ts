/**
 * Demo data of the protocols area, and its seed step (run by `demo/seed.ts` in the order of
 * `src/areas.ts`).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export const DemoProtocols = [
  { key: "mcp", name: "Model Context Protocol", status: "SUPPORTED", features: ["tools", "resources", "prompts", "oauth"] },
  { key: "a2a", name: "Agent2Agent", status: "SUPPORTED", features: ["agent-card", "tasks", "streaming"] },
  { key: "x402", name: "x402 Payments", status: "SUPPORTED", features: ["exact", "upto"] },
  { key: "erc-8004", name: "ERC-8004 Trustless Agents", status: "PREVIEW", features: ["identity-registry", "reputation-registry"] },
  { key: "openapi", name: "OpenAPI", status: "SUPPORTED", features: ["3.0", "3.1"] }
] as const


/**
 * Inserts the demo protocol catalog, inside the seed's transaction. Fails with `SqlError`.
 */
export const seedProtocols = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO protocols ${
    sql.insert(DemoProtocols.map((p, i) => ({ key: p.key, name: p.name, status: p.status, position: i + 1, features: "{}" })))
  }`
  for (const p of DemoProtocols) {
    yield* sql`UPDATE protocols SET features = ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(p.features)}::jsonb))
               WHERE key = ${p.key}`
  }
})
