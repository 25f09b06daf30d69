/**
 * Service configuration, read once from the environment through Effect `Config`
 * and validated at start-up (a bad value stops the server with a clear message).
 */
import { type ChainOptions, chainOptions } from "./ChainConfig.js"
import { hkdfSync } from "node:crypto"
import { Config, ConfigError, Context, Effect, Either, Layer, LogLevel, Option, Redacted } from "effect"
import { ExactOriginRule, isExactOrigin } from "../schema/origin.js"

/** A request budget: `limit` units of x-rate-cost per `windowSeconds` (spec §8). */
export interface Budget {
  readonly limit: number
  readonly windowSeconds: number
}
import { DefaultEngineOptions, DefaultEngineTakeover, type EngineOptions, type EngineTakeover } from "./Engine.js"
import { DefaultOutboundOptions, makeOutbound, Outbound, type OutboundOptions } from "./Outbound.js"
import { mergeModelProfiles, type ModelProfiles, parseModelProfiles } from "./ModelProfiles.js"
import type { MailOptions } from "./Mail.js"
import { readFileSync } from "node:fs"

/** Bounds on waiting for the database, in milliseconds (see `DB_*` in docs/configuration.md). */
export interface DbLimits {
  /** Waiting for a pooled connection, including opening one (`DB_CONNECT_TIMEOUT_MS`). */
  readonly connectTimeoutMs: number
  /** One statement on a PostgreSQL server (`DB_STATEMENT_TIMEOUT_MS`). */
  readonly statementTimeoutMs: number
  /** Connections to a PostgreSQL server (`DB_POOL_MAX`). */
  readonly poolMax: number
  /** How long start-up retries an unreachable server before failing (`DB_STARTUP_TIMEOUT_MS`). */
  readonly startupTimeoutMs: number
}

/** The defaults of {@link DbLimits}. */
export const DefaultDbLimits: DbLimits = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 5_000,
  poolMax: 20,
  startupTimeoutMs: 30_000
}

/** The configuration the service runs with. Secrets are `Redacted` (never logged). */
export interface AppConfigShape {
  /** TCP port, default 3000. */
  readonly port: number
  /** Listen address, default 127.0.0.1. */
  readonly host: string
  /** PostgreSQL URL; none → embedded PGlite. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  /** Embedded database directory (default `./.data`; `memory://` = throwaway). */
  readonly dataDir: string
  /** Deployment environment an API key must belong to (spec §5.3), default `development`. */
  readonly environment: string
  /** Exact origins allowed for browser commands; empty = only the request's own origin. */
  readonly allowedOrigins: ReadonlyArray<string>
  /** `Secure` attribute on the session cookie (turn off only for local http). */
  readonly cookieSecure: boolean
  /** Session lifetime in seconds (default 12 h). */
  readonly sessionTtlSeconds: number
  /** How recent a session's authentication must be for sensitive actions, in seconds (default 15 min). */
  readonly recentAuthSeconds: number
  /**
   * Request budgets per credential kind (spec §8 x-rate-cost): anonymous per client
   * address, API key per key, session per account. Defaults 60, 1200 and 600 per 60 s.
   */
  readonly budgets: {
    readonly anonymous: Budget
    readonly apiKey: Budget
    readonly session: Budget
    /** Sign-in attempts per account (email) and per client address; defaults 10 and 50 per 900 s. */
    readonly signInAccount: Budget
    readonly signInAddress: Budget
    /**
     * Mails asked for (sign-up, verification, password reset, invitations; layers/Mail.ts
     * `throttleMail`) per recipient address and per client address; defaults 5 and 30 per 3600 s.
     */
    readonly mailRecipient: Budget
    readonly mailClient: Budget
  }
  /** Redis URL of the shared budget store (several processes); none → in-process memory. */
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /**
   * Reverse proxies in front of the server that append to `X-Forwarded-For`
   * (default 0: the client address is the TCP peer).
   */
  readonly trustedProxyHops: number
  /** Build version reported in `meta.buildVersion`. */
  readonly buildVersion: string
  /** Least severe log level written (`LOG_LEVEL`: all, trace, debug, info, warn, error, fatal, off; default info). */
  readonly logLevel: LogLevel.LogLevel
  /** Log line format (`LOG_FORMAT`): `json` (one object per line), `pretty`, or `auto` (pretty on a TTY, else json; default). */
  readonly logFormat: "json" | "pretty" | "auto"
  /** Public origin of the service (`PUBLIC_BASE_URL`, no trailing slash), used in canonical agent URLs (spec §9). */
  readonly publicBaseUrl: string
  /** Largest request body accepted, in bytes (default 1 MiB); a larger one gets 400 `body-too-large`. */
  readonly maxBodyBytes: number
  /** Keys derived from `APP_SECRET` (HKDF-SHA256), one per purpose. */
  readonly keys: {
    readonly apiKeyVerifier: Redacted.Redacted<Buffer>
    readonly cursor: Redacted.Redacted<Buffer>
    /** Signs analytics context tokens (src/social/analytics/ContextToken.ts). */
    readonly analyticsContext: Redacted.Redacted<Buffer>
    /** Signs analytics export download tokens. */
    readonly analyticsDownload: Redacted.Redacted<Buffer>
    /** Signs ad-serving tokens (src/growth/ads/ServingToken.ts). */
    readonly adServing: Redacted.Redacted<Buffer>
    /** Seals accounts' TOTP secrets at rest (AES-256-GCM, layers/TokenCipher.ts; src/accounts/mfa). */
    readonly mfaTotp: Redacted.Redacted<Buffer>
    /** Seals webhook subscriptions' signing secrets at rest (AES-256-GCM; src/workspaces/webhooks). */
    readonly webhookSecrets: Redacted.Redacted<Buffer>
  }
  /**
   * The durable engine (layers/Engine.ts): `ENGINE_RUNNER`, `ENGINE_RUNNER_HOST`,
   * `ENGINE_RUNNER_PORT`, `ENGINE_POLL_INTERVAL_MS`, and the takeover timings
   * `ENGINE_SHARD_LOCK_REFRESH_MS`, `ENGINE_SHARD_LOCK_EXPIRATION_MS`,
   * `ENGINE_REFRESH_ASSIGNMENTS_MS`, `ENGINE_RUNNER_HEALTH_CHECK_MS`,
   * `ENGINE_ENTITY_TERMINATION_TIMEOUT_MS` (docs/configuration.md).
   */
  readonly engine: EngineOptions
  /**
   * The Prometheus endpoint (`GET /metrics`) on its own admin-only listener:
   * `METRICS_HOST` (default 127.0.0.1) and `METRICS_PORT`; none (the default) = not served.
   */
  readonly metrics: Option.Option<{ readonly host: string; readonly port: number }>
  /** True when `APP_SECRET` was not set and the development secret is in use. */
  readonly insecureDevelopmentSecret: boolean
  /** Bounds on waiting for the database. */
  readonly db: DbLimits
  /** The guarded outbound HTTP client (layers/Outbound.ts): `OUTBOUND_*` (docs/configuration.md, docs/outbound.md). */
  readonly outbound: OutboundOptions
  /**
   * JSON-RPC endpoints by CAIP-2 chain id (`CHAIN_RPC_URLS`, `eip155:8453=https://…,eip155:1=…`;
   * empty by default): where registry tokens' `ownerOf` is read when an identity is proven.
   */
  readonly chainRpcUrls: ReadonlyMap<string, string>
  /** The chain layer (layers/Chain.ts): `CHAIN_CONFIRMATIONS`, `CHAIN_EXPLORER_URLS`, `CHAIN_CONTRACTS`, `CHAIN_SIGNER_PRIVATE_KEY`, `CHAIN_POLL_INTERVAL_MS`. */
  readonly chain: ChainOptions
  /**
   * The model profiles an agent's runtime may name as its `provider` (layers/ModelProfiles.ts):
   * `MODEL_PROFILES` (JSON) and the file `MODEL_PROFILES_FILE` names; none by default
   * (only the built-in `deterministic` runtime). Keys are `Redacted`.
   */
  readonly modelProfiles: ModelProfiles
  /** Outgoing mail (layers/Mail.ts): `SMTP_URL`, `MAIL_FROM`, `MAIL_OUTBOX_DIR`. */
  readonly mail: MailOptions
}

/** The service configuration. */
export class AppConfig extends Context.Tag("agent-directory/AppConfig")<AppConfig, AppConfigShape>() {}

/** Used only when APP_SECRET is unset, so `npm start` works with no setup; logged as a warning. */
export const DevelopmentSecret = "agent-directory-development-secret-do-not-use-in-production"

/** The key of one purpose, derived from `APP_SECRET` (HKDF-SHA256, 32 bytes). */
export const deriveKey = (secret: string, purpose: string) =>
  Redacted.make(Buffer.from(hkdfSync("sha256", secret, "agent-directory", purpose, 32)))

const Origin = Config.string().pipe(
  Config.validate({ message: `each ALLOWED_ORIGINS entry ${ExactOriginRule}`, validation: isExactOrigin })
)

/** An integer `min..max`, `fallback` when unset. */
export const boundedInteger = (name: string, min: number, max: number, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be ${min}..${max}`, validation: (n) => n >= min && n <= max }),
    Config.withDefault(fallback)
  )

/**
 * `<PREFIX>_LIMIT` units per `<PREFIX>_WINDOW_SECONDS`. Each unit holds its place for
 * window/limit, which the Redis store needs as whole milliseconds.
 */
const budget = (prefix: string, limit: number, windowSeconds: number): Config.Config<Budget> =>
  Config.all({
    limit: boundedInteger(`${prefix}_LIMIT`, 1, 1_000_000, limit),
    windowSeconds: boundedInteger(`${prefix}_WINDOW_SECONDS`, 1, 86_400, windowSeconds)
  }).pipe(
    Config.validate({
      message: `${prefix}_WINDOW_SECONDS × 1000 must be a multiple of ${prefix}_LIMIT (each unit holds whole milliseconds)`,
      validation: (b) => (b.windowSeconds * 1000) % b.limit === 0
    })
  )

/** A duration in milliseconds, 100 ms .. 1 h. */
export const millis = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be 100..3600000 (milliseconds)`, validation: (n) => n >= 100 && n <= 3_600_000 }),
    Config.withDefault(fallback)
  )

/** An `OUTBOUND_ALLOWED_HOSTS` entry: `host` or `host:port` (a bracketed IPv6 literal allowed). */
const AllowedHost = Config.string().pipe(
  Config.map((h) => h.trim().toLowerCase()),
  Config.validate({
    message: "each OUTBOUND_ALLOWED_HOSTS entry must be host or host:port (no scheme, no path)",
    validation: (h) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?$/.test(h)
  })
)
/**
 * The engine's shard-lock and runner-health timings (layers/Engine.ts `EngineTakeover`):
 * `ENGINE_SHARD_LOCK_REFRESH_MS` (100..3600000) below `ENGINE_SHARD_LOCK_EXPIRATION_MS`
 * (1000..3600000), `ENGINE_REFRESH_ASSIGNMENTS_MS`, `ENGINE_RUNNER_HEALTH_CHECK_MS` and
 * `ENGINE_ENTITY_TERMINATION_TIMEOUT_MS` (each 100..3600000); defaults the library's.
 */
const engineTakeover: Config.Config<EngineTakeover> = Config.all({
  shardLockRefreshMs: millis("ENGINE_SHARD_LOCK_REFRESH_MS", DefaultEngineTakeover.shardLockRefreshMs),
  shardLockExpirationMs: boundedInteger("ENGINE_SHARD_LOCK_EXPIRATION_MS", 1000, 3_600_000, DefaultEngineTakeover.shardLockExpirationMs),
  refreshAssignmentsMs: millis("ENGINE_REFRESH_ASSIGNMENTS_MS", DefaultEngineTakeover.refreshAssignmentsMs),
  runnerHealthCheckMs: millis("ENGINE_RUNNER_HEALTH_CHECK_MS", DefaultEngineTakeover.runnerHealthCheckMs),
  entityTerminationTimeoutMs: millis("ENGINE_ENTITY_TERMINATION_TIMEOUT_MS", DefaultEngineTakeover.entityTerminationTimeoutMs)
}).pipe(
  Config.validate({
    message: "ENGINE_SHARD_LOCK_REFRESH_MS must be less than ENGINE_SHARD_LOCK_EXPIRATION_MS (a lock is renewed before it expires)",
    validation: (t) => t.shardLockRefreshMs < t.shardLockExpirationMs
  })
)

/**
 * Parses `CHAIN_RPC_URLS`: comma-separated `<CAIP-2 chain id>=<http(s) URL>` entries, each chain
 * once. Returns the map, or the rule the text breaks.
 */
export const parseChainRpcUrls = (text: string): ReadonlyMap<string, string> | string => {
  const map = new Map<string, string>()
  for (const raw of text.split(",")) {
    const entry = raw.trim()
    if (entry === "") continue
    const at = entry.indexOf("=")
    const chain = at < 0 ? "" : entry.slice(0, at).trim()
    if (!/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(chain)) {
      return "CHAIN_RPC_URLS entries must be <CAIP-2 chain id>=<URL> (e.g. eip155:8453=https://…)"
    }
    let url: URL
    try {
      url = new URL(entry.slice(at + 1).trim())
    } catch {
      return "each CHAIN_RPC_URLS URL must be an absolute http or https URL"
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "each CHAIN_RPC_URLS URL must be an absolute http or https URL"
    if (map.has(chain)) return "CHAIN_RPC_URLS names a chain twice"
    map.set(chain, url.toString())
  }
  return map
}

/**
 * `MODEL_PROFILES` and `MODEL_PROFILES_FILE` (layers/ModelProfiles.ts): the profiles of
 * both, each name once. A message names the profile and field, never a value.
 */
const modelProfiles = Config.all({
  text: Config.option(Config.redacted("MODEL_PROFILES")),
  file: Config.option(Config.string("MODEL_PROFILES_FILE"))
}).pipe(
  Config.mapOrFail(({ file, text }) => {
    const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))
    const fromEnv = parseModelProfiles(Option.match(text, { onNone: () => "", onSome: Redacted.value }), "MODEL_PROFILES")
    if (typeof fromEnv === "string") return invalid(fromEnv)
    const path = Option.getOrElse(file, () => "").trim()
    let content = ""
    if (path !== "") {
      try {
        content = readFileSync(path, "utf8")
      } catch {
        return invalid("MODEL_PROFILES_FILE names a file that cannot be read")
      }
    }
    const fromFile = parseModelProfiles(content, "MODEL_PROFILES_FILE")
    if (typeof fromFile === "string") return invalid(fromFile)
    const merged = mergeModelProfiles(fromEnv, fromFile)
    return typeof merged === "string" ? invalid(merged) : Either.right(merged)
  })
)

/**
 * `SMTP_URL` (an `smtp://` or `smtps://` URL), `MAIL_FROM` and `MAIL_OUTBOX_DIR` (default
 * `<DATA_DIR>/mail`, `./.data/mail` for an in-memory database).
 */
const mailOptions: Config.Config<MailOptions> = Config.all({
  smtpUrl: Config.option(Config.redacted("SMTP_URL").pipe(
    Config.validate({
      message: "SMTP_URL must be an smtp:// or smtps:// URL",
      validation: (u) => /^smtps?:\/\/[^\s]+$/.test(Redacted.value(u).trim())
    })
  )),
  from: Config.string("MAIL_FROM").pipe(
    Config.validate({ message: "MAIL_FROM must be an address, optionally with a name: Name <a@b.c>", validation: (f) => /@/.test(f) }),
    Config.withDefault("Agent Directory <no-reply@localhost>")
  ),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.data")),
  outboxDir: Config.option(Config.string("MAIL_OUTBOX_DIR"))
}).pipe(Config.map(({ dataDir, from, outboxDir, smtpUrl }) => ({
  smtpUrl,
  from,
  outboxDir: Option.getOrElse(outboxDir, () => dataDir.startsWith("memory://") ? "./.data/mail" : `${dataDir.replace(/\/$/, "")}/mail`)
})))

/** Reads and validates the configuration from the environment (`ConfigProvider`). */
export const loadAppConfig = Effect.gen(function*() {
  const secret = yield* Config.option(Config.redacted("APP_SECRET").pipe(
    Config.validate({ message: "APP_SECRET must be at least 32 characters", validation: (s) => Redacted.value(s).length >= 32 })
  ))
  const secretValue = Option.match(secret, { onNone: () => DevelopmentSecret, onSome: Redacted.value })
  return {
    port: yield* Config.port("PORT").pipe(Config.withDefault(3000)),
    host: yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
    databaseUrl: yield* Config.option(Config.redacted("DATABASE_URL")).pipe(
      Effect.map(Option.filter((u) => Redacted.value(u).trim() !== ""))
    ),
    dataDir: yield* Config.string("DATA_DIR").pipe(Config.withDefault("./.data")),
    environment: yield* Config.string("DEPLOYMENT_ENV").pipe(Config.withDefault("development")),
    allowedOrigins: yield* Config.array(Origin, "ALLOWED_ORIGINS").pipe(Config.withDefault([])),
    cookieSecure: yield* Config.boolean("COOKIE_SECURE").pipe(Config.withDefault(true)),
    sessionTtlSeconds: yield* Config.integer("SESSION_TTL_SECONDS").pipe(
      Config.validate({ message: "SESSION_TTL_SECONDS must be 60..2592000", validation: (n) => n >= 60 && n <= 2_592_000 }),
      Config.withDefault(12 * 3600)
    ),
    recentAuthSeconds: yield* Config.integer("RECENT_AUTH_SECONDS").pipe(
      Config.validate({ message: "RECENT_AUTH_SECONDS must be 10..86400", validation: (n) => n >= 10 && n <= 86_400 }),
      Config.withDefault(15 * 60)
    ),
    budgets: {
      anonymous: yield* budget("RATE_ANONYMOUS", 60, 60),
      apiKey: yield* budget("RATE_API_KEY", 1200, 60),
      session: yield* budget("RATE_SESSION", 600, 60),
      signInAccount: yield* budget("SIGN_IN_ACCOUNT", 10, 900),
      signInAddress: yield* budget("SIGN_IN_ADDRESS", 50, 900),
      mailRecipient: yield* budget("MAIL_RECIPIENT", 5, 3600),
      mailClient: yield* budget("MAIL_CLIENT", 30, 3600)
    },
    redisUrl: yield* Config.option(Config.redacted("REDIS_URL")).pipe(
      Effect.map(Option.filter((u) => Redacted.value(u).trim() !== ""))
    ),
    trustedProxyHops: yield* Config.integer("TRUSTED_PROXY_HOPS").pipe(
      Config.validate({ message: "TRUSTED_PROXY_HOPS must be 0..10", validation: (n) => n >= 0 && n <= 10 }),
      Config.withDefault(0)
    ),
    buildVersion: yield* Config.string("BUILD_VERSION").pipe(Config.withDefault("1.0.0-dev")),
    logLevel: yield* Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
    logFormat: yield* Config.literal("json", "pretty", "auto")("LOG_FORMAT").pipe(Config.withDefault("auto" as const)),
    publicBaseUrl: yield* Config.nested(Origin, "PUBLIC_BASE_URL").pipe(Config.withDefault("http://127.0.0.1:3000")),
    maxBodyBytes: yield* Config.integer("MAX_BODY_BYTES").pipe(
      Config.validate({ message: "MAX_BODY_BYTES must be 1024..104857600", validation: (n) => n >= 1024 && n <= 104_857_600 }),
      Config.withDefault(1_048_576)
    ),
    keys: {
      apiKeyVerifier: deriveKey(secretValue, "api-key-verifier"),
      cursor: deriveKey(secretValue, "cursor"),
      analyticsContext: deriveKey(secretValue, "analytics-context"),
      analyticsDownload: deriveKey(secretValue, "analytics-download"),
      adServing: deriveKey(secretValue, "ad-serving"),
      mfaTotp: deriveKey(secretValue, "mfa-totp-secrets"),
      webhookSecrets: deriveKey(secretValue, "webhook-signing-secrets")
    },
    engine: {
      runner: yield* Config.literal("single", "socket")("ENGINE_RUNNER").pipe(Config.withDefault(DefaultEngineOptions.runner)),
      runnerHost: yield* Config.string("ENGINE_RUNNER_HOST").pipe(Config.withDefault(DefaultEngineOptions.runnerHost)),
      runnerPort: yield* boundedInteger("ENGINE_RUNNER_PORT", 1, 65_535, DefaultEngineOptions.runnerPort),
      pollIntervalMs: yield* boundedInteger("ENGINE_POLL_INTERVAL_MS", 10, 60_000, DefaultEngineOptions.pollIntervalMs),
      takeover: yield* engineTakeover
    },
    metrics: yield* Config.option(Config.all({
      host: Config.string("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
      port: Config.integer("METRICS_PORT").pipe(
        Config.validate({ message: "METRICS_PORT must be 0..65535", validation: (n) => n >= 0 && n <= 65_535 })
      )
    })),
    insecureDevelopmentSecret: Option.isNone(secret),
    db: {
      connectTimeoutMs: yield* millis("DB_CONNECT_TIMEOUT_MS", DefaultDbLimits.connectTimeoutMs),
      statementTimeoutMs: yield* millis("DB_STATEMENT_TIMEOUT_MS", DefaultDbLimits.statementTimeoutMs),
      poolMax: yield* Config.integer("DB_POOL_MAX").pipe(
        Config.validate({ message: "DB_POOL_MAX must be 1..1000", validation: (n) => n >= 1 && n <= 1000 }),
        Config.withDefault(DefaultDbLimits.poolMax)
      ),
      startupTimeoutMs: yield* millis("DB_STARTUP_TIMEOUT_MS", DefaultDbLimits.startupTimeoutMs)
    },
    chainRpcUrls: yield* Config.string("CHAIN_RPC_URLS").pipe(
      Config.withDefault(""),
      Config.mapOrFail((text) => {
        const parsed = parseChainRpcUrls(text)
        return typeof parsed === "string"
          ? Either.left(ConfigError.InvalidData(["CHAIN_RPC_URLS"], parsed))
          : Either.right(parsed)
      })
    ),
    chain: yield* chainOptions,
    outbound: {
      allowedHosts: yield* Config.array(AllowedHost, "OUTBOUND_ALLOWED_HOSTS").pipe(Config.withDefault([])),
      timeoutMs: yield* millis("OUTBOUND_TIMEOUT_MS", DefaultOutboundOptions.timeoutMs),
      maxBytes: yield* boundedInteger("OUTBOUND_MAX_BYTES", 1024, 104_857_600, DefaultOutboundOptions.maxBytes),
      maxRedirects: yield* boundedInteger("OUTBOUND_MAX_REDIRECTS", 0, 20, DefaultOutboundOptions.maxRedirects),
      userAgent: `agent-directory/${yield* Config.string("BUILD_VERSION").pipe(Config.withDefault("1.0.0-dev"))} (+${
        yield* Config.nested(Origin, "PUBLIC_BASE_URL").pipe(Config.withDefault("http://127.0.0.1:3000"))
      })`
    },
    modelProfiles: yield* modelProfiles,
    mail: yield* mailOptions
  } satisfies AppConfigShape
})

/** The outbound client of the configuration (`AppConfig.outbound`). */
export const OutboundConfigLive = Layer.effect(Outbound, Effect.map(AppConfig, (config) => makeOutbound(config.outbound)))

/** Configuration from the process environment. */
export const AppConfigLive = Layer.effect(AppConfig, loadAppConfig)
