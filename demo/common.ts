/**
 * The deterministic demo data set's shared part: its id and time helpers, the reference
 * data every area uses (networks, assets) and the docs' Idempotency-Key. Each area's own
 * demo data is in `demo/<area>/`; `demo/seed.ts` loads them all. The same IDs,
 * emails, passwords and API keys on every load: `npm start` loads the set into an empty
 * embedded database, `npm run db:seed` into PostgreSQL, tests start from it, and
 * `npm run demo:manifest` describes it.
 *
 * Demo credentials are public by design; never load this set into production.
 */

/** A fixed demo UUID (version 7 shape) from a small number. */
export const demoId = (group: number, n: number) =>
  `0190${group.toString(16).padStart(4, "0")}-0000-7000-8000-${n.toString(16).padStart(12, "0")}`
const id = demoId

/** Instant `days` after 2026-01-01T00:00:00Z (plus `minutes`). */
export const demoTime = (days: number, minutes = 0) => new Date(Date.UTC(2026, 0, 1) + days * 86_400_000 + minutes * 60_000)

/**
 * Networks (reference data), with their CAIP-2 chain ids. Migration 0017 inserts these rows
 * (same UUIDs) into every database, so production names them too; the seed skips them there.
 */
export const DemoNetworks = {
  base: { id: id(4, 1), key: "base", family: "EVM", displayName: "Base", caip2: "eip155:8453" },
  solana: { id: id(4, 2), key: "solana", family: "SVM", displayName: "Solana", caip2: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" },
  ethereum: { id: id(4, 3), key: "ethereum", family: "EVM", displayName: "Ethereum", caip2: "eip155:1" }
} as const

/** Assets (reference data). */
export const DemoAssets = {
  usdc: { id: id(5, 1), network: "base", symbol: "USDC", decimals: 6 },
  sol: { id: id(5, 2), network: "solana", symbol: "SOL", decimals: 9 }
} as const

/**
 * The `Idempotency-Key` example of the docs (`/docs`, `/openapi.json`): a valid uuid,
 * so that a first "send" of a command succeeds; sending it again replays the answer.
 */
export const DemoIdempotencyKey = id(12, 1)
