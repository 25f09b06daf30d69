/**
 * The import rules of `.dependency-cruiser.cjs` (docs/architecture.md, "Folders and the import rule"), on every
 * `npm test`:
 * - the service's tree (src/, layers/, schema/ and demo/ when present) breaks none of them, and no two areas import
 *   each other through any number of steps (the area graph, every module collapsed to its area, has no cycle:
 *   dependency-cruiser's own `circular` rule sees modules, not folders);
 * - the rules do catch what they forbid: over test/fixtures/dependency-rules/, a tree that breaks each once, every
 *   violation is reported under its rule's name.
 */
import { describe, expect, it } from "@effect/vitest"
import { cruise, type ICruiseResult, type IForbiddenRuleType } from "dependency-cruiser"
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../..")
const config = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs")) as {
  readonly forbidden: ReadonlyArray<IForbiddenRuleType>
}

/** Cruises `folders` of `baseDir` (those that exist) with the project's rules. */
const cruiseWithRules = async (baseDir: string, folders: ReadonlyArray<string>): Promise<ICruiseResult> => {
  const present = folders.filter((folder) => existsSync(path.join(baseDir, folder)))
  const reported = await cruise(
    present,
    {
      baseDir,
      validate: true,
      ruleSet: { forbidden: [...config.forbidden] },
      doNotFollow: { path: "node_modules" },
      exclude: { path: "node_modules" },
      tsPreCompilationDeps: true
    },
    { extensions: [".ts", ".js"] },
    { tsConfig: extractTSConfig(path.join(root, "tsconfig.json")) }
  )
  return reported.output as ICruiseResult
}

/** What is not an area module (kernel, roots, demo data), as the config's `area-internals` rule says. */
const notArea = (config.forbidden.find((rule) => rule.name === "area-internals")!.from.pathNot as ReadonlyArray<string>)
  .map((pattern) => new RegExp(pattern))

/** The area of a module (`agents` for src/agents/imports/Repo.ts), or undefined for kernel, roots and demo. */
const areaOf = (source: string): string | undefined => {
  const match = /^src\/([^/]+)\//.exec(source)
  return match === null || notArea.some((pattern) => pattern.test(source)) ? undefined : match[1]
}

/** Every cycle of the area graph, each as `a → b → a` (one per strongly connected component of two or more areas). */
const areaCycles = (result: ICruiseResult): ReadonlyArray<string> => {
  const edges = new Map<string, Set<string>>()
  for (const module of result.modules) {
    const from = areaOf(module.source)
    if (from === undefined) continue
    for (const dependency of module.dependencies) {
      const to = areaOf(dependency.resolved)
      if (to === undefined || to === from) continue
      edges.set(from, (edges.get(from) ?? new Set()).add(to))
    }
  }
  // Tarjan's strongly connected components
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const cycles: Array<string> = []
  const visit = (area: string): void => {
    index.set(area, index.size)
    low.set(area, index.get(area)!)
    stack.push(area)
    for (const next of edges.get(area) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(area, Math.min(low.get(area)!, low.get(next)!))
      } else if (stack.includes(next)) low.set(area, Math.min(low.get(area)!, index.get(next)!))
    }
    if (low.get(area) === index.get(area)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        component.push(member)
      } while (member !== area)
      if (component.length > 1) cycles.push([...component.sort(), component[0]].join(" → "))
    }
  }
  for (const area of [...edges.keys()].sort()) if (!index.has(area)) visit(area)
  return cycles
}

const violationsOf = (result: ICruiseResult, severity?: "error"): ReadonlyArray<string> =>
  result.summary.violations
    .filter((v) => severity === undefined || v.rule.severity === severity)
    .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)

describe("the import rules", () => {
  it("hold on src/, layers/, schema/ and demo/: no violation, no cycle between areas", async () => {
    const result = await cruiseWithRules(root, ["src", "layers", "schema", "demo"])
    expect(result.modules.length).toBeGreaterThan(300)
    expect(violationsOf(result, "error")).toEqual([])
    expect(areaCycles(result)).toEqual([])
  })

  it("report each forbidden import of a tree that breaks them, under the rule's name", async () => {
    const fixture = path.join(root, "test/fixtures/dependency-rules")
    const result = await cruiseWithRules(fixture, ["src", "layers", "schema", "demo"])
    expect([...violationsOf(result)].sort()).toEqual([
      "area-imports-root: src/billing/Invoices.ts → src/server.ts",
      "area-internals: src/billing/Invoices.ts → src/orders/Repo.ts",
      "kernel-imports-area: src/http/Pipeline.ts → src/billing/index.ts",
      "layers-schema-import-src: layers/Clock.ts → src/server.ts",
      "module-cycle: src/billing/Totals.ts → src/billing/TotalsFormat.ts",
      "production-imports-demo: src/billing/Invoices.ts → demo/orders.ts",
      "schema-imports-layers: schema/stamp.ts → layers/Clock.ts"
    ])
    expect(areaCycles(result)).toEqual(["orders → shipping → orders"])
  })
})
