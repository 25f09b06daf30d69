/**
 * Reads the A2A Agent Card of each domain of a WELL_KNOWN source (`https://<domain>/.well-known/agent-card.json`,
 * or `<origin>/.well-known/agent-card.json` for an origin), politely and conditionally on the last fetch's
 * validators. Each domain is one entry (one agent, named after the card). A card answering 404 or 410, and a
 * domain no longer in the source's list, mark the entry vanished; other failures leave it as it was.
 */
import { Effect } from "effect"
import type { Ingest, IngestItem } from "./Ingest.js"
import type { PoliteFetch } from "./PoliteFetch.js"
import type { KnownEntry } from "./Repo.js"

/** Cards fetched at a time (per host at most `PerHostConcurrency`). */
export const CardConcurrency = 16

const asRecord = (u: unknown): Record<string, unknown> | undefined =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : undefined

/** The card URL of a domain or origin. */
export const cardUrl = (domain: string) =>
  `${domain.includes("://") ? domain.replace(/\/+$/, "") : `https://${domain}`}/.well-known/agent-card.json`

/** Syncs a WELL_KNOWN source; its counts. */
export const syncWellKnown = (options: {
  readonly sourceId: string
  readonly domains: ReadonlyArray<string>
  readonly at: Date
  readonly fetcher: PoliteFetch
  readonly ingest: Ingest
  readonly known: ReadonlyMap<string, KnownEntry>
}) =>
  Effect.gen(function*() {
    const { at, fetcher, ingest, sourceId } = options
    const present: Array<IngestItem> = []
    const notModified: Array<string> = []
    const vanished: Array<string> = []
    const totals = { created: 0, updated: 0, unchanged: 0, vanished: 0, invalid: 0, skipped: 0 }
    yield* Effect.forEach(options.domains, (domain) =>
      Effect.gen(function*() {
        const known = options.known.get(domain)
        const got = yield* Effect.either(fetcher.getJson(cardUrl(domain), known?.state === "PRESENT" ? known : {}))
        if (got._tag === "Left") {
          if (got.left.status === 404 || got.left.status === 410) vanished.push(domain)
          else totals.skipped++
          return
        }
        if (got.right._tag === "NotModified") return void notModified.push(domain)
        const card = asRecord(got.right.body)
        const name = typeof card?.["name"] === "string" ? card["name"].trim() : ""
        if (name.length === 0) return void totals.invalid++
        present.push({
          key: domain,
          name: name.slice(0, 200),
          description: typeof card?.["description"] === "string" ? card["description"].slice(0, 10_000) : "",
          servers: [],
          etag: got.right.etag,
          lastModified: got.right.lastModified
        })
      }), { concurrency: CardConcurrency, discard: true })
    const counts = yield* ingest.write({ sourceId, at, present, notModified, vanished })
    const missing = yield* ingest.vanishMissing(sourceId, new Set(options.domains), at)
    return {
      watermark: null,
      totals: { ...totals, created: counts.created, updated: counts.updated, unchanged: counts.unchanged, vanished: counts.vanished + missing }
    }
  })
