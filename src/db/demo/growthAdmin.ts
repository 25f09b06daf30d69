/**
 * Demo data of the issue-9 admin operations: token operations, bounties in escrow
 * with disputes, and partner job sources, each in several states. Loaded by
 * `seedGrowthAdmin` (seed.ts) after the core demo data.
 */

import { demoId as id } from "../demo.js"

// this file's id groups: 0x90-0x9f

/** Token operations (spec §2.13): [kind, state, units, quote units or null, requested day]. */
export const DemoTokenOperations = [
  { id: id(0x90, 1), kind: "BUYBACK", state: "RECONCILED", units: "125000000", quoteUnits: "2500000000", days: 20, summary: "Weekly buyback from protocol revenue" },
  { id: id(0x90, 2), kind: "BURN", state: "SUBMITTED", units: "50000000", quoteUnits: null, days: 40, summary: "Burn of bought-back tokens" },
  { id: id(0x90, 3), kind: "REWARD", state: "APPROVAL_REQUIRED", units: "7500000", quoteUnits: null, days: 60, summary: "Top-agent monthly rewards" },
  { id: id(0x90, 4), kind: "TREASURY_TRANSFER", state: "PLANNED", units: "1000000000", quoteUnits: null, days: 80, summary: "Treasury rebalance to cold wallet" },
  { id: id(0x90, 5), kind: "COMMISSION_PAYOUT", state: "FAILED", units: "3300000", quoteUnits: null, days: 90, summary: "Referral commission payout" }
] as const

/** Escrow contract and custody wallet of the demo bounties (Base). */
export const DemoEscrow = {
  network: "base",
  contractAddress: "0x5b1e5c0ffee0000000000000000000000000b0a7",
  walletId: id(0x91, 100)
} as const

/** Bounties with escrowed USDC (6 decimals) in the acme workspace. */
export const DemoBounties = {
  release: { id: id(0x91, 1), title: "Index 10k agent cards", state: "DISPUTED", escrowUnits: "250000000", version: 3 },
  split: { id: id(0x91, 2), title: "Translate the docs to German", state: "DISPUTED", escrowUnits: "1000000", version: 2 },
  refund: { id: id(0x91, 3), title: "Benchmark five trading agents", state: "DISPUTED", escrowUnits: "40000000", version: 4 },
  resolved: { id: id(0x91, 4), title: "Audit the payment flow", state: "REFUND_PENDING", escrowUnits: "90000000", version: 5 },
  withdrawn: { id: id(0x91, 5), title: "Design an agent badge", state: "IN_PROGRESS", escrowUnits: "15000000", version: 2 }
} as const
export type DemoBountyName = keyof typeof DemoBounties

/** One dispute per bounty: OPEN on the disputed ones, RESOLVED and WITHDRAWN on the others. */
export const DemoDisputes = {
  release: { id: id(0x92, 1), bounty: "release", state: "OPEN", version: 1 },
  split: { id: id(0x92, 2), bounty: "split", state: "OPEN", version: 2 },
  refund: { id: id(0x92, 3), bounty: "refund", state: "OPEN", version: 1 },
  resolved: { id: id(0x92, 4), bounty: "resolved", state: "RESOLVED", version: 2 },
  withdrawn: { id: id(0x92, 5), bounty: "withdrawn", state: "WITHDRAWN", version: 2 }
} as const satisfies Record<string, { readonly bounty: DemoBountyName; readonly [k: string]: unknown }>

/** Partner job sources (spec §2.18) in every state. */
export const DemoJobSources = {
  active: {
    id: id(0x93, 1), code: "gigboard", displayName: "GigBoard", state: "ACTIVE", failureCount: 0, version: 4,
    endpointUrl: "https://partners.gigboard.example/v1/agent-jobs.json", pollIntervalSeconds: 900, requestTimeoutMs: 5000
  },
  degraded: {
    id: id(0x93, 2), code: "botbounties", displayName: "Bot Bounties", state: "DEGRADED", failureCount: 4, version: 2,
    endpointUrl: "https://feeds.botbounties.example/jobs", pollIntervalSeconds: 3600, requestTimeoutMs: 10000
  },
  paused: {
    id: id(0x93, 3), code: "quietjobs", displayName: "Quiet Jobs", state: "PAUSED", failureCount: 0, version: 3,
    endpointUrl: "https://quietjobs.example/feed", pollIntervalSeconds: 86400, requestTimeoutMs: 30000
  },
  disabled: {
    id: id(0x93, 4), code: "oldmarket", displayName: "Old Market", state: "DISABLED", failureCount: 12, version: 7,
    endpointUrl: "https://oldmarket.example/api/jobs", pollIntervalSeconds: 600, requestTimeoutMs: 1000
  }
} as const
export type DemoJobSourceName = keyof typeof DemoJobSources
