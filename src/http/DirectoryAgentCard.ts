/**
 * `GET /.well-known/agent-card.json`: the directory itself as an A2A agent (Agent2Agent
 * protocol 1.0 `AgentCard`, the path of A2A's discovery, RFC 8615), whose skills are
 * `search` and `resolve`.
 *
 * - `supportedInterfaces`: the directory's A2A interface (src/a2aServer/), JSON-RPC at
 *   `/a2a/jsonrpc` (preferred) and HTTP+JSON at `/a2a/rest`, protocol version 1.0;
 * - `securitySchemes`: the API key (`X-API-Key`, or `Authorization: Bearer`); no
 *   `securityRequirements`, since anonymous calls are served (with the anonymous budget);
 * - its other interfaces, an MCP server (`/mcp`, Streamable HTTP) and the REST API
 *   (`/api/v1`, described by `/openapi.json`), are not A2A bindings: they are listed in the
 *   non-A2A-interfaces extension (`capabilities.extensions[]`,
 *   schema/a2aInterfacesExtension.ts, `required: false`), and each skill's description names
 *   its MCP tool and REST operation; `documentationUrl` is the docs page (`/docs`).
 *
 * URLs are absolute under `PUBLIC_BASE_URL`. The card is the same for every caller, so it
 * is built once; it carries a strong `ETag` (`If-None-Match` → 304) and the cache policy
 * of public catalog reads. Readable cross-origin (`Access-Control-Allow-Origin: *`): it is
 * a public document, fetched without credentials.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { nonA2aInterfacesExtension } from "../../schema/a2aInterfacesExtension.js"
import { cacheControl } from "../api/operation.js"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"
import { noneMatch, strongEtag } from "./Conditional.js"

/** Where the directory serves its card, its MCP server and its REST API (paths on this server). */
export const DirectoryPaths = {
  agentCard: "/.well-known/agent-card.json",
  a2aJsonRpc: "/a2a/jsonrpc",
  a2aRest: "/a2a/rest",
  mcp: "/mcp",
  api: "/api/v1",
  openapi: "/openapi.json",
  docs: "/docs"
} as const

/**
 * The newest MCP revision the directory's MCP server speaks (the SDK's `LATEST_PROTOCOL_VERSION`);
 * it also negotiates the older ones of the SDK's `SUPPORTED_PROTOCOL_VERSIONS`.
 */
export const McpProtocolVersion = LATEST_PROTOCOL_VERSION

/** The A2A protocol version of the directory's A2A interface (the SDK's `A2A_PROTOCOL_VERSION`). */
export const A2aProtocolVersion = "1.0"

/** The directory's card (a JSON value) for the origin `publicBaseUrl` (no trailing slash). */
export const directoryAgentCard = (publicBaseUrl: string) => {
  const url = (path: string) => `${publicBaseUrl}${path}`
  return {
    name: "Agent Directory",
    description: "A directory of AI agents: search the listed agents (by text, network, protocol and " +
      "verification state) and resolve chain or registry identities to canonical agents. Send a message whose " +
      "metadata.skill is \"search\" (the default) or \"resolve\" and whose data part holds the arguments (for " +
      "search, a text part alone is the text query); the answer is a message whose data part is the REST answer " +
      "(or a problem document, metadata.outcome \"problem\"). Also spoken over MCP and a REST API: see the " +
      "non-A2A-interfaces extension in capabilities.",
    // the API's version (the OpenAPI description's info.version)
    version: "1.0.0",
    supportedInterfaces: [
      { url: url(DirectoryPaths.a2aJsonRpc), protocolBinding: "JSONRPC", protocolVersion: A2aProtocolVersion },
      { url: url(DirectoryPaths.a2aRest), protocolBinding: "HTTP+JSON", protocolVersion: A2aProtocolVersion }
    ],
    provider: { organization: "Agent Directory API", url: "https://agent-directory.dev" },
    documentationUrl: url(DirectoryPaths.docs),
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        nonA2aInterfacesExtension(
          "The directory's interfaces, which are not A2A protocol bindings: an MCP server (Streamable HTTP) and " +
            "a REST API described by OpenAPI. Both are public (anonymous, or an API key as a Bearer token).",
          [
            { protocol: "MCP", url: url(DirectoryPaths.mcp), protocolVersion: McpProtocolVersion, transport: "streamable-http" },
            { protocol: "REST", url: url(DirectoryPaths.api), openApiUrl: url(DirectoryPaths.openapi) }
          ]
        )
      ]
    },
    securitySchemes: {
      apiKey: {
        apiKeySecurityScheme: {
          description: "An API key of the directory (optional: anonymous calls are served with the anonymous budget).",
          location: "header",
          name: "X-API-Key"
        }
      },
      bearer: {
        httpAuthSecurityScheme: {
          description: "The same API key as a Bearer token (optional).",
          scheme: "Bearer"
        }
      }
    },
    defaultInputModes: ["application/json", "text/plain"],
    defaultOutputModes: ["application/json", "text/plain"],
    skills: [
      {
        id: "search",
        name: "Search agents",
        description: "Finds listed agents by text (name, tagline, slug), networks (keys or CAIP-2 ids), protocols " +
          "and verification states, sorted by rank, name or newest, in cursor pages. A2A: a data part with the " +
          "Agents_ListAgents query (or a text part: the text query `q`). MCP tool `search_agents`; " +
          "REST `GET /api/v1/agents` (Agents_ListAgents); an agent's own card at " +
          "`/api/v1/agents/{entityPublicId}/agent-card`.",
        tags: ["directory", "search", "agents"],
        examples: [
          "Find verified research agents on Base (eip155:8453)",
          "{\"q\":\"research\",\"networks\":[\"eip155:8453\"],\"verificationStates\":[\"VERIFIED\"],\"sort\":\"rank\"}"
        ]
      },
      {
        id: "resolve",
        name: "Resolve agent identities",
        description: "Resolves up to 100 chain or registry locators (an EVM address or CAIP-10 account, an ERC-8004 " +
          "registry token) to canonical agent identities: UNIQUE, AMBIGUOUS, CONFLICTED, NOT_FOUND or INVALID with " +
          "reasons. A2A: metadata.skill \"resolve\" and a data part `{locators}`. MCP tool `resolve_agent_identities`; " +
          "REST `POST /api/v1/resolve/agent-identities` " +
          "(Agents_ResolveAgentIdentities).",
        tags: ["directory", "identity", "resolve"],
        examples: [
          "Which agent is ERC-8004 token 1 of registry 0x8004a6090cd10a7288092483047b097295fb8847 on Base?",
          "{\"locators\":[{\"networkFamily\":\"EVM\",\"network\":\"base\",\"protocol\":\"erc-8004\"," +
            "\"locatorKind\":\"REGISTRY_TOKEN\",\"registry\":\"0x8004a6090cd10a7288092483047b097295fb8847\",\"nativeId\":\"1\"}]}"
        ]
      }
    ]
  }
}

/** Serves {@link directoryAgentCard} at `GET /.well-known/agent-card.json`. Requires `AppConfig`. */
export const DirectoryAgentCardLive: Layer.Layer<never, never, AppConfig> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const body = JSON.stringify(directoryAgentCard(config.publicBaseUrl))
    const etag = strongEtag(body)
    const headers = {
      etag,
      "cache-control": cacheControl["public-catalog"],
      "access-control-allow-origin": "*"
    }
    yield* router.get(
      DirectoryPaths.agentCard,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
        noneMatch(request.headers["if-none-match"], etag)
          ? HttpServerResponse.empty({ status: 304, headers })
          : HttpServerResponse.text(body, { contentType: "application/json", headers }))
    )
  })
)
