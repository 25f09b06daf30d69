/**
 * What the server loads at start stays what it serves (docs/performance.md, Memory): no module
 * that `bin/main.ts` reaches, transitively, imports a package index that would load multi-MB
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
import { moduleGraph } from "../support/moduleGraph.js"

/** Package entry points the server must not load at start. */
const heavy = (specifier: string): boolean =>
  specifier === "@effect/platform" || /^@effect\/ai-(openai|anthropic)(\/|$)/.test(specifier)

describe("the server's modules", () => {
  it("import no package index that loads the UI bundles or the AI providers at start", () => {
    const graph = new Map([...moduleGraph("bin/main.ts", "values")].map(([file, { packages }]) => [file, packages]))
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get("layers/models/AgentRuntimeLive.ts")).toBeDefined()
    const offending = [...graph.entries()].flatMap(([file, specifiers]) =>
      specifiers.filter(heavy).map((s) => `${file} imports ${s}`)
    )
    expect(offending).toEqual([])
  })
})
