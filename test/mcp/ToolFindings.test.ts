/**
 * The tool-safety heuristics (src/mcp/findings/Heuristics.ts, docs/findings.md) on a corpus of
 * known tool-poisoning attacks (test/fixtures/tool-poisoning/attacks.json: each with the rule ids
 * it must raise, no more) and of ordinary tools (clean.json: none).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { toolFindings } from "../../src/mcp/findings/Heuristics.js"

const fixture = <A>(name: string): A =>
  JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/tool-poisoning", name), "utf8")) as A

const attacks = fixture<{ cases: Array<{ id: string; tool: unknown; otherTools?: Array<string>; expect: Array<string> }> }>("attacks.json")
const clean = fixture<{ tools: Array<unknown> }>("clean.json")

describe("tool-safety heuristics", () => {
  for (const attack of attacks.cases) {
    it(`raise exactly the expected rules on ${attack.id}`, () => {
      const found = toolFindings(attack.tool, attack.otherTools ?? [])
      expect([...new Set(found.map((f) => f.ruleId))].sort()).toEqual([...attack.expect].sort())
      for (const f of found) {
        expect(f.evidence.pointer).toMatch(/^\//)
        expect(f.evidence.match.length).toBeGreaterThan(0)
        expect(f.evidence.match.length).toBeLessThanOrEqual(120)
      }
    })
  }

  it("raise nothing on ordinary tools", () => {
    for (const tool of clean.tools) expect(toolFindings(tool, ["list_chats", "get_forecast_v2"])).toEqual([])
  })

  it("state invisible characters by code point, with the pointer of the string", () => {
    const found = toolFindings({ name: "x", inputSchema: { properties: { "q\u200b": { description: "a\u202eb" } } } })
    expect(found).toEqual([
      { kind: "INVISIBLE_CHARACTERS", ruleId: "invisible.bidi-control", severity: "HIGH", tool: "x", evidence: { pointer: "/inputSchema/properties/q\u200b/description", match: "U+202E" } },
      { kind: "INVISIBLE_CHARACTERS", ruleId: "invisible.zero-width", severity: "HIGH", tool: "x", evidence: { pointer: "/inputSchema/properties/q\u200b", match: "U+200B" } }
    ])
  })
})
