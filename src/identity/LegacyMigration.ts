/**
 * The legacy-ID migration batch (spec §9 "Migration of legacy identifiers"), as a library
 * function: JSON Lines in, one report record per input line out, both streamed.
 *
 * Order: records are written in input line order (ascending `line`). Line numbers are
 * unique, so this is a total, stable order that is reproducible from a frozen input and
 * needs no buffering (a sort by any other key would need an external sort and break the
 * flat-memory promise). Records are built with a fixed key order, so a re-run of the same
 * input on the same data is byte-identical.
 *
 * Lookups are batched: `chunkSize` lines (default 4096) per resolver call, one or two
 * queries each. `apply` upserts the UUID mappings of UNIQUE rows into
 * `legacy_agent_mappings` inside one transaction around the whole run; re-running it
 * changes nothing (rows already equal are not rewritten).
 */
import { FileSystem } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import { SqlClient } from "@effect/sql"
import { Chunk, Effect, Either, ParseResult, Schema, Stream } from "effect"
import {
  LegacyLine,
  LocatorKind,
  LocatorTextLimits as Limits,
  NetworkFamily,
  type Resolution,
  type ResolutionReason,
  type ResolutionStatus
} from "../../schema/identity.js"
import type { Normalised } from "./Locator.js"
import { Resolver } from "./Resolver.js"

/** Options of one batch run. */
export interface LegacyMigrationOptions {
  /** Path of the JSON Lines input. */
  readonly input: string
  /** Path of the JSON Lines report (overwritten). */
  readonly output: string
  /** Write UNIQUE mappings (one transaction). */
  readonly apply?: boolean
  /** Append the summary as the report's last line (`{"summary":{...}}`). */
  readonly summaryLine?: boolean
  /** Lines per resolver lookup (default 4096). */
  readonly chunkSize?: number
  /** Called after each chunk with the number of lines done so far. */
  readonly onProgress?: (linesDone: number) => void
}

/** Counts per status, lines read, and mappings written (`--apply`; 0 otherwise). */
export interface LegacyMigrationSummary {
  readonly lines: number
  readonly counts: Record<ResolutionStatus, number>
  readonly mappingsWritten: number
  /** AMBIGUOUS + CONFLICTED: rows that need review before cutover. */
  readonly reviewRows: number
}

/** One parsed line: its metadata and the normalised locator (or the reasons it is invalid). */
interface ParsedLine {
  readonly line: number
  readonly source: string | null
  readonly legacyAgentId: string | null
  readonly normalised: Normalised
}

const decodeLine = Schema.decodeUnknownEither(LegacyLine, { errors: "all" })

const families: ReadonlySet<unknown> = new Set(NetworkFamily.literals)
const kinds: ReadonlySet<unknown> = new Set(LocatorKind.literals)
const isText = (v: unknown, max: number): v is string => typeof v === "string" && v.length >= 1 && v.length <= max
const isOptionalText = (v: unknown, max: number): v is string | null | undefined =>
  v === undefined || v === null || isText(v, max)

/**
 * The common well-formed line without a Schema decode (which costs several µs a line, most of
 * the batch's CPU). It accepts a subset of what `LegacyLine` accepts and returns the value the
 * schema would decode to; anything else (undefined) goes through the schema, which names the reasons.
 */
const quickLine = (json: unknown): LegacyLine | undefined => {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined
  const { source, legacyAgentId, networkFamily, network, protocol, locatorKind, registry, nativeId } = json as Record<
    string,
    unknown
  >
  return isText(source, Limits.source) &&
      (isText(legacyAgentId, Limits.legacyAgentId) || Number.isSafeInteger(legacyAgentId)) &&
      families.has(networkFamily) && kinds.has(locatorKind) &&
      isOptionalText(network, Limits.network) && isOptionalText(protocol, Limits.protocol) &&
      isOptionalText(registry, Limits.registry) &&
      (isText(nativeId, Limits.nativeId) || (Number.isSafeInteger(nativeId) && (nativeId as number) >= 0))
    ? {
      source,
      legacyAgentId: legacyAgentId as string | number,
      networkFamily: networkFamily as NetworkFamily,
      network: network ?? null,
      protocol: protocol ?? null,
      locatorKind: locatorKind as LocatorKind,
      registry: registry ?? null,
      nativeId: nativeId as string | number
    }
    : undefined
}

const fieldReasons = (error: ParseResult.ParseError): ReadonlyArray<ResolutionReason> => {
  const seen = new Map<string, ResolutionReason>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const code = issue._tag === "Missing" ? "FIELD_MISSING" : issue._tag === "Unexpected" ? "FIELD_UNEXPECTED" : "FIELD_INVALID"
    const field = issue.path.length === 0 ? null : issue.path.map(String).join(".")
    seen.set(`${code}\u0000${field}`, { code, field })
  }
  return [...seen.values()]
}

const invalidLine = (line: number, ...reasons: ReadonlyArray<ResolutionReason>): ParsedLine => ({
  line,
  source: null,
  legacyAgentId: null,
  normalised: { _tag: "Invalid", reasons }
})

/** JSON of the shared reason lists (the resolver reuses one list per outcome). */
const reasonsJson = new WeakMap<ReadonlyArray<ResolutionReason>, string>()
const jsonOfReasons = (reasons: ReadonlyArray<ResolutionReason>): string => {
  let json = reasonsJson.get(reasons)
  if (json === undefined) {
    json = JSON.stringify(reasons)
    reasonsJson.set(reasons, json)
  }
  return json
}

/**
 * The report record of one line: the bytes of `JSON.stringify({line, source, legacyAgentId,
 * status, locator, candidates, reasons, canonicalUrl})` (fixed key order: byte-identical
 * re-runs), concatenated by hand because it runs for every line.
 */
const record = (p: ParsedLine, r: Resolution): string =>
  `{"line":${p.line},"source":${JSON.stringify(p.source)},"legacyAgentId":${JSON.stringify(p.legacyAgentId)},` +
  `"status":${JSON.stringify(r.status)},"locator":${JSON.stringify(r.locator)},` +
  `"candidates":${r.candidates.length === 0 ? "[]" : JSON.stringify(r.candidates)},` +
  `"reasons":${jsonOfReasons(r.reasons)},"canonicalUrl":${JSON.stringify(r.canonicalUrl)}}`

const emptyCounts = (): Record<ResolutionStatus, number> => ({
  UNIQUE: 0,
  AMBIGUOUS: 0,
  CONFLICTED: 0,
  NOT_FOUND: 0,
  INVALID: 0
})

/**
 * Runs the batch. Fails with `PlatformError` when the input cannot be read or the report
 * cannot be written; SQL failures are defects (and roll back `apply`).
 */
export const migrateLegacyIdentities = (
  options: LegacyMigrationOptions
): Effect.Effect<LegacyMigrationSummary, PlatformError, Resolver | SqlClient.SqlClient | FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const sql = yield* SqlClient.SqlClient
    const resolver = yield* Resolver
    const session = yield* resolver.session
    const counts = emptyCounts()
    let lines = 0
    let mappingsWritten = 0

    const parse = (text: string, line: number): ParsedLine => {
      if (text.trim() === "") return invalidLine(line, { code: "LINE_EMPTY", field: null })
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        return invalidLine(line, { code: "JSON_MALFORMED", field: null })
      }
      let value = quickLine(json)
      if (value === undefined) {
        const decoded = decodeLine(json)
        if (Either.isLeft(decoded)) return invalidLine(line, ...fieldReasons(decoded.left))
        value = decoded.right
      }
      return {
        line,
        source: value.source,
        legacyAgentId: String(value.legacyAgentId),
        normalised: session.normalise(value)
      }
    }

    const applyMappings = (parsed: ReadonlyArray<ParsedLine>, resolved: ReadonlyArray<Resolution>) => {
      // last line wins within a chunk, as it does across chunks
      const latest = new Map<string, { source: string; legacy_agent_id: string; agent_id: string; identity_id: string; locator: string }>()
      for (let i = 0; i < parsed.length; i++) {
        const p = parsed[i]!
        const r = resolved[i]!
        if (r.status !== "UNIQUE" || p.source === null || p.legacyAgentId === null || r.locator === null) continue
        const c = r.candidates[0]!
        latest.set(JSON.stringify([p.source, p.legacyAgentId]), {
          source: p.source,
          legacy_agent_id: p.legacyAgentId,
          agent_id: c.entityId,
          identity_id: c.publicId,
          locator: r.locator
        })
      }
      if (latest.size === 0) return Effect.void
      return sql`INSERT INTO legacy_agent_mappings ${sql.insert([...latest.values()])}
        ON CONFLICT (source, legacy_agent_id) DO UPDATE
          SET agent_id = excluded.agent_id, identity_id = excluded.identity_id, locator = excluded.locator
          WHERE (legacy_agent_mappings.agent_id, legacy_agent_mappings.identity_id, legacy_agent_mappings.locator)
            IS DISTINCT FROM (excluded.agent_id, excluded.identity_id, excluded.locator)
        RETURNING 1`.pipe(
        Effect.orDie,
        Effect.map((written) => {
          mappingsWritten += written.length
        })
      )
    }

    // Each stream element is a chunk of lines, handled with plain loops: per-line stream
    // elements, effects or queries would cost more than the work itself.
    // Input and output pieces stay under 64 KiB: a larger string lands in V8's large-object
    // space, which only a full GC frees, and the heap (peak RSS) then grows with the input.
    const report = fs.stream(options.input, { chunkSize: 64 * 1024 }).pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.grouped(options.chunkSize ?? 4096),
      // numbering is sequential; lookups of up to 2 chunks overlap (mapEffect keeps the order)
      Stream.map((chunk) => Chunk.toReadonlyArray(chunk).map((text) => parse(text, ++lines))),
      Stream.mapEffect((parsed) =>
        Effect.gen(function*() {
          const resolved = yield* session.resolve(parsed.map((p) => p.normalised))
          if (options.apply === true) yield* applyMappings(parsed, resolved)
          return { parsed, resolved }
        }), { concurrency: options.apply === true ? 1 : 2 }),
      Stream.mapConcat(({ parsed, resolved }) => {
        const pieces: Array<string> = []
        let out = ""
        for (let i = 0; i < parsed.length; i++) {
          const r = resolved[i]!
          counts[r.status]++
          out += record(parsed[i]!, r) + "\n"
          if (out.length >= 32 * 1024) {
            pieces.push(out)
            out = ""
          }
        }
        if (out !== "") pieces.push(out)
        options.onProgress?.(parsed[parsed.length - 1]!.line)
        return pieces
      }),
      Stream.concat(Stream.suspend(() =>
        options.summaryLine === true
          ? Stream.make(JSON.stringify({ summary: { lines, counts } }) + "\n")
          : Stream.empty
      )),
      Stream.encodeText
    )
    const run = Stream.run(report, fs.sink(options.output))
    yield* options.apply === true ? sql.withTransaction(run).pipe(Effect.catchTag("SqlError", Effect.die)) : run
    return { lines, counts: { ...counts }, mappingsWritten, reviewRows: counts.AMBIGUOUS + counts.CONFLICTED }
  })

/** Fixture counts and sample profiles for the cutover's verify step (spec §9). */
export const verifyCutover = (samples = 5) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [counts] = yield* sql<{ agents: string; identities: string; bound: string; observed: string; mappings: string }>`
      SELECT (SELECT count(*) FROM agents)::text AS agents,
             (SELECT count(*) FROM agent_identities)::text AS identities,
             (SELECT count(*) FROM agent_identities WHERE binding = 'REGISTRY_BOUND')::text AS bound,
             (SELECT count(*) FROM agent_identities WHERE binding <> 'REGISTRY_BOUND')::text AS observed,
             (SELECT count(*) FROM legacy_agent_mappings)::text AS mappings`
    const profiles = yield* sql<{
      source: string
      legacyAgentId: string
      entityId: string
      slug: string
      name: string
      locator: string
      verificationState: string
    }>`SELECT m.source, m.legacy_agent_id AS "legacyAgentId", a.id::text AS "entityId", a.canonical_slug AS slug,
              a.name, m.locator, a.verification_state AS "verificationState"
         FROM legacy_agent_mappings m JOIN agents a ON a.id = m.agent_id
        ORDER BY m.source, m.legacy_agent_id
        LIMIT ${samples}`
    return { counts: counts!, profiles }
  }).pipe(Effect.orDie)
