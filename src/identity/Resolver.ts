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
import { Array as Arr, Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import type { LocatorInput, Resolution, ResolutionCandidate, ResolutionReason } from "../../schema/identity.js"
import { type Locator, type Normalised, normaliseLocator } from "./Locator.js"

interface IdentityRow {
  readonly id: string
  readonly agent_id: string
  readonly locator: string
  readonly network: string | null
  readonly native_id: string
  readonly kind: string
  readonly binding: string
}

const reason = (code: string): ResolutionReason => ({ code, field: null })
const byId = (a: ResolutionCandidate, b: ResolutionCandidate) =>
  a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : a.publicId < b.publicId ? -1 : a.publicId > b.publicId ? 1 : 0

const partialKey = (network: string | null, nativeId: string) => `${network}\u0000${nativeId}`

/** The resolution of one normalised locator against the identity rows it matched. */
const decide = (locator: Locator, rows: ReadonlyArray<IdentityRow>, agentUrl: (id: string) => string): Resolution => {
  const bound = rows.filter((r) => r.binding === "REGISTRY_BOUND")
  // one candidate per agent: its smallest identity id
  const perAgent = new Map<string, string>()
  for (const r of bound) {
    const seen = perAgent.get(r.agent_id)
    if (seen === undefined || r.id < seen) perAgent.set(r.agent_id, r.id)
  }
  const candidates = [...perAgent].map(([entityId, publicId]) => ({ entityId, publicId })).sort(byId)
  const base = { locator: locator.locator, candidates, canonicalUrl: null }
  if (candidates.length === 1) {
    return {
      ...base,
      status: "UNIQUE",
      reasons: [reason("REGISTRY_BOUND"), ...(locator.partial ? [reason("REGISTRY_INFERRED")] : [])],
      canonicalUrl: agentUrl(candidates[0]!.entityId)
    }
  }
  if (candidates.length > 1) {
    return locator.partial
      ? { ...base, status: "AMBIGUOUS", reasons: [reason("REGISTRY_MISSING"), reason("SEVERAL_REGISTRIES_MATCH")] }
      : { ...base, status: "CONFLICTED", reasons: [reason("BOUND_TO_SEVERAL_AGENTS")] }
  }
  const observed = [...new Set(rows.map((r) => r.binding))].sort()
  return {
    ...base,
    status: "NOT_FOUND",
    reasons: observed.length === 0 ? [reason("NO_REGISTRY_BINDING")] : observed.map((b) => reason(`OBSERVED_ONLY_${b}`))
  }
}

export class Resolver extends Effect.Service<Resolver>()("agent-directory/Resolver", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const agentUrl = (entityId: string) => `${config.publicBaseUrl}/api/v1/agents/${entityId}`

    /** Network keys and UUIDs (lower case) → key and family. */
    const networks = Effect.map(
      sql<{ id: string; key: string; family: string }>`SELECT id::text AS id, key, family FROM networks`,
      (rows) => {
        const map = new Map<string, { key: string; family: string }>()
        for (const r of rows) {
          map.set(r.key.toLowerCase(), r)
          map.set(r.id.toLowerCase(), r)
        }
        return map as ReadonlyMap<string, { readonly key: string; readonly family: string }>
      }
    )

    const lookup = (exact: ReadonlyArray<string>, partial: ReadonlyArray<Locator>) =>
      Effect.gen(function*() {
        const columns = sql`id::text AS id, agent_id::text AS agent_id, locator, network, native_id, kind, binding`
        const exactRows = exact.length === 0 ? [] : yield* sql<IdentityRow>`
          SELECT ${columns} FROM agent_identities WHERE locator = ANY(${exact}::text[])`
        const partialRows = partial.length === 0 ? [] : yield* sql<IdentityRow>`
          SELECT ${columns} FROM agent_identities
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
          const exact = new Set<string>()
          const partial = new Map<string, Locator>()
          for (const n of items) {
            if (n._tag !== "Locator") continue
            if (n.value.partial) partial.set(partialKey(n.value.network, n.value.nativeId), n.value)
            else exact.add(n.value.locator)
          }
          const { exactRows, partialRows } = yield* Effect.orDie(lookup([...exact], [...partial.values()]))
          const byLocator = Arr.groupBy(exactRows, (r) => r.locator)
          const byNative = Arr.groupBy(partialRows, (r) => partialKey(r.network, r.native_id))
          return items.map((n): Resolution =>
            n._tag === "Invalid"
              ? { status: "INVALID", locator: null, candidates: [], reasons: n.reasons, canonicalUrl: null }
              : decide(
                n.value,
                (n.value.partial
                  ? byNative[partialKey(n.value.network, n.value.nativeId)]
                  : byLocator[n.value.locator]) ?? [],
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
