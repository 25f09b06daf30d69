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
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

const specifiers = (source: string): Array<string> => {
  // comments may quote imports (`import { X } from "…"` in a doc comment): drop them first
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
  const found: Array<string> = []
  for (const re of [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g]) {
    for (const m of code.matchAll(re)) found.push(m[1]!)
  }
  return found
}

/** The file a relative specifier of `from` names (`./x.js` is `./x.ts` in the sources). */
const resolveImport = (from: string, specifier: string): string => {
  const target = resolve(dirname(from), specifier)
  for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, join(target, "index.ts")]) {
    if (existsSync(candidate) && !candidate.endsWith("/")) return candidate
  }
  throw new Error(`${relative(root, from)}: cannot resolve ${specifier}`)
}

/** Every source file `entry` imports, transitively, relative to the repository root. */
const moduleGraph = (entry: string): ReadonlyMap<string, ReadonlyArray<string>> => {
  const graph = new Map<string, Array<string>>()
  const queue = [resolve(root, entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    const name = relative(root, file)
    if (graph.has(name)) continue
    const imports = specifiers(readFileSync(file, "utf8")).filter((s) => s.startsWith(".")).map((s) => resolveImport(file, s))
    graph.set(name, imports.map((i) => relative(root, i)))
    queue.push(...imports)
  }
  return graph
}

/**
 * Contract files: `src/api/*` (the root, the operation helper, its docs, security),
 * `schema/*`, and an area's contract: `src/<area>/Api.ts` (or a part of it, `…Api.ts`)
 * and `src/<area>/Errors.ts`, also in an area's sub-feature folder (`src/<area>/<feature>/`). Never a demo, seed or manifest module, nor anything under
 * `src/db/`.
 */
const contractFile = (file: string): boolean =>
  !/(^|\/)[^/]*(demo|seed|manifest)[^/]*$/i.test(file) &&
  !file.split("/").some((part) => /^(demo|seed)$/i.test(part)) &&
  !file.startsWith("src/db/") &&
  (/^src\/api\/[^/]+\.ts$/.test(file) || /^schema\/.+\.ts$/.test(file) || /^src\/(?!http\/)(?:[^/]+\/)+(\w*Api|Errors)\.ts$/.test(file))

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
    for (const f of ["src/api/Api.ts", "src/api/docs.ts", "src/runtime/RunsApi.ts", "src/agents/Api.ts", "src/jobs/bounties/Api.ts", "src/jobs/bounties/Errors.ts", "src/runtime/Errors.ts", "schema/common.ts"]) {
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
