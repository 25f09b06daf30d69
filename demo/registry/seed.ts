/**
 * Demo data of the MCP subregistry: the directory's own MCP servers (Beacon Monitor in two versions,
 * the older deprecated; Atlas Research in one), in the MCP Registry's `server.json` shape.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoTime } from "../common.js"
import { DemoAgents } from "../agents/seed.js"

const atlas = DemoAgents[0]
const beacon = DemoAgents[1]

/** The demo MCP servers (name, versions). */
export const DemoMcpServers = {
  beacon: { name: "dev.agent-directory/beacon-monitor", latest: "1.1.0", older: "1.0.0", agentId: beacon.id },
  atlas: { name: "dev.agent-directory/atlas-research", latest: "2.0.0", agentId: atlas.id }
} as const

const server = (name: string, version: string, title: string, description: string, url: string) => ({
  $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  name,
  title,
  description,
  version,
  websiteUrl: "https://agent-directory.dev",
  remotes: [{ type: "streamable-http", url }]
})

/** Inserts the demo MCP servers. Fails with `SqlError`. */
export const seedRegistry = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = [
    {
      name: DemoMcpServers.beacon.name, version: "1.0.0", agent_id: beacon.id,
      server: server(DemoMcpServers.beacon.name, "1.0.0", "Beacon Monitor", "Uptime and chain monitoring", "https://beacon.example/mcp"),
      status: "deprecated", status_message: "Please upgrade to 1.1.0", status_changed_at: demoTime(40), published_at: demoTime(10),
      updated_at: demoTime(40), is_latest: false
    },
    {
      name: DemoMcpServers.beacon.name, version: "1.1.0", agent_id: beacon.id,
      server: server(DemoMcpServers.beacon.name, "1.1.0", "Beacon Monitor", "Uptime and chain monitoring, with alerts", "https://beacon.example/mcp"),
      status: "active", status_message: null, status_changed_at: demoTime(40), published_at: demoTime(40),
      updated_at: demoTime(40), is_latest: true
    },
    {
      name: DemoMcpServers.atlas.name, version: "2.0.0", agent_id: atlas.id,
      server: server(DemoMcpServers.atlas.name, "2.0.0", "Atlas Research", "Deep research on demand", "https://atlas.example/mcp"),
      status: "active", status_message: null, status_changed_at: demoTime(30), published_at: demoTime(30),
      updated_at: demoTime(30), is_latest: true
    }
  ]
  yield* sql`INSERT INTO registry_servers ${sql.insert(rows.map((r) => ({ ...r, server: JSON.stringify(r.server) })))}`
})
