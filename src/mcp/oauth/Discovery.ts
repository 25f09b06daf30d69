/**
 * Authorization server discovery of an MCP server (MCP authorization, revision
 * 2025-06-18, §"Authorization Server Discovery"), every fetch through the guarded
 * outbound client (`layers/Outbound.ts`, given to `oauth4webapi` as `customFetch`):
 *
 * 1. The MCP server's own answer: an unauthenticated `initialize` POST; a 401 whose
 *    `WWW-Authenticate: Bearer` challenge carries `resource_metadata` (RFC 9728 §5.1)
 *    names the protected-resource metadata. Without it, the RFC 9728 §3.1 well-known
 *    URI of the server (`/.well-known/oauth-protected-resource` inserted before the
 *    path), then the same at the origin's root.
 * 2. The protected-resource metadata (RFC 9728 §2): its `resource` must be the server's
 *    canonical URI (or a prefix of it on the same origin) and its
 *    `authorization_servers` name at least one issuer; the first is used.
 * 3. The authorization server's metadata: RFC 8414 (`/.well-known/oauth-authorization-server`),
 *    falling back to OpenID Connect Discovery 1.0 (`/.well-known/openid-configuration`);
 *    its `issuer` must be the one named (RFC 8414 §3.3), and a server that lists
 *    `code_challenge_methods_supported` must list `S256`.
 *
 * Every URL taken from the metadata (the protected resource's `authorization_servers`,
 * the authorization server's `issuer` and endpoints: {@link AuthorizationServerUrlFields})
 * must be an `https:` URL (RFC 8414 §2, RFC 9728 §2, MCP authorization §"Communication
 * Security") without user name, password or fragment (RFC 6749 §3.1); plain `http:` only
 * for hosts named in `OUTBOUND_ALLOWED_HOSTS` (local servers). Anything else (`javascript:`,
 * `data:`, `http:` elsewhere) fails with {@link MetadataUrlRefused} naming the field, before
 * the URL is fetched, stored or handed to a browser.
 */
import { Data, Effect } from "effect"
import * as oauth from "oauth4webapi"
import { isAllowedHost, type OutboundShape, outboundFailureOf } from "../../../layers/Outbound.js"

/** What discovery found, stored on the connection row (`oauth_*` columns, migration 0019). */
export interface Discovered {
  /** The MCP server's canonical URI: the RFC 8707 `resource` parameter. */
  readonly resource: string
  /** Where the protected-resource metadata was read. */
  readonly resourceMetadataUrl: string
  /** The scopes the protected resource lists (RFC 9728 `scopes_supported`), or none. */
  readonly resourceScopes: ReadonlyArray<string> | undefined
  /** The authorization server's metadata (RFC 8414 §2), as served. */
  readonly authorizationServer: oauth.AuthorizationServer
}

/** Discovery failed; `rule` says which step and why, without echoing a server's answer. */
export class DiscoveryFailed extends Data.TaggedError("DiscoveryFailed")<{ readonly rule: string }> {}

/** The rule every URL of discovered OAuth metadata must follow (see the module's description). */
export const MetadataUrlRule = "must be an https URL without user name, password or fragment (RFC 8414 §2, RFC 9728 " +
  "§2, RFC 6749 §3.1); http only for a host named in OUTBOUND_ALLOWED_HOSTS"

/** Which metadata document a refused URL is in. */
export type MetadataDocument = "protected-resource metadata (RFC 9728)" | "authorization server metadata (RFC 8414)"

/**
 * A URL of discovered metadata breaks {@link MetadataUrlRule}: `field` names it (e.g.
 * `authorization_endpoint`), `document` where it is; the value is never repeated.
 */
export class MetadataUrlRefused extends Data.TaggedError("MetadataUrlRefused")<{
  readonly document: MetadataDocument
  readonly field: string
}> {}

/**
 * The URL fields of authorization server metadata (RFC 8414 §2, OpenID Connect Discovery
 * 1.0 §3) that are checked: the issuer and every endpoint this service or `oauth4webapi`
 * may fetch or send a browser to.
 */
export const AuthorizationServerUrlFields = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "registration_endpoint",
  "jwks_uri",
  "revocation_endpoint",
  "introspection_endpoint",
  "userinfo_endpoint",
  "pushed_authorization_request_endpoint"
] as const

/** Whether `value` follows {@link MetadataUrlRule} under the outbound settings. */
export const isSafeMetadataUrl = (outbound: OutboundShape, value: unknown): boolean => {
  if (typeof value !== "string") return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.username !== "" || url.password !== "" || url.hash !== "" || value.includes("#")) return false
  if (url.protocol === "https:") return true
  return url.protocol === "http:" && isAllowedHost(outbound.options.allowedHosts, url)
}

/**
 * The first URL field of authorization server metadata `as` (a parsed JSON document,
 * as served or as cached) that breaks {@link MetadataUrlRule}, or none. Absent fields
 * pass (whether a required one is there is checked on its own).
 */
export const refusedAuthorizationServerField = (outbound: OutboundShape, as: unknown): string | undefined => {
  if (typeof as !== "object" || as === null) return undefined
  const fields = as as Readonly<Record<string, unknown>>
  return AuthorizationServerUrlFields.find((f) => fields[f] !== undefined && !isSafeMetadataUrl(outbound, fields[f]))
}

/**
 * The canonical URI of an MCP server (MCP authorization §"Canonical Server URI", RFC
 * 8707 §2): scheme and host lower case, no fragment, no trailing slash after a path
 * (`https://mcp.example.com/mcp`); a bare origin has no slash (`https://mcp.example.com`).
 */
export const canonicalResource = (serverUrl: string): string => {
  const url = new URL(serverUrl)
  url.hash = ""
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/+$/, "")
  return `${url.protocol}//${url.host}${path}${url.search}`
}

/** The `resource_metadata` parameter of a `Bearer` challenge in `WWW-Authenticate` (RFC 9728 §5.1), if any. */
export const resourceMetadataOf = (wwwAuthenticate: string | null): string | undefined => {
  if (wwwAuthenticate === null) return undefined
  const at = wwwAuthenticate.search(/\bbearer\b/i)
  if (at < 0) return undefined
  const match = /(?:^|[\s,])resource_metadata\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/i.exec(wwwAuthenticate.slice(at))
  if (match === null) return undefined
  return (match[1] ?? match[2])!.replace(/\\(.)/g, "$1")
}

/** `oauth4webapi` options for one URL: the guarded fetch, and `http:` only for allowed hosts. */
export const oauthOptions = (outbound: OutboundShape, url: string | URL) => {
  const local = isAllowedHost(outbound.options.allowedHosts, new URL(url))
  // oauth4webapi calls it as fetch(url, init), which the guarded fetch is
  const customFetch = outbound.fetch as unknown as (url: string, init: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>
  return {
    [oauth.customFetch]: customFetch,
    ...(local ? { [oauth.allowInsecureRequests]: true } : {})
  }
}

/** The reason of an `oauth4webapi` or outbound failure, fit for a problem's detail. */
export const reasonOf = (error: unknown): string => {
  const outbound = outboundFailureOf(error)
  if (outbound !== undefined) return outbound.rule
  if (error instanceof oauth.ResponseBodyError) return `the server answered the OAuth error ${error.error}`
  if (error instanceof oauth.OperationProcessingError) return error.message.replace(/"response" /g, "the answer ")
  if (error instanceof TypeError && /https|protocol/i.test(error.message)) return "only https endpoints are used"
  return "the server could not be reached or answered something unusable"
}

const isPrefixResource = (advertised: string, resource: string) => {
  try {
    const a = new URL(advertised)
    const r = new URL(resource)
    if (a.origin !== r.origin) return false
    const path = a.pathname.replace(/\/+$/, "")
    return r.pathname === path || r.pathname.startsWith(path + "/") || path === ""
  } catch {
    return false
  }
}

/**
 * Discovers the authorization server of the MCP server at `serverUrl`, starting from
 * `resourceMetadataUrl` when one is already known (a 401 seen by the connection).
 * Fails with {@link DiscoveryFailed} or {@link MetadataUrlRefused}.
 */
export const discover = (
  outbound: OutboundShape,
  serverUrl: string,
  resourceMetadataUrl?: string | null
): Effect.Effect<Discovered, DiscoveryFailed | MetadataUrlRefused> =>
  Effect.tryPromise({
    try: async () => {
      const resource = canonicalResource(serverUrl)
      const fail = (rule: string): never => {
        throw new DiscoveryFailed({ rule })
      }

      // 1. where the protected-resource metadata is
      let metadataUrl = resourceMetadataUrl ?? undefined
      if (metadataUrl === undefined) {
        const probe = await outbound.fetch(serverUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18"
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 0,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "agent-directory", version: "1" } }
          })
        })
        void probe.body?.cancel()
        metadataUrl = probe.status === 401 ? resourceMetadataOf(probe.headers.get("www-authenticate")) : undefined
      }

      // 2. the protected-resource metadata (RFC 9728)
      const candidates = metadataUrl !== undefined
        ? [new URL(metadataUrl)]
        : [
          new URL(`/.well-known/oauth-protected-resource${new URL(resource).pathname.replace(/^\/$/, "")}`, resource),
          new URL("/.well-known/oauth-protected-resource", resource)
        ]
      let prm: oauth.ResourceServer | undefined
      let readFrom = ""
      for (const candidate of candidates) {
        const response = await outbound.fetch(candidate, { headers: { accept: "application/json" } })
        if (response.status === 404 && candidate !== candidates[candidates.length - 1]) {
          void response.body?.cancel()
          continue
        }
        if (response.status !== 200) {
          void response.body?.cancel()
          fail(`the protected-resource metadata (RFC 9728) answered HTTP ${response.status}`)
        }
        const body = await response.json().catch(() => undefined) as oauth.ResourceServer | undefined
        if (typeof body?.resource !== "string" || !(body.authorization_servers ?? []).every((s) => typeof s === "string")) {
          return fail("the protected-resource metadata (RFC 9728) is not a JSON object with resource and authorization_servers")
        }
        if (body.resource !== resource && !isPrefixResource(body.resource, resource)) {
          fail("the protected-resource metadata (RFC 9728) names another resource than the MCP server")
        }
        prm = body
        readFrom = candidate.href
        break
      }
      if (prm === undefined) return fail("the MCP server publishes no protected-resource metadata (RFC 9728)")
      if (!(prm.authorization_servers ?? []).every((s) => isSafeMetadataUrl(outbound, s))) {
        throw new MetadataUrlRefused({ document: "protected-resource metadata (RFC 9728)", field: "authorization_servers" })
      }
      const issuer = prm.authorization_servers?.[0]
      if (issuer === undefined) return fail("the protected-resource metadata (RFC 9728) names no authorization server")

      // 3. the authorization server's metadata: RFC 8414, else OpenID Connect Discovery
      const issuerUrl = new URL(issuer)
      let as: oauth.AuthorizationServer | undefined
      for (const algorithm of ["oauth2", "oidc"] as const) {
        const response = await oauth.discoveryRequest(issuerUrl, { algorithm, ...oauthOptions(outbound, issuerUrl) })
        if (response.status === 404 && algorithm === "oauth2") {
          void response.body?.cancel()
          continue
        }
        // the URLs are checked before anything else of the document (its issuer's match included)
        const served: unknown = response.status === 200 ? await response.clone().json().catch(() => undefined) : undefined
        const refused = refusedAuthorizationServerField(outbound, served)
        if (refused !== undefined) {
          void response.body?.cancel()
          throw new MetadataUrlRefused({ document: "authorization server metadata (RFC 8414)", field: refused })
        }
        as = await oauth.processDiscoveryResponse(issuerUrl, response)
        break
      }
      if (as === undefined) return fail("the authorization server publishes no metadata (RFC 8414 or OpenID Connect Discovery)")
      if (as.authorization_endpoint === undefined || as.token_endpoint === undefined) {
        return fail("the authorization server's metadata has no authorization_endpoint or token_endpoint")
      }
      const methods = as.code_challenge_methods_supported
      if (methods !== undefined && !methods.includes("S256")) {
        return fail("the authorization server does not support PKCE with S256")
      }
      return {
        resource,
        resourceMetadataUrl: readFrom,
        resourceScopes: prm.scopes_supported,
        authorizationServer: as
      } satisfies Discovered
    },
    catch: (error) =>
      error instanceof DiscoveryFailed || error instanceof MetadataUrlRefused
        ? error
        : new DiscoveryFailed({ rule: `discovery failed: ${reasonOf(error)}` })
  })
