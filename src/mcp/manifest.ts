/**
 * The mcp area's entries of the demo manifest (`src/db/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../Area.js"
import { DemoMcpConnections, DemoRuntimeAgents } from "../runtime/demo.js"

/** The mcp area's demo requests, by operationId. */
export const McpManifest = {
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
  }
} satisfies Record<string, ManifestOperation>
