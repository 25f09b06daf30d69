/** The legacy-ID migration batch (spec §9) on the hand-made fixture: every status, re-runs, --apply. */
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { migrateLegacyIdentities, verifyCutover } from "../../src/identity/LegacyMigration.js"
import { Resolver } from "../../src/identity/Resolver.js"
import { TestConfigLayer } from "../support/config.js"
import { TestDb } from "../support/TestServer.js"
import { DemoAgents, DemoIdentities } from "../../demo/agents/seed.js"

const fixture = join(import.meta.dirname, "fixtures", "legacy.jsonl")
const dir = mkdtempSync(join(tmpdir(), "legacy-"))
const out = (name: string) => join(dir, name)
const readReport = (path: string) =>
  readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)

const Live = Resolver.Default.pipe(Layer.provideMerge(TestDb), Layer.provideMerge(TestConfigLayer), Layer.merge(NodeContext.layer))
const agent = (i: number) => DemoAgents[i]!.id
const identity = (n: number) => DemoIdentities[n - 1]!.id
const url = (i: number) => `https://directory.test/api/v1/agents/${agent(i)}`

layer(Live)("migrate:legacy", (it) => {
  it.effect("gives every status, one record per line in input order, with candidates, locator, reasons and URL", () =>
    Effect.gen(function*() {
      const summary = yield* migrateLegacyIdentities({ input: fixture, output: out("a.jsonl"), chunkSize: 4 })
      const report = readReport(out("a.jsonl"))
      expect(report.map((r) => r["line"])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
      expect(report.map((r) => r["status"])).toEqual([
        "UNIQUE", "UNIQUE", "UNIQUE", "UNIQUE", "UNIQUE", "UNIQUE",
        "AMBIGUOUS", "CONFLICTED", "NOT_FOUND", "NOT_FOUND",
        "INVALID", "INVALID", "INVALID", "INVALID", "INVALID"
      ])
      expect(summary).toEqual({
        lines: 15,
        counts: { UNIQUE: 6, AMBIGUOUS: 1, CONFLICTED: 1, NOT_FOUND: 2, INVALID: 5 },
        mappingsWritten: 0,
        reviewRows: 2
      })
      // lower-case registry normalised to EIP-55, token id kept decimal
      expect(report[0]).toEqual({
        line: 1, source: "v0", legacyAgentId: "101", status: "UNIQUE",
        locator: "evm:base:0x8004a6090Cd10A7288092483047B097295Fb8847:1",
        candidates: [{ entityId: agent(0), publicId: identity(1) }],
        reasons: [{ code: "REGISTRY_BOUND", field: null }],
        canonicalUrl: url(0)
      })
      // network by UUID, all-caps registry, hex token id
      expect(report[1]!["locator"]).toBe("evm:base:0x8004a6090Cd10A7288092483047B097295Fb8847:2")
      expect(report[2]!["locator"]).toBe("svm:solana:metaplex-core:Cs8KY3PiWrCMAytMsBRQo8EdGbticVtdvufLnb2UhXh")
      expect(report[4]!["locator"]).toBe("offchain:agentverse:agent1qecho0support")
      expect(report[5]!["candidates"]).toEqual([{ entityId: agent(0), publicId: identity(3) }])
      // token 7 without a registry: two agents in two registries
      expect(report[6]).toMatchObject({
        locator: "evm:base:*:7",
        candidates: [{ entityId: agent(5), publicId: identity(7) }, { entityId: agent(6), publicId: identity(8) }],
        reasons: [{ code: "REGISTRY_MISSING", field: null }, { code: "SEVERAL_REGISTRIES_MATCH", field: null }],
        canonicalUrl: null
      })
      expect(report[7]).toMatchObject({
        candidates: [{ entityId: agent(6), publicId: identity(9) }, { entityId: agent(7), publicId: identity(10) }],
        reasons: [{ code: "BOUND_TO_SEVERAL_AGENTS", field: null }]
      })
      // the funded address maps to nobody, though Atlas and Beacon were funded/transferred by it
      expect(report[8]).toEqual({
        line: 9, source: "v0", legacyAgentId: "109", status: "NOT_FOUND",
        locator: "evm:base:0xF00D000000000000000000000000000000fCeD11",
        candidates: [],
        reasons: [{ code: "OBSERVED_ONLY_FUNDED", field: null }, { code: "OBSERVED_ONLY_TRANSFERRED", field: null }],
        canonicalUrl: null
      })
      expect(report[9]!["reasons"]).toEqual([{ code: "NO_REGISTRY_BINDING", field: null }])
      expect(report[10]!["reasons"]).toEqual([{ code: "ADDRESS_CHECKSUM_MISMATCH", field: "registry" }])
      expect(report[11]).toEqual({
        line: 12, source: null, legacyAgentId: null, status: "INVALID", locator: null, candidates: [],
        reasons: [{ code: "JSON_MALFORMED", field: null }], canonicalUrl: null
      })
      expect(report[12]!["reasons"]).toEqual([{ code: "BASE58_NOT_32_BYTES", field: "nativeId" }])
      expect(report[13]!["reasons"]).toEqual([{ code: "FIELD_MISSING", field: "legacyAgentId" }])
      expect(report[14]!["reasons"]).toEqual([{ code: "DID_MALFORMED", field: "nativeId" }])
    }))

  it.effect("re-runs byte-identically, whatever the chunk size; --summary-line appends the counts", () =>
    Effect.gen(function*() {
      yield* migrateLegacyIdentities({ input: fixture, output: out("b1.jsonl") })
      yield* migrateLegacyIdentities({ input: fixture, output: out("b2.jsonl"), chunkSize: 3 })
      expect(readFileSync(out("b1.jsonl"))).toEqual(readFileSync(out("b2.jsonl")))
      yield* migrateLegacyIdentities({ input: fixture, output: out("b3.jsonl"), summaryLine: true })
      const report = readReport(out("b3.jsonl"))
      expect(report).toHaveLength(16)
      expect(report[15]).toEqual({
        summary: { lines: 15, counts: { UNIQUE: 6, AMBIGUOUS: 1, CONFLICTED: 1, NOT_FOUND: 2, INVALID: 5 } }
      })
    }))

  it.effect("a long input (growing batches, overlapping lookups, reused buffers) gives each line its record, in order", () =>
    Effect.gen(function*() {
      // 3,000 lines (~630 KB): growing batches, up to 3 in flight, their buffers reused. Without the
      // memo every batch has its lookup, and they overlap; with it only the first batches look up,
      // and the later ones, all remembered, finish first unless the order is kept. The order can
      // only go wrong on PostgreSQL, where lookups overlap on two connections (an unordered
      // mapEffect failed here 2 runs of 3); the embedded database answers them in turn.
      const fixtureLines = readFileSync(fixture, "utf8").trimEnd().split("\n")
      writeFileSync(out("long.jsonl"), Array.from({ length: 200 }, () => fixtureLines.join("\n")).join("\n") + "\n")
      yield* migrateLegacyIdentities({ input: fixture, output: out("short-report.jsonl") })
      const short = readFileSync(out("short-report.jsonl"), "utf8").trimEnd().split("\n")
      for (const memoSize of [0, 1000]) {
        yield* migrateLegacyIdentities({ input: out("long.jsonl"), output: out("long-report.jsonl"), memoSize })
        const long = readFileSync(out("long-report.jsonl"), "utf8").trimEnd().split("\n")
        expect(long).toHaveLength(3000)
        const expected = long.map((_, i) => short[i % short.length]!.replace(/^\{"line":\d+,/, `{"line":${i + 1},`))
        expect(long).toEqual(expected)
      }
    }))

  it.effect("reads CRLF line ends and a last line without one as LF input; an empty line is INVALID", () =>
    Effect.gen(function*() {
      const lf = readFileSync(fixture, "utf8")
      writeFileSync(out("crlf.jsonl"), lf.trimEnd().replaceAll("\n", "\r\n"))
      yield* migrateLegacyIdentities({ input: fixture, output: out("d1.jsonl"), chunkSize: 2 })
      yield* migrateLegacyIdentities({ input: out("crlf.jsonl"), output: out("d2.jsonl"), chunkSize: 5 })
      expect(readFileSync(out("d2.jsonl"), "utf8")).toBe(readFileSync(out("d1.jsonl"), "utf8"))
      const odd = [lf.split("\n")[0], "", "[1]", `{"source":"v0","legacyAgentId":1.5,"networkFamily":"EVM","locatorKind":"ADDRESS","nativeId":"0x00","extra":true}`]
      writeFileSync(out("odd.jsonl"), odd.join("\n") + "\n")
      const summary = yield* migrateLegacyIdentities({ input: out("odd.jsonl"), output: out("d3.jsonl") })
      expect(summary.lines).toBe(4)
      const report = readReport(out("d3.jsonl"))
      expect(report.map((r) => r["status"])).toEqual(["UNIQUE", "INVALID", "INVALID", "INVALID"])
      expect(report[1]!["reasons"]).toEqual([{ code: "LINE_EMPTY", field: null }])
      expect(report[3]!["reasons"]).toEqual([{ code: "FIELD_INVALID", field: "legacyAgentId" }])
    }))

  it.effect("--apply writes the UNIQUE mappings once; a re-run writes nothing and verify counts them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const first = yield* migrateLegacyIdentities({ input: fixture, output: out("c1.jsonl"), apply: true })
      expect(first.mappingsWritten).toBe(6)
      const second = yield* migrateLegacyIdentities({ input: fixture, output: out("c2.jsonl"), apply: true })
      expect(second.mappingsWritten).toBe(0)
      expect(readFileSync(out("c1.jsonl"))).toEqual(readFileSync(out("c2.jsonl")))
      const rows = yield* sql<{ legacy: string; agent: string }>`
        SELECT legacy_agent_id AS legacy, agent_id::text AS agent FROM legacy_agent_mappings ORDER BY source, legacy_agent_id`
      expect(rows).toEqual([
        { legacy: "echo", agent: agent(4) },
        { legacy: "101", agent: agent(0) },
        { legacy: "102", agent: agent(1) },
        { legacy: "103", agent: agent(2) },
        { legacy: "104", agent: agent(3) },
        { legacy: "106", agent: agent(0) }
      ])
      const verified = yield* verifyCutover(2)
      // (13 identities: the demo includes Beacon's proven PAYOUT address)
      expect(verified.counts).toEqual({ agents: "8", identities: "13", bound: "11", observed: "2", mappings: "6" })
      // sample profiles in (source, legacyAgentId) order
      expect(verified.profiles.map((p) => [p.legacyAgentId, p.slug])).toEqual([["echo", "echo-support"], ["101", "atlas-research"]])
    }))

  it.effect("remembers outcomes: a locator seen earlier in the run is not looked up again, and the report and --apply are unchanged", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // counts the locators each run sends to the resolver
      let lookedUp = 0
      const Counted = Layer.effect(
        Resolver,
        Effect.map(Resolver, (real) =>
          Resolver.make({
            ...real,
            session: Effect.map(real.session, (s) => ({
              ...s,
              resolve: (items: Parameters<typeof s.resolve>[0]) => {
                lookedUp += items.length
                return s.resolve(items)
              }
            }))
          }))
      ).pipe(Layer.provide(Resolver.Default))
      // the fixture, a line longer than the reader's 64 KiB buffer (so that the first batch ends
      // with the first copy; it is INVALID), then the fixture under other sources (new mappings)
      const lines = readFileSync(fixture, "utf8").trimEnd()
      const again = lines.replaceAll('"source":"v0"', '"source":"v1"').replaceAll('"source":"partner"', '"source":"partner1"')
      writeFileSync(out("twice.jsonl"), `${lines}\n{"pad":"${"x".repeat(70_000)}"}\n${again}\n`)
      // --apply runs batches one at a time, so the counts are exact
      const run = (output: string, memoSize: number) =>
        Effect.gen(function*() {
          lookedUp = 0
          const summary = yield* migrateLegacyIdentities({ input: out("twice.jsonl"), output: out(output), apply: true, chunkSize: 15, memoSize })
          return { summary, lookedUp }
        }).pipe(Effect.provide(Counted))
      const remembered = yield* run("m1.jsonl", 1000)
      const forgotten = yield* run("m2.jsonl", 0)
      // 10 of the fixture's 15 lines are locators (5 are INVALID and never looked up)
      expect(remembered.lookedUp).toBe(10)
      expect(forgotten.lookedUp).toBe(20)
      expect(readFileSync(out("m1.jsonl"))).toEqual(readFileSync(out("m2.jsonl")))
      // the second copy's UNIQUE rows came from the memo and were still mapped (the first copy's were, by the test above)
      expect(remembered.summary.mappingsWritten).toBe(6)
      expect(forgotten.summary.mappingsWritten).toBe(0)
      const pairs = yield* sql<{ legacy: string; v0: string; v1: string }>`
        SELECT a.legacy_agent_id AS legacy, a.agent_id::text AS v0, b.agent_id::text AS v1
          FROM legacy_agent_mappings a JOIN legacy_agent_mappings b USING (legacy_agent_id)
         WHERE (a.source, b.source) IN (('v0', 'v1'), ('partner', 'partner1')) ORDER BY a.legacy_agent_id`
      expect(pairs).toHaveLength(6)
      for (const p of pairs) expect(p.v1).toBe(p.v0)
    }))
})
