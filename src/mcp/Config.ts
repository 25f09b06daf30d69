/**
 * The MCP area's settings, read from the environment (Effect `Config`) and validated at
 * start-up (docs/configuration.md): fetching catalogs (`MCP_CATALOG_TTL_SECONDS`,
 * `MCP_REQUEST_TIMEOUT_MS`) and MCP OAuth (`MCP_TOKEN_KEYS`, `MCP_OAUTH_CLIENTS`). The root
 * provides {@link McpSettingsLive} with the other areas' settings (`src/config.ts`).
 */
import { Config, ConfigError, Context, Either, Layer, Option, Redacted } from "effect"
import { boundedInteger, deriveKey, DevelopmentSecret, millis } from "../../layers/AppConfig.js"
import { type McpOAuthOptions, parseMcpOAuthClients } from "../../layers/McpOAuthConfig.js"
import { parseTokenKeys, type TokenKey } from "../../layers/TokenCipher.js"

/** The MCP area's settings. */
export interface McpSettingsShape {
  /**
   * Fetching MCP catalogs (src/mcp/Client.ts): `MCP_CATALOG_TTL_SECONDS` (how long an
   * observed catalog is fresh, default 3600) and `MCP_REQUEST_TIMEOUT_MS` (bound on each
   * MCP request, default 10 000; also the bound of the runtime's MCP tool calls and of
   * agent imports' MCP reads).
   */
  readonly mcpCatalog: { readonly ttlSeconds: number; readonly requestTimeoutMs: number }
  /** MCP OAuth (src/mcp/oauth/McpOAuth.ts): `MCP_TOKEN_KEYS`, `MCP_OAUTH_CLIENTS` (docs/configuration.md). */
  readonly mcpOAuth: McpOAuthOptions
}

/** The MCP area's settings. */
export class McpSettings extends Context.Tag("agent-directory/McpSettings")<McpSettings, McpSettingsShape>() {}

/**
 * `MCP_TOKEN_KEYS` (the key ring sealing MCP OAuth tokens at rest, layers/TokenCipher.ts);
 * unset → one key derived from `APP_SECRET` (validated by `AppConfig`), kid `app`.
 */
const mcpTokenKeys = Config.all({
  secret: Config.option(Config.redacted("APP_SECRET")),
  text: Config.option(Config.redacted("MCP_TOKEN_KEYS"))
}).pipe(
  Config.mapOrFail(({ secret, text }) => {
    if (Option.isNone(text) || Redacted.value(text.value).trim() === "") {
      const secretValue = Option.match(secret, { onNone: () => DevelopmentSecret, onSome: Redacted.value })
      return Either.right<ReadonlyArray<TokenKey>>([{ kid: "app", key: deriveKey(secretValue, "mcp-oauth-tokens") }])
    }
    const ring = parseTokenKeys(Redacted.value(text.value))
    return typeof ring === "string" ? Either.left(ConfigError.InvalidData([], ring)) : Either.right(ring)
  })
)

/** `MCP_OAUTH_CLIENTS`: the OAuth clients registered by hand, JSON keyed by issuer (layers/McpOAuthConfig.ts). */
const mcpOAuthClients = Config.option(Config.redacted("MCP_OAUTH_CLIENTS")).pipe(
  Config.mapOrFail((text) => {
    const parsed = parseMcpOAuthClients(Option.match(text, { onNone: () => "", onSome: Redacted.value }))
    return typeof parsed === "string" ? Either.left(ConfigError.InvalidData([], parsed)) : Either.right(parsed)
  })
)

/** Reads and validates the MCP area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const mcpSettings: Config.Config<McpSettingsShape> = Config.all({
  mcpCatalog: Config.all({
    ttlSeconds: boundedInteger("MCP_CATALOG_TTL_SECONDS", 60, 604_800, 3600),
    requestTimeoutMs: millis("MCP_REQUEST_TIMEOUT_MS", 10_000)
  }),
  mcpOAuth: Config.all({ tokenKeys: mcpTokenKeys, clients: mcpOAuthClients })
})

/** The MCP area's settings from the environment. */
export const McpSettingsLive = Layer.effect(McpSettings, mcpSettings)
