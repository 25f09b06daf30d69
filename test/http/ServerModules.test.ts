/**
 * What the server loads at start stays what it serves (docs/performance.md, Memory): no module
 * that `src/main.ts` reaches, transitively, imports a package index that would load multi-MB
 * modules the service does not use at start:
 *
 * - `@effect/platform`'s index evaluates every module of the package, among them
 *   `HttpApiSwagger` and `HttpApiScalar`, whose internal modules are the Swagger UI and Scalar
 *   bundles as string constants (~21 MB of heap); imports name the module instead
 *   (`@effect/platform/HttpApi`). `import type` is free (erased).
 * - `@effect/ai-openai` (its language model loads a GPT tokenizer, ~7 MB) and
 *   `@effect/ai-anthropic` are imported with `import()` when a model profile needs them
 *   (layers/models/AgentRuntimeLive.ts), never statically.
 *
 * The walk reads the value imports of each file (`import … from`, `export … from`, `import "…"`;
 * not `import type`/`export type`) and follows the relative ones.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** The specifiers of the static value imports of `source` (comments dropped first). */
const valueImports = (source: string): Array<string> => {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
  const found: Array<string> = []
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;"']*?\bfrom\s*["']([^"']+)["']/gm)) found.push(m[1]!)
  for (const m of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) found.push(m[1]!)
  return found
}

const resolveImport = (from: string, specifier: string): string => {
  const target = resolve(dirname(from), specifier)
  for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, join(target, "index.ts")]) {
    if (existsSync(candidate) && !candidate.endsWith("/")) return candidate
  }
  throw new Error(`${relative(root, from)}: cannot resolve ${specifier}`)
}

/** Each source file reached from `entry` → the package specifiers it imports as values. */
const packageImports = (entry: string): ReadonlyMap<string, ReadonlyArray<string>> => {
  const result = new Map<string, Array<string>>()
  const queue = [resolve(root, entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    const name = relative(root, file)
    if (result.has(name)) continue
    const specifiers = valueImports(readFileSync(file, "utf8"))
    result.set(name, specifiers.filter((s) => !s.startsWith(".")))
    queue.push(...specifiers.filter((s) => s.startsWith(".")).map((s) => resolveImport(file, s)))
  }
  return result
}

/** Package entry points the server must not load at start. */
const heavy = (specifier: string): boolean =>
  specifier === "@effect/platform" || /^@effect\/ai-(openai|anthropic)(\/|$)/.test(specifier)

describe("the server's modules", () => {
  it("import no package index that loads the UI bundles or the AI providers at start", () => {
    const graph = packageImports("src/main.ts")
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get("layers/models/AgentRuntimeLive.ts")).toBeDefined()
    const offending = [...graph.entries()].flatMap(([file, specifiers]) =>
      specifiers.filter(heavy).map((s) => `${file} imports ${s}`)
    )
    expect(offending).toEqual([])
  })
})
