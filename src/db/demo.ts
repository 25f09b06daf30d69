/**
 * The deterministic demo data set: the same IDs, emails, passwords and API keys on
 * every load. `npm start` loads it into an empty embedded database, `npm run db:seed`
 * into PostgreSQL, tests start from it, and `npm run demo:manifest` describes it.
 *
 * Demo credentials are public by design; never load this set into production.
 */

/** A fixed demo UUID (version 7 shape) from a small number. */
export const demoId = (group: number, n: number) =>
  `0190${group.toString(16).padStart(4, "0")}-0000-7000-8000-${n.toString(16).padStart(12, "0")}`
const id = demoId

/** A well-formed demo API key: `adk_<prefix>_<43 chars>`. */
const demoKey = (prefix: string, label: string) => `adk_${prefix}_${label.repeat(8).slice(0, 43)}`

/** Instant `days` after 2026-01-01T00:00:00Z (plus `minutes`). */
export const demoTime = (days: number, minutes = 0) => new Date(Date.UTC(2026, 0, 1) + days * 86_400_000 + minutes * 60_000)

export const DemoAccounts = {
  admin: { id: id(1, 1), email: "admin@demo.agent-directory.dev", password: "demo-admin-password", displayName: "Ada Admin", isAdmin: true },
  owner: { id: id(1, 2), email: "owner@demo.agent-directory.dev", password: "demo-owner-password", displayName: "Olive Owner", isAdmin: false },
  member: { id: id(1, 3), email: "member@demo.agent-directory.dev", password: "demo-member-password", displayName: "Mel Member", isAdmin: false },
  outsider: { id: id(1, 4), email: "outsider@demo.agent-directory.dev", password: "demo-outsider-password", displayName: "Otto Outsider", isAdmin: false }
} as const
export type DemoAccountName = keyof typeof DemoAccounts

/**
 * A session of the owner on another device, so that Accounts_RevokeSession has a
 * session to revoke on a fresh database. Its token is unknown (unusable).
 */
export const DemoOtherSession = { id: id(1, 100), account: "owner", days: 1, expires: new Date("2030-01-01T00:00:00.000Z") } as const

export const DemoWorkspaces = {
  acme: { id: id(2, 1), name: "Acme Agents", slug: "acme-agents", locked: false },
  outsider: { id: id(2, 2), name: "Outsider Lab", slug: "outsider-lab", locked: false },
  locked: { id: id(2, 3), name: "Frozen Holdings", slug: "frozen-holdings", locked: true }
} as const

/** Memberships: [workspace, account, role, isWorkspaceOwner, isDefault]. */
export const DemoMemberships = [
  ["acme", "owner", "OWNER", true, true],
  ["acme", "member", "EDITOR", false, true],
  ["acme", "admin", "VIEWER", false, true],
  ["outsider", "outsider", "OWNER", true, true],
  ["locked", "owner", "OWNER", true, false]
] as const

export const DemoInvitations = [
  { id: id(3, 1), workspace: "acme", email: "new.hire@example.com", role: "EDITOR", state: "PENDING", days: 10 },
  { id: id(3, 2), workspace: "acme", email: "analyst@example.com", role: "ANALYST", state: "EXPIRED", days: 11 },
  { id: id(3, 3), workspace: "acme", email: null, role: "VIEWER", state: "REVOKED", days: 12 }
] as const

export const DemoNetworks = {
  base: { id: id(4, 1), key: "base", family: "EVM", displayName: "Base" },
  solana: { id: id(4, 2), key: "solana", family: "SVM", displayName: "Solana" }
} as const

export const DemoAssets = {
  usdc: { id: id(5, 1), network: "base", symbol: "USDC", decimals: 6 },
  sol: { id: id(5, 2), network: "solana", symbol: "SOL", decimals: 9 }
} as const

export const DemoAgents = [
  { id: id(6, 1), slug: "atlas-research", name: "Atlas Research", rank: "1", tagline: "Deep research on demand", stars: "1520", state: "VERIFIED" },
  { id: id(6, 2), slug: "beacon-monitor", name: "Beacon Monitor", rank: "2", tagline: "Uptime and chain monitoring", stars: "980", state: "VERIFIED" },
  { id: id(6, 3), slug: "cobalt-trader", name: "Cobalt Trader", rank: "7", tagline: null, stars: "411", state: "PARTIAL" },
  { id: id(6, 4), slug: "delta-scribe", name: "Delta Scribe", rank: null, tagline: "Docs that write themselves", stars: "87", state: "UNVERIFIED" },
  { id: id(6, 5), slug: "echo-support", name: "Echo Support", rank: null, tagline: "Customer support agent", stars: "0", state: "EXPIRED" },
  { id: id(6, 6), slug: "forge-builder", name: "Forge Builder", rank: "12", tagline: "Ships smart contracts", stars: "64", state: "PARTIAL" },
  { id: id(6, 7), slug: "gamma-oracle", name: "Gamma Oracle", rank: "15", tagline: "Price feeds for agents", stars: "33", state: "VERIFIED" },
  { id: id(6, 8), slug: "harbor-relay", name: "Harbor Relay", rank: null, tagline: null, stars: "5", state: "CONFLICTED" }
] as const

/**
 * The workspaces that operate demo agents (`agents.workspace_id`): Atlas and Beacon by
 * Acme, Cobalt by the outsider's workspace (runtime, activity and analytics demo data).
 */
export const DemoAgentWorkspaces = [
  { agent: DemoAgents[0].id, workspace: "acme" },
  { agent: DemoAgents[1].id, workspace: "acme" },
  { agent: DemoAgents[2].id, workspace: "outsider" }
] as const

/** Demo EVM registry contracts (EIP-55), as identity registries of the `base` network. */
export const DemoRegistries = {
  erc8004: "0x8004a6090Cd10A7288092483047B097295Fb8847",
  legacy: "0x8004B06FE1C0Ef3a3d4Ca8A4E1Ca6D8c24ab1fD2"
} as const

/**
 * Demo identities (agent locators, spec §9), chosen so every resolver status is reachable:
 * - UNIQUE: each REGISTRY_BOUND locator bound to one agent (token, address, SVM asset, DID, off-chain key);
 * - AMBIGUOUS: token 7 on base without a registry (Forge in one registry, Gamma in the other);
 * - CONFLICTED: token 9 of the legacy registry, bound to both Gamma and Harbor;
 * - NOT_FOUND with an observed-only reason: the funded address, which Atlas was FUNDED from and
 *   Beacon TRANSFERRED to; it must never map to either.
 *  */
export const DemoIdentities = [
  { id: id(12, 1), agent: 0, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.erc8004, nativeId: "1", binding: "REGISTRY_BOUND" },
  { id: id(12, 2), agent: 1, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.erc8004, nativeId: "2", binding: "REGISTRY_BOUND" },
  { id: id(12, 3), agent: 0, family: "EVM", kind: "ADDRESS", network: "base", scope: null, nativeId: "0xA11Ce0000000000000000000000000000000a7a5", binding: "REGISTRY_BOUND" },
  { id: id(12, 4), agent: 2, family: "SVM", kind: "ASSET", network: "solana", scope: "metaplex-core", nativeId: "Cs8KY3PiWrCMAytMsBRQo8EdGbticVtdvufLnb2UhXh", binding: "REGISTRY_BOUND" },
  { id: id(12, 5), agent: 3, family: "DID", kind: "DID", network: null, scope: "web", nativeId: "did:web:delta-scribe.example", binding: "REGISTRY_BOUND" },
  { id: id(12, 6), agent: 4, family: "OFFCHAIN", kind: "REGISTRY_KEY", network: null, scope: "agentverse", nativeId: "agent1qecho0support", binding: "REGISTRY_BOUND" },
  { id: id(12, 7), agent: 5, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.erc8004, nativeId: "7", binding: "REGISTRY_BOUND" },
  { id: id(12, 8), agent: 6, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.legacy, nativeId: "7", binding: "REGISTRY_BOUND" },
  { id: id(12, 9), agent: 6, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.legacy, nativeId: "9", binding: "REGISTRY_BOUND" },
  { id: id(12, 10), agent: 7, family: "EVM", kind: "REGISTRY_TOKEN", network: "base", scope: DemoRegistries.legacy, nativeId: "9", binding: "REGISTRY_BOUND" },
  { id: id(12, 11), agent: 0, family: "EVM", kind: "ADDRESS", network: "base", scope: null, nativeId: "0xF00D000000000000000000000000000000fCeD11", binding: "FUNDED" },
  { id: id(12, 12), agent: 1, family: "EVM", kind: "ADDRESS", network: "base", scope: null, nativeId: "0xF00D000000000000000000000000000000fCeD11", binding: "TRANSFERRED" }
] as const


/**
 * Locators for Agents_ResolveAgentIdentities (demo manifest and tests), one per resolver
 * status: UNIQUE (Atlas's token), NOT_FOUND (the funded address), AMBIGUOUS (token 7
 * without a registry), CONFLICTED (token 9 of the legacy registry), INVALID (bad base58).
 */
export const DemoResolveLocators = [
  { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: "0x8004a6090cd10a7288092483047b097295fb8847", nativeId: "1" },
  { networkFamily: "EVM", network: "base", protocol: null, locatorKind: "ADDRESS", registry: null, nativeId: "0xf00d000000000000000000000000000000fced11" },
  { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: null, nativeId: "7" },
  { networkFamily: "EVM", network: "base", protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry: "0x8004B06FE1C0Ef3a3d4Ca8A4E1Ca6D8c24ab1fD2", nativeId: "9" },
  { networkFamily: "SVM", network: "solana", protocol: "metaplex-core", locatorKind: "ASSET", registry: null, nativeId: "not-base58-0OIl" }
] as const

/** Favorites: [account, agent index, day added]. */
export const DemoFavorites = [
  ["owner", 0, 20],
  ["owner", 1, 21],
  ["owner", 2, 22],
  ["owner", 3, 23],
  ["member", 4, 24]
] as const

export const DemoServices = {
  research: { id: id(7, 1), workspace: "acme", agent: 0, name: "Atlas Research API" },
  outsider: { id: id(7, 2), workspace: "outsider", agent: null, name: "Outsider Tool" }
} as const

/**
 * Offers. `price`/`terms` say whether the offer has a current price and a terms
 * revision; only DRAFT, REVIEW or PAUSED offers with both can be published.
 */
export const DemoOffers = {
  /** Publishable; used by the README walk-through and the demo manifest. */
  starter: { id: id(8, 1), service: "research", state: "DRAFT", version: 1, slug: "starter", title: "Starter research plan", price: true, terms: true },
  /** Already published: publishing again is a state conflict. */
  published: { id: id(8, 2), service: "research", state: "PUBLISHED", version: 3, slug: "pro", title: "Pro research plan", price: true, terms: true },
  /** No price: not publishable. */
  unpriced: { id: id(8, 3), service: "research", state: "DRAFT", version: 1, slug: "enterprise", title: "Enterprise research plan", price: false, terms: true },
  /** Publishable from REVIEW at version 2. */
  review: { id: id(8, 4), service: "research", state: "REVIEW", version: 2, slug: "team", title: "Team research plan", price: true, terms: true },
  /** Publishable from PAUSED. */
  paused: { id: id(8, 5), service: "research", state: "PAUSED", version: 4, slug: "legacy", title: "Legacy research plan", price: true, terms: true },
  /** Publishable from DRAFT; spare for tests. */
  spare: { id: id(8, 6), service: "research", state: "DRAFT", version: 1, slug: "trial", title: "Trial research plan", price: true, terms: true },
  /** In the outsider's workspace: invisible to Acme members. */
  foreign: { id: id(8, 7), service: "outsider", state: "DRAFT", version: 1, slug: "outsider", title: "Outsider plan", price: true, terms: true }
} as const

export const DemoOrders = [
  {
    id: id(9, 1), number: "ORD-2026-0001", workspace: "acme", agent: 0, state: "ACTIVE", product: ["RESEARCH_PRO", "Pro research plan"],
    asset: "usdc", subtotal: "49000000", discount: "4900000", total: "44100000", day: 30, paid: true,
    benefit: { decisionId: id(10, 1), benefitPolicyVersion: 2, tierPolicyVersion: 1, tierCode: "GOLD", multiplierPpm: 1_100_000, discountBps: 1000 }
  },
  {
    id: id(9, 2), number: "ORD-2026-0002", workspace: "acme", agent: null, state: "PAYMENT_PENDING", product: ["AD_STRIP", "Strip ad placement"],
    asset: "sol", subtotal: "2500000000", discount: "0", total: "2500000000", day: 40, paid: false, benefit: null
  },
  {
    id: id(9, 3), number: "ORD-2026-0003", workspace: "outsider", agent: null, state: "PAID", product: ["RESEARCH_STARTER", "Starter research plan"],
    asset: "usdc", subtotal: "9000000", discount: "0", total: "9000000", day: 41, paid: true, benefit: null
  },
  // ad package orders (src/db/demo/ads.ts): a paid one no campaign uses yet (the create example),
  // one whose payment is only observed, and the one funding the ACTIVE demo campaign
  {
    id: id(9, 4), number: "ORD-2026-0004", workspace: "acme", agent: 0, state: "PAID", product: ["AD_STRIP", "Strip ad placement"],
    asset: "usdc", subtotal: "150000000", discount: "0", total: "150000000", day: 44, paid: true, benefit: null
  },
  {
    id: id(9, 5), number: "ORD-2026-0005", workspace: "acme", agent: null, state: "PAYMENT_OBSERVED", product: ["AD_INLINE", "Inline ad placement"],
    asset: "usdc", subtotal: "60000000", discount: "0", total: "60000000", day: 45, paid: false, benefit: null
  },
  {
    id: id(9, 6), number: "ORD-2026-0006", workspace: "acme", agent: 0, state: "ACTIVE", product: ["AD_STRIP", "Strip ad placement"],
    asset: "usdc", subtotal: "150000000", discount: "0", total: "150000000", day: 35, paid: true, benefit: null
  }
] as const

const isActive = (o: (typeof DemoOrders)[number]) => o.state === "ACTIVE"
const seq = (prefix: string, n: number) => `${prefix}-0000-7000-8000-${(n + 1).toString(16).padStart(12, "0")}`

/** Version and lifecycle times of each demo order, as seeded. */
export const demoOrderLifecycle = (o: (typeof DemoOrders)[number]) => ({
  version: o.paid ? 3 : 1,
  paidAt: o.paid ? demoTime(o.day, 5) : null,
  activatedAt: isActive(o) ? demoTime(o.day, 6) : null,
  expiresAt: isActive(o) ? demoTime(o.day + 365) : null,
  createdAt: demoTime(o.day),
  updatedAt: demoTime(o.day, 6)
})

/** One payment per demo order: confirmed when the order is paid. */
export const DemoPayments = DemoOrders.map((o, i) => ({
  id: seq("0190000e", i),
  orderId: o.id,
  rail: o.asset === "usdc" ? "X402" : "ONCHAIN",
  state: o.paid ? "CONFIRMED" : "PENDING",
  units: o.total,
  transactionHash: o.paid ? `0x${(i + 1).toString(16).padStart(64, "a")}` : null,
  expiresAt: demoTime(o.day, 60),
  createdAt: demoTime(o.day, 1)
}))

/** One entitlement per ACTIVE demo order, for a year. */
export const DemoEntitlements = DemoOrders.filter(isActive).map((o, i) => ({
  id: seq("0190000f", i),
  orderId: o.id,
  code: o.product[0],
  effectiveFrom: demoTime(o.day, 6),
  effectiveUntil: demoTime(o.day + 365)
}))

export const DemoProtocols = [
  { key: "mcp", name: "Model Context Protocol", status: "SUPPORTED", features: ["tools", "resources", "prompts", "oauth"] },
  { key: "a2a", name: "Agent2Agent", status: "SUPPORTED", features: ["agent-card", "tasks", "streaming"] },
  { key: "x402", name: "x402 Payments", status: "SUPPORTED", features: ["exact", "upto"] },
  { key: "erc-8004", name: "ERC-8004 Trustless Agents", status: "PREVIEW", features: ["identity-registry", "reputation-registry"] },
  { key: "openapi", name: "OpenAPI", status: "SUPPORTED", features: ["3.0", "3.1"] }
] as const

/**
 * Demo API keys (plaintext, since this set is public). `public` is ACTIVE with the
 * public scopes; the others exist to show that every kind of bad key gets one 401.
 */
export const DemoApiKeys = {
  public: { id: id(11, 1), key: demoKey("0a1b2c3d4e5f", "DemoPublicKey"), scopes: ["public:read", "agents:read"], state: "ACTIVE", environment: "development", expired: false, allowedOrigins: [] },
  agentsOnly: { id: id(11, 2), key: demoKey("1a1b2c3d4e5f", "DemoAgentsOnlyKey"), scopes: ["agents:read"], state: "ACTIVE", environment: "development", expired: false, allowedOrigins: [] },
  paused: { id: id(11, 3), key: demoKey("2a1b2c3d4e5f", "DemoPausedKey"), scopes: ["public:read"], state: "PAUSED", environment: "development", expired: false, allowedOrigins: [] },
  revoked: { id: id(11, 4), key: demoKey("3a1b2c3d4e5f", "DemoRevokedKey"), scopes: ["public:read"], state: "REVOKED", environment: "development", expired: false, allowedOrigins: [] },
  expired: { id: id(11, 5), key: demoKey("4a1b2c3d4e5f", "DemoExpiredKey"), scopes: ["public:read"], state: "ACTIVE", environment: "development", expired: true, allowedOrigins: [] },
  production: { id: id(11, 6), key: demoKey("5a1b2c3d4e5f", "DemoProductionKey"), scopes: ["public:read"], state: "ACTIVE", environment: "production", expired: false, allowedOrigins: [] },
  // usable from one browser origin (spec §5.4.2)
  browser: {
    id: id(11, 7), key: demoKey("6a1b2c3d4e5f", "DemoBrowserKey"), scopes: ["public:read"], state: "ACTIVE", environment: "development",
    expired: false, allowedOrigins: ["https://app.demo.agent-directory.dev"]
  }
} as const

/**
 * The `Idempotency-Key` example of the docs (`/docs`, `/openapi.json`): a valid uuid,
 * so that a first "send" of a command succeeds; sending it again replays the answer.
 */
export const DemoIdempotencyKey = id(12, 1)
