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
 * Lookups are batched: about `chunkSize` lines (default 2048; the first batches 256, 512, …;
 * a batch ends at the end of a 64 KiB read) per resolver call, one or two (prepared) queries
 * each, at most 2 in flight while the next batch is read and parsed. The input is read
 * through one reused 64 KiB buffer, its lines parsed as each chunk arrives; a batch's records
 * are appended as UTF-8 as soon as its lookup returns, to one of a few reused buffers
 * (`JsonBytes`, about 0.4 KB a line, grown to the largest batch; one per batch between its
 * lookup and its write) and written with one write. Each distinct locator's outcome is
 * remembered (`memoSize` locators, least recently used out), so a repeated locator costs
 * neither a lookup nor an encoding, and keeps its answer while remembered even if the
 * directory changes during the run. The working set is a few batches and the bounded memo,
 * whatever the input's size. `apply` upserts the UUID mappings of UNIQUE rows into
 * `legacy_agent_mappings` inside one transaction around the whole run; re-running it
 * changes nothing (rows already equal are not rewritten).
 */
// by subpath: the package index loads every platform module (see src/cli/migrate-legacy.ts)
import * as FileSystem from "@effect/platform/FileSystem"
import type { PlatformError } from "@effect/platform/Error"
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option, ParseResult, Schema, Stream } from "effect"
import { LRUCache } from "lru-cache"
import {
  LegacyLine,
  LocatorKind,
  LocatorTextLimits as Limits,
  NetworkFamily,
  type Resolution,
  type ResolutionCandidate,
  type ResolutionReason,
  type ResolutionStatus
} from "../../schema/identity.js"
import { JsonBytes } from "./JsonBytes.js"
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
  /** Lines per resolver lookup, about (default 2048; a batch takes the whole of its last 64 KiB read). */
  readonly chunkSize?: number
  /**
   * Locators whose outcome is remembered for the rest of the run (default 131,072, ~0.45 KB
   * each: ~60 MB once full; 0 turns the memo off). Repeated locators then cost no lookup.
   */
  readonly memoSize?: number
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
 * A line's resolution as its report record and `--apply` need it: the status (for the counts),
 * the record's JSON from `,"status"` to its closing "}\n" (fixed key order `status, locator,
 * candidates, reasons, canonicalUrl`; candidates are `{entityId, publicId}`), and for UNIQUE the
 * locator and candidate that `--apply` maps (kept only when applying, to keep the memo small).
 */
interface Outcome {
  readonly status: ResolutionStatus
  readonly json: string
  readonly mapping: { readonly locator: string; readonly candidate: ResolutionCandidate } | undefined
}

const outcomeOf = (r: Resolution, keepMapping: boolean): Outcome => ({
  status: r.status,
  json: `,"status":"${r.status}","locator":${JSON.stringify(r.locator)},"candidates":${
    JSON.stringify(r.candidates.map(({ entityId, publicId }) => ({ entityId, publicId })))
  }` +
    `,"reasons":${jsonOfReasons(r.reasons)},"canonicalUrl":${JSON.stringify(r.canonicalUrl)}}\n`,
  mapping: keepMapping && r.status === "UNIQUE" && r.locator !== null
    ? { locator: r.locator, candidate: r.candidates[0]! }
    : undefined
})

/** The outcome of a line that is not a locator (not remembered: its reasons are its own). */
const invalidOutcome = (reasons: ReadonlyArray<ResolutionReason>): Outcome => ({
  status: "INVALID",
  json: `,"status":"INVALID","locator":null,"candidates":[],"reasons":${jsonOfReasons(reasons)},"canonicalUrl":null}\n`,
  mapping: undefined
})

/**
 * Appends the report record of one line: the bytes of `JSON.stringify({line, source,
 * legacyAgentId, status, locator, candidates, reasons, canonicalUrl})` and "\n" (fixed key
 * order: byte-identical re-runs).
 */
const record = (out: JsonBytes, p: ParsedLine, o: Outcome): void => {
  out.text(`{"line":`)
  out.integer(p.line)
  out.text(`,"source":`)
  out.string(p.source)
  out.text(`,"legacyAgentId":`)
  out.string(p.legacyAgentId)
  out.long(o.json)
}

const readBufferBytes = 64 * 1024

/**
 * Reads at least the next `size` lines (all those of the reads it takes) through one reused
 * buffer (no allocation per read), each mapped
 * with `f` as soon as its chunk is read (the chunk's text then dies young instead of living
 * until the whole batch is read), or fails with None at the end. Lines end at "\n" or "\r\n";
 * a last line without one counts; a trailing "\r" at the end of the input is dropped (the
 * rules of `Stream.splitLines`).
 */
const lineReader = (file: FileSystem.File) => {
  const buffer = new Uint8Array(readBufferBytes)
  const decoder = new TextDecoder()
  let carry = ""
  let done = false
  return <A>(size: number, f: (line: string) => A): Effect.Effect<Array<A>, Option.Option<PlatformError>> =>
    Effect.gen(function*() {
      const lines: Array<A> = []
      while (lines.length < size && !done) {
        const read = Number(yield* Effect.mapError(file.read(buffer), Option.some))
        if (read === 0) {
          done = true
          if (carry.endsWith("\r")) carry = carry.slice(0, -1)
          if (carry !== "") lines.push(f(carry))
          carry = ""
          break
        }
        const text = carry + decoder.decode(buffer.subarray(0, read), { stream: true })
        let from = 0
        for (let lf = text.indexOf("\n"); lf !== -1; lf = text.indexOf("\n", from)) {
          lines.push(f(text.slice(from, lf > from && text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf)))
          from = lf + 1
        }
        carry = text.slice(from)
      }
      if (lines.length === 0) return yield* Effect.fail(Option.none())
      return lines
    })
}

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

    const applyMappings = (parsed: ReadonlyArray<ParsedLine>, outcomes: ReadonlyArray<Outcome>) => {
      // last line wins within a chunk, as it does across chunks
      const latest = new Map<string, { source: string; legacy_agent_id: string; agent_id: string; identity_id: string; locator: string }>()
      for (let i = 0; i < parsed.length; i++) {
        const p = parsed[i]!
        const m = outcomes[i]!.mapping
        if (m === undefined || p.source === null || p.legacyAgentId === null) continue
        latest.set(JSON.stringify([p.source, p.legacyAgentId]), {
          source: p.source,
          legacy_agent_id: p.legacyAgentId,
          agent_id: m.candidate.entityId,
          identity_id: m.candidate.publicId,
          locator: m.locator
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

    // Each stream element is a batch of about `chunkSize` lines, handled with plain loops: per-line
    // stream elements, effects, queries or buffers cost more than the work itself and fill
    // the heap with short-lived garbage that V8 promotes (peak RSS grows with the input).
    const chunkSize = options.chunkSize ?? 2048
    const memoSize = options.memoSize ?? 131_072
    const apply = options.apply === true
    const batches = Stream.unwrapScoped(Effect.map(fs.open(options.input, { flag: "r" }), (file) => {
      const next = lineReader(file)
      // Batches start at 256 lines and double up to chunkSize: the first lookup leaves while the
      // code is still cold (its first 2,048 lines took ~150 ms to parse), so the database's cold
      // start overlaps Node's instead of following it.
      let size = Math.min(chunkSize, 256)
      return Stream.repeatEffectOption(Effect.suspend(() => {
        const batch = next(size, (text) => parse(text, ++lines))
        size = Math.min(chunkSize, size * 2)
        return batch
      }))
    }))
    // Report buffers: taken by a batch once its lookup is back, returned once written. A batch's
    // records are encoded as soon as its lookup returns, so only its bytes wait in mapEffect's
    // queue for the writer, not its parsed lines, rows and resolutions (measured at 1M lines:
    // Node CPU 15.2 → 13.3 s).
    const free: Array<JsonBytes> = []
    // numbering is sequential; lookups of up to 2 batches overlap (mapEffect keeps the order). A
    // lookup's permit is returned before its batch is encoded, so the next lookup goes out first.
    const lookups = yield* Effect.makeSemaphore(apply ? 1 : 2)
    // Outcomes already looked up in this run, by normalised locator. A legacy export names the
    // same agents many times (1M lines against a 100,000-agent directory repeat each locator
    // ~8 times), and a remembered outcome skips the lookup, the decision and the encoding.
    // Bounded (least recently used out): ~0.45 KB an entry, ~60 MB at the default 131,072.
    const memo = memoSize > 0 ? new LRUCache<string, Outcome>({ max: memoSize }) : undefined
    const report = batches.pipe(
      Stream.mapEffect((parsed) =>
        Effect.gen(function*() {
          const outcomes: Array<Outcome> = new Array(parsed.length)
          const missed: Array<Normalised> = []
          const missedAt: Array<number> = []
          const missedKeys: Array<string> = []
          for (let i = 0; i < parsed.length; i++) {
            const n = parsed[i]!.normalised
            if (n._tag === "Invalid") {
              outcomes[i] = invalidOutcome(n.reasons)
              continue
            }
            const known = memo?.get(n.value.locator)
            if (known !== undefined) {
              outcomes[i] = known
            } else {
              missed.push(n)
              missedAt.push(i)
              missedKeys.push(n.value.locator)
            }
          }
          if (missed.length > 0) {
            const resolved = yield* lookups.withPermits(1)(session.resolve(missed))
            for (let j = 0; j < resolved.length; j++) {
              const o = outcomeOf(resolved[j]!, apply)
              outcomes[missedAt[j]!] = o
              memo?.set(missedKeys[j]!, o)
            }
          }
          if (apply) yield* applyMappings(parsed, outcomes)
          const bytes = free.pop() ?? new JsonBytes()
          bytes.reset()
          for (let i = 0; i < parsed.length; i++) {
            const o = outcomes[i]!
            counts[o.status]++
            record(bytes, parsed[i]!, o)
          }
          return { bytes, lastLine: parsed[parsed.length - 1]!.line }
        }), { concurrency: apply ? 1 : 3 })
    )
    const run = Effect.gen(function*() {
      const out = yield* fs.open(options.output, { flag: "w" })
      // one write per batch (a failed run leaves the report of the batches before)
      yield* Stream.runForEach(report, ({ bytes, lastLine }) => {
        options.onProgress?.(lastLine)
        return Effect.map(out.writeAll(bytes.view()), () => {
          free.push(bytes)
        })
      })
      if (options.summaryLine === true) {
        yield* out.writeAll(new TextEncoder().encode(JSON.stringify({ summary: { lines, counts } }) + "\n"))
      }
    }).pipe(Effect.scoped)
    yield* apply ? sql.withTransaction(run).pipe(Effect.catchTag("SqlError", Effect.die)) : run
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
