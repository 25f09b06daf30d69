/**
 * The mcp area's entries of the demo manifest (`demo/manifest.ts`): for each of its
 * operations, one request that succeeds on a freshly seeded database (the example of
 * `/docs`, checked by test/demo/Manifest.test.ts).
 */
import type { ManifestOperation } from "../DemoArea.js"
import { DemoMcpConnections, DemoRuntimeAgents } from "../runtime/data.js"

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
  // completing needs a live authorization server's code: on the demo data the callback answers its refusal
  MCP_CompleteMcpOAuth: {
    as: "owner",
    path: {},
    query: { state: "demo-state-of-no-flow", code: "demo-code" },
    body: null,
    problem: { status: 400, type: "oauth-state-invalid" },
    note: "Example (demo): no OAuth flow of the demo owner has this `state`, so the callback answers 400 " +
      "`oauth-state-invalid`; the authorization server sends the browser here with the `state` and `code` of a flow " +
      "that `MCP_BeginMcpOAuth` began."
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
