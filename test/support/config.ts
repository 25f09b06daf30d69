/**
 * The configuration every test runs with (fixed secrets; no environment read): one object
 * holding the cross-cutting `AppConfig` and every area's settings (`src/config.ts`), which
 * {@link testConfigLayer} provides as each tag.
 */
import { Layer, LogLevel, Option, Redacted } from "effect"
import { hkdfSync } from "node:crypto"
import { tmpdir } from "node:os"
import { DefaultEngineOptions } from "../../layers/Engine.js"
import { DefaultOutboundOptions } from "../../layers/Outbound.js"
import { DefaultChainOptions } from "../../layers/ChainConfig.js"
import { AppConfig, type AppConfigShape, DefaultDbLimits, deriveKey, DevelopmentSecret } from "../../layers/AppConfig.js"
import type { AreaSettingsShape } from "../../src/config.js"
import { EndpointProbeSettings } from "../../src/endpointHealth/Config.js"
import { AccountSettings } from "../../src/accounts/Config.js"
import { WorkspaceSettings } from "../../src/workspaces/Config.js"
import { TokenOperationSettings } from "../../src/growth/tokenOperations/Config.js"
import { AdsSettings } from "../../src/growth/ads/Config.js"
import { OrderSettings } from "../../src/commerce/orders/Config.js"
import { ProcessorWebhookSettings } from "../../src/commerce/webhooks/Config.js"
import { PaymentSettings } from "../../src/commerce/payments/Config.js"
import { SearchSettings } from "../../src/agents/Config.js"
import { BountySettings } from "../../src/jobs/bounties/Config.js"
import { McpSettings } from "../../src/mcp/Config.js"
import { McpServerSettings } from "../../src/mcpServer/Config.js"
import { DefaultRunEventsOptions, RuntimeSettings } from "../../src/runtime/Config.js"

/** The cross-cutting configuration and every area's settings, in one object. */
export type TestConfigShape = AppConfigShape & AreaSettingsShape

const secret = "test-secret-test-secret-test-secret-0123"
const key = (purpose: string) => Redacted.make(Buffer.from(hkdfSync("sha256", secret, "agent-directory", purpose, 32)))

/** Test configuration; `overrides` replace single settings. */
export const testConfig = (overrides: Partial<TestConfigShape> = {}): TestConfigShape => ({
  port: 0,
  host: "127.0.0.1",
  databaseUrl: Option.none(),
  dataDir: "memory://",
  environment: "development",
  allowedOrigins: [],
  cookieSecure: true,
  sessionTtlSeconds: 12 * 3600,
  recentAuthSeconds: 15 * 60,
  buildVersion: "test",
  logLevel: LogLevel.Warning,
  logFormat: "auto",
  // generous budgets, so only the budget tests (which lower them) ever meet a limit
  budgets: {
    anonymous: { limit: 60_000, windowSeconds: 60 },
    apiKey: { limit: 60_000, windowSeconds: 60 },
    session: { limit: 60_000, windowSeconds: 60 },
    signInAccount: { limit: 1000, windowSeconds: 900 },
    signInAddress: { limit: 10_000, windowSeconds: 900 },
    mailRecipient: { limit: 1000, windowSeconds: 3600 },
    mailClient: { limit: 10_000, windowSeconds: 3600 }
  },
  redisUrl: Option.none(),
  trustedProxyHops: 0,
  publicBaseUrl: "https://directory.test",
  maxBodyBytes: 1_048_576,
  keys: {
    apiKeyVerifier: key("api-key-verifier"),
    cursor: key("cursor"),
    // the demo manifest's context and download tokens are signed for the development secret (src/db/demo/analytics.ts)
    analyticsContext: deriveKey(DevelopmentSecret, "analytics-context"),
    analyticsDownload: deriveKey(DevelopmentSecret, "analytics-download"),
    // the demo manifest's ad-serving token too (src/db/demo/ads.ts)
    adServing: deriveKey(DevelopmentSecret, "ad-serving"),
    mfaTotp: key("mfa-totp-secrets"),
    webhookSecrets: key("webhook-signing-secrets")
  },
  insecureDevelopmentSecret: false,
  // one runner, reading committed work often so tests wait little
  engine: { ...DefaultEngineOptions, pollIntervalMs: 50 },
  metrics: Option.none(),
  db: DefaultDbLimits,
  // tests reach their local servers (OAuth, MCP, card hosts) only where they name them
  outbound: { ...DefaultOutboundOptions, userAgent: "agent-directory/test" },
  mcpCatalog: { ttlSeconds: 3600, requestTimeoutMs: 5000 },
  // no scheduled endpoint probe rounds (they would reach the demo's `.example` hosts); test/endpointHealth turns them on
  endpointProbes: { intervalMinutes: 0, timeoutMs: 2000 },
  mcpServer: { maxSessions: 100, sessionIdleSeconds: 900 },
  // MCP OAuth tokens sealed with a key of the test secret; no clients registered by hand
  mcpOAuth: { tokenKeys: [{ kid: "test", key: key("mcp-oauth-tokens") }], clients: {} },
  chainRpcUrls: new Map(),
  chain: { ...DefaultChainOptions, pollIntervalMs: 100 },
  // run event streams read often, so tests wait little
  runEvents: { ...DefaultRunEventsOptions, pollMs: 100, fallbackPollMs: 1000 },
  runs: { maxSteps: 8, timeoutSeconds: 600 },
  // only the built-in deterministic runtime; tests of real providers name their local servers
  modelProfiles: {},
  // no SMTP server: development mail goes to a throwaway outbox; mail tests set `smtpUrl` (test/support/smtp.ts)
  mail: { smtpUrl: Option.none(), from: "Agent Directory <no-reply@directory.test>", outboxDir: `${tmpdir()}/adapi-test-mail` },
  accounts: { signUp: "open", emailVerificationTtlHours: 48, passwordResetTtlMinutes: 60 },
  workspaces: { invitationTtlDays: 14, closeGraceHours: 168, webhookPollIntervalMs: 100 },
  tokenOperations: { approvalThresholdUnits: 0n },
  // the demo data's platform workspace (DemoPlatformWorkspace of demo/growth/ads/seed.ts) sells the ad packages,
  // so the admin's Growth_CreateAdPackage of the demo manifest puts its package on sale
  ads: { platformWorkspaceId: Option.some("019000b5-0000-7000-8000-000000000001") },
  orders: { paymentDueMinutes: 30 },
  bounties: { deliveryHours: 72, disputeWindowHours: 168 },
  // no payment processors: test/commerce/ProcessorWebhooks.test.ts configures its own
  processorWebhooks: { providers: new Map() },
  // no x402 facilitator: the x402 tests start a local one (demo/chain/facilitator.ts) and name it
  payments: { x402FacilitatorUrl: Option.none(), x402MaxTimeoutSeconds: 300, onchainPaymentTtlSeconds: 3600 },
  // text search only: test/agents/SearchEmbeddings.test.ts names a local embeddings server
  searchEmbeddings: undefined,
  ...overrides
})

/** `AppConfig` and every area's settings tag, each from `config` (see {@link testConfig}). */
export const configLayer = (config: TestConfigShape) =>
  Layer.mergeAll(
    Layer.succeed(AppConfig, config),
    Layer.succeed(RuntimeSettings, config),
    Layer.succeed(McpSettings, config),
    Layer.succeed(McpServerSettings, config),
    Layer.succeed(EndpointProbeSettings, config),
    Layer.succeed(AccountSettings, config),
    Layer.succeed(WorkspaceSettings, config),
    Layer.succeed(TokenOperationSettings, config),
    Layer.succeed(AdsSettings, config),
    Layer.succeed(OrderSettings, config),
    Layer.succeed(BountySettings, config),
    Layer.succeed(ProcessorWebhookSettings, config),
    Layer.succeed(PaymentSettings, config),
    Layer.succeed(SearchSettings, config)
  )

/** {@link configLayer} of `testConfig(overrides)`. */
export const testConfigLayer = (overrides: Partial<TestConfigShape> = {}) => configLayer(testConfig(overrides))

/** AppConfig and the areas' settings for tests. */
export const TestConfigLayer = testConfigLayer()
