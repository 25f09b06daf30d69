/**
 * The identity resolver (spec §9), used by the legacy-ID batch and the resolve endpoint:
 * each locator → UNIQUE | AMBIGUOUS | CONFLICTED | NOT_FOUND | INVALID with reasons.
 *
 * Rules: only REGISTRY_BOUND identities identify an agent. An address merely observed
 * (FUNDED, TRANSFERRED) never maps: it yields NOT_FOUND with `OBSERVED_ONLY_<RELATION>`.
 * A full locator bound to several agents is CONFLICTED (its evidence disagrees); an EVM
 * token without its registry that matches several agents is AMBIGUOUS (underspecified).
 * Lookups are batched: one query per call (two when registry-less tokens are present),
 * whatever the number of locators. Infrastructure failures are defects.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import type { LocatorInput, Resolution, ResolutionCandidate, ResolutionReason } from "../../schema/identity.js"
import { type Locator, type Normalised, networkLookup, normaliseLocator } from "./Locator.js"
import { canonicalAgentUrl } from "./CanonicalUrl.js"

/** An identity row as `decide` reads it (uuids as text). */
interface IdentityRow {
  readonly id: string
  readonly agent_id: string
  readonly binding: string
}
/** A row of the exact lookup: `slot` is the 1-based position of its locator in the looked-up array. */
interface ExactRow extends IdentityRow {
  readonly slot: number
}
/** A row of the partial lookup (registry-less EVM tokens: by network and token id). */
interface PartialRow extends IdentityRow {
  readonly network: string | null
  readonly native_id: string
}

const reason = (code: string): ResolutionReason => ({ code, field: null })
const byId = (a: ResolutionCandidate, b: ResolutionCandidate) =>
  a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : a.publicId < b.publicId ? -1 : a.publicId > b.publicId ? 1 : 0

const partialKey = (network: string | null, nativeId: string) => `${network}\u0000${nativeId}`

// reason lists are shared, never mutated (the batch resolves millions of locators)
const uniqueReasons = [reason("REGISTRY_BOUND")]
const inferredReasons = [reason("REGISTRY_BOUND"), reason("REGISTRY_INFERRED")]
const ambiguousReasons = [reason("REGISTRY_MISSING"), reason("SEVERAL_REGISTRIES_MATCH")]
const conflictedReasons = [reason("BOUND_TO_SEVERAL_AGENTS")]
const unboundReasons = [reason("NO_REGISTRY_BINDING")]

/** The UNIQUE resolution naming `candidate`. */
const unique = (locator: Locator, candidate: ResolutionCandidate, agentUrl: (id: string) => string): Resolution => ({
  status: "UNIQUE",
  locator: locator.locator,
  candidates: [candidate],
  reasons: locator.partial ? inferredReasons : uniqueReasons,
  canonicalUrl: agentUrl(candidate.entityId)
})

/** The resolution of one normalised locator against the identity rows it matched. */
const decide = (locator: Locator, rows: ReadonlyArray<IdentityRow>, agentUrl: (id: string) => string): Resolution => {
  // the common case, one bound row, without the per-agent map below
  if (rows.length === 1 && rows[0]!.binding === "REGISTRY_BOUND") {
    return unique(locator, { entityId: rows[0]!.agent_id, publicId: rows[0]!.id }, agentUrl)
  }
  // one candidate per agent: its smallest identity id
  const perAgent = new Map<string, string>()
  for (const r of rows) {
    if (r.binding !== "REGISTRY_BOUND") continue
    const seen = perAgent.get(r.agent_id)
    if (seen === undefined || r.id < seen) perAgent.set(r.agent_id, r.id)
  }
  const candidates: Array<ResolutionCandidate> = []
  for (const [entityId, publicId] of perAgent) candidates.push({ entityId, publicId })
  if (candidates.length === 1) return unique(locator, candidates[0]!, agentUrl)
  if (candidates.length > 1) {
    candidates.sort(byId)
    return locator.partial
      ? { status: "AMBIGUOUS", locator: locator.locator, candidates, reasons: ambiguousReasons, canonicalUrl: null }
      : { status: "CONFLICTED", locator: locator.locator, candidates, reasons: conflictedReasons, canonicalUrl: null }
  }
  const observed = [...new Set(rows.map((r) => r.binding))].sort()
  return {
    status: "NOT_FOUND",
    locator: locator.locator,
    candidates,
    reasons: observed.length === 0 ? unboundReasons : observed.map((b) => reason(`OBSERVED_ONLY_${b}`)),
    canonicalUrl: null
  }
}

const groupBy = <A, K>(rows: ReadonlyArray<A>, key: (a: A) => K): Map<K, Array<A>> => {
  const groups = new Map<K, Array<A>>()
  for (const r of rows) {
    const k = key(r)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [r])
    else group.push(r)
  }
  return groups
}
const none: ReadonlyArray<IdentityRow> = []

export class Resolver extends Effect.Service<Resolver>()("agent-directory/Resolver", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const agentUrl = (entityId: string) => canonicalAgentUrl(config.publicBaseUrl, entityId)

    /** Network keys and UUIDs (lower case) and CAIP-2 ids → key and family. */
    const networks = Effect.map(
      sql<{ id: string; key: string; family: string; caip2: string | null }>`
        SELECT id::text AS id, key, family, caip2 FROM networks`,
      networkLookup
    )

    // Unnamed statements (public @effect/sql API: a pg named statement needs a driver query config;
    // bench:migrate measured what planning each batch's lookup costs). Only the columns `decide` and the
    // grouping read; uuids arrive as text. The exact lookup is one index probe per locator
    // (LATERAL … OFFSET 0 keeps the planner from turning it into a join): for a batch's 2,048
    // locators the planner's own choice, until PostgreSQL switches to its generic plan after 5
    // runs per connection, is a hashed scan of the whole table, 3x slower (24 vs 8 ms per batch
    // on 100,000 identities).
    const lookup = (exact: ReadonlyArray<string>, partial: ReadonlyArray<Locator>) =>
      Effect.gen(function*() {
        const exactRows = exact.length === 0 ? [] : yield* sql<ExactRow>`SELECT l.slot::int4 AS slot, i.id, i.agent_id, i.binding
            FROM unnest(${exact}::text[]) WITH ORDINALITY AS l(locator, slot),
            LATERAL (SELECT id, agent_id, binding FROM agent_identities WHERE locator = l.locator OFFSET 0) i`
        const partialRows = partial.length === 0 ? [] : yield* sql<PartialRow>`
          SELECT id, agent_id, network, native_id, binding FROM agent_identities
          WHERE family = 'EVM' AND kind = 'REGISTRY_TOKEN'
            AND (network, native_id) IN (
              SELECT * FROM unnest(${partial.map((l) => l.network ?? "")}::text[], ${partial.map((l) => l.nativeId)}::text[]))`
        return { exactRows, partialRows }
      })

    /**
     * A resolver with the network table loaded once (for a whole batch). `resolve` takes
     * already-normalised locators (see `normalise`) and returns one result per input, in order.
     */
    const session = Effect.gen(function*() {
      const nets = yield* Effect.orDie(networks)
      const normalise = (input: LocatorInput): Normalised => normaliseLocator(input, nets)
      const resolve = (items: ReadonlyArray<Normalised>): Effect.Effect<ReadonlyArray<Resolution>> =>
        Effect.gen(function*() {
          // distinct full locators, each item's position among them; rows come back by position
          // (no locator text to send back, decode and hash again)
          const exact: Array<string> = []
          const slotOf = new Map<string, number>()
          const slots = new Int32Array(items.length)
          const partial = new Map<string, Locator>()
          for (let i = 0; i < items.length; i++) {
            const n = items[i]!
            if (n._tag !== "Locator") continue
            if (n.value.partial) {
              partial.set(partialKey(n.value.network, n.value.nativeId), n.value)
              continue
            }
            let slot = slotOf.get(n.value.locator)
            if (slot === undefined) {
              slot = exact.push(n.value.locator)
              slotOf.set(n.value.locator, slot)
            }
            slots[i] = slot
          }
          const { exactRows, partialRows } = yield* Effect.orDie(lookup(exact, [...partial.values()]))
          const bySlot = groupBy(exactRows, (r) => r.slot)
          const byNative = groupBy(partialRows, (r) => partialKey(r.network, r.native_id))
          return items.map((n, i): Resolution =>
            n._tag === "Invalid"
              ? { status: "INVALID", locator: null, candidates: [], reasons: n.reasons, canonicalUrl: null }
              : decide(
                n.value,
                (n.value.partial
                  ? byNative.get(partialKey(n.value.network, n.value.nativeId))
                  : bySlot.get(slots[i]!)) ?? none,
                agentUrl
              )
          )
        })
      return { normalise, resolve }
    })

    return {
      session,
      /** Resolves a small batch of locators (the API: up to 100), one result per input, in order. */
      resolveAll: (inputs: ReadonlyArray<LocatorInput>) =>
        Effect.flatMap(session, (s) => s.resolve(inputs.map(s.normalise)))
    }
  })
}) {}
