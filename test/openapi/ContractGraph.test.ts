/**
 * The contract stands alone: `Api` (src/api/Api.ts) and every module
 * it imports, transitively, carry no demo data, no seed and no feature implementation.
 * The demo examples of the served description are added at assembly
 * (src/http/DocumentedApi.ts), which depends on the contract, never the reverse.
 *
 * The walk reads the static imports of each file (`import … from "…"`, `export … from "…"`,
 * `import "…"`, type imports and `import("…")` types included: a type import of a demo
 * module is a dependency too) and follows the relative ones.
 */
import { describe, expect, it } from "@effect/vitest"
import { moduleGraph as importGraph } from "../support/moduleGraph.js"

/** Every source file `entry` imports, transitively (types included) → the files it imports. */
const moduleGraph = (entry: string): ReadonlyMap<string, ReadonlyArray<string>> =>
  new Map([...importGraph(entry, "all")].map(([file, { files }]) => [file, files]))

/**
 * Contract files: `src/api/*` (the root, the operation helper, its docs, security),
 * `schema/*`, and an area's contract: `src/<area>/Api.ts` (or a part of it, `…Api.ts`),
 * `src/<area>/Errors.ts` and `src/<area>/Schemas.ts` (the area's own schemas), also in an area's sub-feature folder (`src/<area>/<feature>/`). Never a demo, seed or manifest module, nor anything under
 * `src/db/`.
 */
const contractFile = (file: string): boolean =>
  !/(^|\/)[^/]*(demo|seed|manifest)[^/]*$/i.test(file) &&
  !file.split("/").some((part) => /^(demo|seed)$/i.test(part)) &&
  !file.startsWith("src/db/") &&
  (/^src\/api\/[^/]+\.ts$/.test(file) || /^schema\/.+\.ts$/.test(file) || /^src\/(?!http\/)(?:[^/]+\/)+(\w*Api|Errors|Schemas)\.ts$/.test(file))

describe("the contract's module graph", () => {
  it("reaches only contract files from src/api/Api.ts: no demo data, seed or feature implementation", () => {
    const graph = moduleGraph("src/api/Api.ts")
    const outside = [...graph.entries()].flatMap(([file, imports]) =>
      imports.filter((i) => !contractFile(i)).map((i) => `${file} imports ${i}`)
    )
    expect(outside).toEqual([])
    // the walk does reach the contract: the area contracts and the shared schemas
    expect(graph.size).toBeGreaterThan(20)
    expect([...graph.keys()].filter((f) => f.startsWith("schema/")).length).toBeGreaterThan(5)
  })

  it("tells contract files from the rest", () => {
    for (const f of ["src/api/Api.ts", "src/api/docs.ts", "src/runtime/runs/Api.ts", "src/agents/Api.ts", "src/jobs/bounties/Api.ts", "src/jobs/bounties/Errors.ts", "src/runtime/Errors.ts", "src/runtime/events/Schemas.ts", "schema/common.ts"]) {
      expect(contractFile(f), f).toBe(true)
    }
    for (const f of ["src/db/demo.ts", "src/db/manifest.ts", "src/runtime/demo.ts", "src/db/examples.ts", "src/agents/demo.ts", "src/agents/Area.ts", "src/areas.ts", "src/growth/ads/ServingToken.ts", "src/agents/Http.ts", "src/http/DocumentedApi.ts", "src/api/demo.ts"]) {
      expect(contractFile(f), f).toBe(false)
    }
  })

  it("finds the demo imports of the assembly, which documents the demo examples (src/http/DocumentedApi.ts)", () => {
    const files = [...moduleGraph("src/http/DocumentedApi.ts").keys()]
    expect(files.filter((f) => /manifest|demo/.test(f)).length).toBeGreaterThan(0)
    expect(files.filter((f) => !contractFile(f)).length).toBeGreaterThan(1)
  })
})
