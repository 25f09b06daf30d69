/**
 * Demo data of the agent directory (spec §9): the protocols each demo agent speaks
 * (the list's `protocols` filter). Loaded by `seed.ts`. Networks come from the agents'
 * registry-bound identities (`DemoIdentities`).
 */
import { type SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import { DemoAgents } from "../db/demo.js"

/** Protocol keys (of `DemoProtocols`) per agent index of `DemoAgents`; Harbor Relay speaks none. */
export const DemoAgentProtocols: ReadonlyArray<readonly [number, ReadonlyArray<string>]> = [
  [0, ["mcp", "x402", "erc-8004"]],
  [1, ["a2a", "erc-8004"]],
  [2, ["x402"]],
  [3, ["mcp", "openapi"]],
  [4, ["a2a"]],
  [5, ["erc-8004", "openapi"]],
  [6, ["erc-8004", "x402"]]
]

/** Loads the directory demo data (inside the seed transaction). Fails with `SqlError`. */
export const seedAgentsDemo = (sql: SqlClient.SqlClient): Effect.Effect<void, SqlError.SqlError> =>
  sql`INSERT INTO agent_protocols ${
    sql.insert(DemoAgentProtocols.flatMap(([agent, keys]) => keys.map((key) => ({ agent_id: DemoAgents[agent]!.id, protocol_key: key }))))
  }`.pipe(Effect.asVoid)
