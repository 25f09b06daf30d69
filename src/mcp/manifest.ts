/**
 * The mcp area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoMcpConnections, DemoRuntimeAgents } from "../runtime/demo.js"

/** The mcp area's demo requests, by operationId. */
export const McpManifest = {
  // the reads of connections come before MCP_GetMcpCatalog, whose read of a stale demo catalog starts a fetch that
  // (the demo servers do not exist) makes its connection UNREACHABLE a moment later
  MCP_ListMcpConnections: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: null
  },
  MCP_GetMcpConnection: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured, connectionPublicId: DemoMcpConnections.docs.id },
    query: {},
    body: null
  },
  MCP_GetMcpCatalog: {
    as: "member",
    path: { entityPublicId: DemoRuntimeAgents.configured, connectionPublicId: DemoMcpConnections.docs.id },
    query: {},
    body: null
  },
  MCP_BeginMcpOAuth: {
    as: "owner",
    path: { entityPublicId: DemoRuntimeAgents.configured, connectionPublicId: DemoMcpConnections.crm.id },
    query: {},
    body: { scopes: ["crm.read", "crm.write"] }
  },
  MCP_CreateMcpConnection: {
    as: "owner",
    path: { entityPublicId: DemoRuntimeAgents.configured },
    query: {},
    body: { name: "Atlas search", serverUrl: "https://mcp.search.example/mcp", transport: "AUTO" },
    note: "The demo server does not exist: the connection's first fetch leaves it UNREACHABLE (`network-error`)."
  },
  MCP_RefreshMcpCatalog: {
    as: "owner",
    path: { entityPublicId: DemoRuntimeAgents.configured, connectionPublicId: DemoMcpConnections.local.id },
    query: {},
    body: {}
  }
} satisfies Record<string, ManifestOperation>
