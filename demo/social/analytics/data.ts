/**
 * Demo data of analytics and public activity (spec §2.17, §2.21): which workspace operates
 * which agent, the public activity feed (every source kind, both networks), product
 * events, exports in several states, and a context token for the demo.
 */
import { Redacted } from "effect"
import { deriveKey, DevelopmentSecret } from "../../../layers/AppConfig.js"
import { mintContextToken } from "../../../src/social/analytics/ContextToken.js"
import { downloadTokenOf } from "../../../src/social/analytics/DownloadToken.js"
import { DemoAgents } from "../../agents/seed.js"
import { demoId, demoTime } from "../../common.js"

const id = demoId

const atlas = DemoAgents[0].id
const beacon = DemoAgents[1].id

/** Which workspace operates which demo agent (same as the runtime demo data; others are directory-only). */

/** Public activity (spec §2.21): Atlas has items of every source kind on both networks; Beacon a few. */
export const DemoActivity = [
  { id: id(0x41, 1), agent: atlas, key: "agent.registered", version: 1, summary: "Registered in the ERC-8004 registry", kind: "CHAIN_OBSERVATION", network: "base", tx: "0x7a1f000000000000000000000000000000000000000000000000000000000001", explorer: "https://basescan.org/tx/0x7a1f000000000000000000000000000000000000000000000000000000000001", evidence: null, at: demoTime(10) },
  { id: id(0x41, 2), agent: atlas, key: "service.published", version: 1, summary: "Published the Research starter offer", kind: "DOMAIN_EVENT", network: null, tx: null, explorer: null, evidence: null, at: demoTime(20) },
  { id: id(0x41, 3), agent: atlas, key: "payment.received", version: 2, summary: "Received a USDC payment", kind: "CHAIN_OBSERVATION", network: "base", tx: "0x7a1f000000000000000000000000000000000000000000000000000000000002", explorer: "https://basescan.org/tx/0x7a1f000000000000000000000000000000000000000000000000000000000002", evidence: null, at: demoTime(30) },
  { id: id(0x41, 4), agent: atlas, key: "uptime.checked", version: 1, summary: "Uptime provider reported 99.9%", kind: "PROVIDER_OBSERVATION", network: null, tx: null, explorer: null, evidence: id(0x42, 1), at: demoTime(40) },
  { id: id(0x41, 5), agent: atlas, key: "payment.received", version: 2, summary: "Received a SOL payment", kind: "CHAIN_OBSERVATION", network: "solana", tx: "5h3SoLdemoSignature111111111111111111111111111111111111111111111", explorer: "https://solscan.io/tx/5h3SoLdemoSignature111111111111111111111111111111111111111111111", evidence: null, at: demoTime(50) },
  { id: id(0x41, 6), agent: atlas, key: "review.verified", version: 1, summary: null, kind: "PRODUCT_EVIDENCE", network: null, tx: null, explorer: null, evidence: id(0x42, 2), at: demoTime(60) },
  { id: id(0x41, 7), agent: atlas, key: "service.published", version: 1, summary: "Published the Research pro offer", kind: "DOMAIN_EVENT", network: null, tx: null, explorer: null, evidence: null, at: demoTime(70) },
  { id: id(0x41, 8), agent: beacon, key: "agent.registered", version: 1, summary: "Registered in the ERC-8004 registry", kind: "CHAIN_OBSERVATION", network: "base", tx: "0x7a1f000000000000000000000000000000000000000000000000000000000003", explorer: "https://basescan.org/tx/0x7a1f000000000000000000000000000000000000000000000000000000000003", evidence: null, at: demoTime(15) },
  { id: id(0x41, 9), agent: beacon, key: "uptime.checked", version: 1, summary: "Uptime provider reported 100%", kind: "PROVIDER_OBSERVATION", network: null, tx: null, explorer: null, evidence: null, at: demoTime(45) }
] as const

/** Product events already ingested for Atlas (TRAFFIC exports read them). */
export const DemoProductEvents = [
  { id: id(0x43, 1), agent: atlas, name: "traffic.page_view", properties: { path: "/agents/atlas-research" }, at: demoTime(100) },
  { id: id(0x43, 2), agent: atlas, name: "traffic.page_view", properties: { path: "/agents/atlas-research/offers" }, at: demoTime(101) },
  { id: id(0x43, 3), agent: atlas, name: "engagement.offer_click", properties: { offer: "starter" }, at: demoTime(101, 5) }
] as const

/** Analytics exports of Atlas in several states (spec §3). */
export const DemoExports = {
  available: { id: id(0x44, 1), type: "TRAFFIC", from: "2026-04-11", to: "2026-04-11", format: "CSV", state: "AVAILABLE", rowCount: 1, error: null },
  failed: { id: id(0x44, 2), type: "REVENUE", from: "2025-01-01", to: "2025-12-31", format: "JSONL", state: "FAILED", rowCount: null, error: "TOO_MANY_ROWS" },
  requested: { id: id(0x44, 3), type: "PERFORMANCE", from: "2026-01-01", to: "2026-03-31", format: "CSV", state: "REQUESTED", rowCount: null, error: null }
} as const

/** The file of the AVAILABLE demo export. */
export const DemoAvailableExportFile = "eventId,name,category,occurredAt,properties\n" +
  `${id(0x43, 1)},traffic.page_view,traffic,2026-04-11T00:00:00.000Z,"{""path"":""/agents/atlas-research""}"\n`

/** Claims of the demo context token: an anonymous visitor of Atlas who consented to traffic and engagement events. */
export const DemoContextClaims = {
  sub: "demo-visitor-1",
  agent: atlas,
  consent: ["traffic", "engagement"],
  exp: Date.UTC(2036, 0, 1) / 1000
} as const

/**
 * A context token for the demo (until 2036), signed for the development secret:
 * valid on `npm start` without `APP_SECRET` (and in the tests, whose config uses that key).
 */
export const demoContextToken = (): string =>
  mintContextToken(Redacted.value(deriveKey(DevelopmentSecret, "analytics-context")), {
    ...DemoContextClaims,
    consent: [...DemoContextClaims.consent]
  })

/** The download token of the AVAILABLE demo export, for the development secret (as {@link demoContextToken}). */
export const demoDownloadToken = (): string =>
  downloadTokenOf(Redacted.value(deriveKey(DevelopmentSecret, "analytics-download")), DemoExports.available.id)
