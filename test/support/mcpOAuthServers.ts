/**
 * Real local servers for the MCP OAuth tests:
 *
 * - an authorization server: `oauth2-mock-server`'s OAuth2Service (authorize with PKCE,
 *   token with authorization_code and refresh_token grants, JWKS, OpenID Connect
 *   discovery), behind a node:http front that adds what the package lacks when asked:
 *   RFC 8414 metadata at `/.well-known/oauth-authorization-server` and an RFC 7591
 *   registration endpoint (`/register`, a minimal one: it issues a client id and remembers
 *   the request). Access tokens carry the RFC 8707 `resource` sent to the token endpoint
 *   as their `aud`. `metadataOverrides` replaces fields of the RFC 8414 metadata.
 * - an MCP server (`@modelcontextprotocol/sdk`, Streamable HTTP, stateless) that answers
 *   401 with `WWW-Authenticate: Bearer resource_metadata=…` (or without the parameter)
 *   unless the request carries a JWT of its authorization server for its own resource,
 *   verified with the server's JWKS (`jose`). `authorizationServers` replaces the
 *   authorization servers its protected-resource metadata names. Its one tool, `ping`
 *   (read-only), answers `pong`; each call is recorded with the bearer token it came with.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { createRemoteJWKSet, jwtVerify } from "jose"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { randomUUID } from "node:crypto"
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server"

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    req.on("data", (c) => (text += c))
    req.on("end", () => resolve(text))
  })

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))

/** A running authorization server and what it saw. */
export interface LocalAuthorizationServer {
  readonly issuer: string
  readonly host: string
  /** Clients registered through `/register` (RFC 7591 requests as sent, with the id issued). */
  readonly registrations: Array<{ readonly clientId: string; readonly request: Record<string, unknown> }>
  /** Token requests: grant type, `resource`, whether a Basic client credential came. */
  readonly tokenRequests: Array<{ readonly grantType: string; readonly resource: string | undefined; readonly basicAuth: boolean }>
  /** Authorization requests' query parameters. */
  readonly authorizeRequests: Array<Record<string, string>>
  /** Set to answer the next authorization with this error instead of a code. */
  denyNext: string | undefined
  /** Fields served over the RFC 8414 metadata's own (e.g. a hostile `authorization_endpoint`); none by default. */
  metadataOverrides: Record<string, unknown>
  readonly close: () => Promise<void>
}

/** Starts an authorization server; `rfc8414` and `registration` add the metadata and DCR endpoint. */
export const startAuthorizationServer = async (options: { readonly rfc8414: boolean; readonly registration: boolean }) => {
  const issuer = new OAuth2Issuer()
  await issuer.keys.generate("RS256")
  const service = new OAuth2Service(issuer)
  const scopes = new Map<string, string>()
  const state: LocalAuthorizationServer = {
    issuer: "",
    host: "",
    registrations: [],
    tokenRequests: [],
    authorizeRequests: [],
    denyNext: undefined,
    metadataOverrides: {},
    close: async () => {}
  }
  service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }, req: IncomingMessage & { body?: Record<string, string> }) => {
    const resource = req.body?.["resource"]
    // the access token (it has a scope), not the ID token (its audience is the client)
    if (resource !== undefined && "scope" in token.payload) token.payload["aud"] = resource
    // each token is its own (the mock signs whole seconds: two tokens of one second would otherwise be equal)
    token.payload["jti"] = randomUUID()
  })
  service.on("beforeResponse", (response: { body: Record<string, unknown> }, req: IncomingMessage & { body?: Record<string, string> }) => {
    // the mock answers scope "dummy" unless the token request names one: answer the scope authorized
    const granted = req.body?.["code"] === undefined ? undefined : scopes.get(req.body["code"])
    if (granted !== undefined) response.body["scope"] = granted
    state.tokenRequests.push({
      grantType: req.body?.["grant_type"] ?? "",
      resource: req.body?.["resource"],
      basicAuth: (req.headers.authorization ?? "").startsWith("Basic ")
    })
  })
  service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: IncomingMessage & { query?: Record<string, string> }) => {
    state.authorizeRequests.push({ ...(req.query ?? {}) })
    const code = redirect.url.searchParams.get("code")
    if (code !== null && req.query?.["scope"] !== undefined) scopes.set(code, req.query["scope"])
    if (state.denyNext !== undefined) {
      redirect.url.searchParams.delete("code")
      redirect.url.searchParams.set("error", state.denyNext)
      state.denyNext = undefined
    }
  })
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname
    if (options.rfc8414 && path === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: state.issuer,
        authorization_endpoint: `${state.issuer}/authorize`,
        token_endpoint: `${state.issuer}/token`,
        jwks_uri: `${state.issuer}/jwks`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        scopes_supported: ["mcp.read", "mcp.write"],
        ...(options.registration ? { registration_endpoint: `${state.issuer}/register` } : {}),
        ...state.metadataOverrides
      })
    }
    if (options.registration && path === "/register" && req.method === "POST") {
      const request = JSON.parse(await readBody(req)) as Record<string, unknown>
      const clientId = `dcr-${randomUUID()}`
      state.registrations.push({ clientId, request })
      return json(res, 201, { ...request, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) })
    }
    return service.requestHandler(req, res)
  })
  const base = await listen(server)
  issuer.url = base
  return Object.assign(state, {
    issuer: base,
    host: base.slice("http://".length),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }) as LocalAuthorizationServer
}

/** A running MCP server. */
export interface LocalMcpServer {
  /** Its MCP endpoint (`…/mcp`), also its resource identifier. */
  readonly url: string
  readonly host: string
  /** Requests refused for want of a valid token. */
  refused: number
  /** Every `tools/call` answered, in order, with the (valid) bearer token of its request. */
  readonly calls: Array<{ readonly name: string; readonly token: string }>
  /** When set, the protected-resource metadata's `authorization_servers` instead of its authorization server. */
  authorizationServers: Array<string> | undefined
  readonly close: () => Promise<void>
}

/**
 * Starts an MCP server protected by `as`; with `advertise` its 401 names its
 * protected-resource metadata (RFC 9728 §5.1), else discovery must use the well-known URI.
 */
export const startMcpServer = async (as: LocalAuthorizationServer, options: { readonly advertise: boolean }) => {
  const jwks = createRemoteJWKSet(new URL(`${as.issuer}/jwks`))
  let base = ""
  const state: LocalMcpServer = { url: "", host: "", refused: 0, calls: [], authorizationServers: undefined, close: async () => {} }
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname
    const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      return json(res, 200, {
        resource: `${base}/mcp`,
        authorization_servers: state.authorizationServers ?? [as.issuer],
        scopes_supported: ["mcp.read"]
      })
    }
    if (path !== "/mcp") return res.writeHead(404).end()
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
    const valid = token !== undefined &&
      await jwtVerify(token, jwks, { issuer: as.issuer, audience: `${base}/mcp` }).then(() => true, () => false)
    if (!valid) {
      state.refused++
      const challenge = options.advertise
        ? `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`
        : `Bearer error="invalid_token"`
      return json(res.setHeader("www-authenticate", challenge), 401, { error: "invalid_token" })
    }
    const mcp = new McpServer({ name: "oauth-test-server", version: "1.0.0" })
    mcp.registerTool("ping", { description: "Answers pong", annotations: { readOnlyHint: true } }, () => {
      state.calls.push({ name: "ping", token: token ?? "" })
      return { content: [{ type: "text", text: "pong" }] }
    })
    const transport = new StreamableHTTPServerTransport({}) // stateless: no session id
    res.on("close", () => {
      void transport.close()
      void mcp.close()
    })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  base = await listen(server)
  return Object.assign(state, {
    url: `${base}/mcp`,
    host: base.slice("http://".length),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }) as LocalMcpServer
}
