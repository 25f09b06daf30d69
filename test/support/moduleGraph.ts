/**
 * The static import graph of the sources, read from the files themselves (comments dropped
 * first, since doc comments may quote imports): the walk behind the tests that keep the
 * contract free of implementations (test/openapi/ContractGraph.test.ts) and the server's start
 * free of multi-MB package indexes (test/http/ServerModules.test.ts).
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** Which imports of a file count: values only, or every static import (types and `import()` types too). */
export type ImportKind = "values" | "all"

const patterns: Record<ImportKind, ReadonlyArray<RegExp>> = {
  values: [/^\s*(?:import|export)\s+(?!type\b)[^;"']*?\bfrom\s*["']([^"']+)["']/gm, /^\s*import\s*["']([^"']+)["']/gm],
  all: [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g]
}

/** The module specifiers `source` imports, of the given kind. */
export const importSpecifiers = (source: string, kind: ImportKind): Array<string> => {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
  return patterns[kind].flatMap((re) => [...code.matchAll(re)].map((m) => m[1]!))
}

/** The file a relative specifier of `from` names (`./x.js` is `./x.ts` in the sources). */
export const resolveImport = (from: string, specifier: string): string => {
  const target = resolve(dirname(from), specifier)
  for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, join(target, "index.ts")]) {
    if (existsSync(candidate) && !candidate.endsWith("/")) return candidate
  }
  throw new Error(`${relative(root, from)}: cannot resolve ${specifier}`)
}

/**
 * Every source file `entry` reaches through relative imports of `kind`, transitively (paths
 * relative to the root) → the specifiers it imports: its relative imports resolved to files,
 * and its package imports as written.
 */
export const moduleGraph = (
  entry: string,
  kind: ImportKind
): ReadonlyMap<string, { readonly files: ReadonlyArray<string>; readonly packages: ReadonlyArray<string> }> => {
  const graph = new Map<string, { files: Array<string>; packages: Array<string> }>()
  const queue = [resolve(root, entry)]
  while (queue.length > 0) {
    const file = queue.pop()!
    const name = relative(root, file)
    if (graph.has(name)) continue
    const specifiers = importSpecifiers(readFileSync(file, "utf8"), kind)
    const files = specifiers.filter((s) => s.startsWith(".")).map((s) => resolveImport(file, s))
    graph.set(name, { files: files.map((f) => relative(root, f)), packages: specifiers.filter((s) => !s.startsWith(".")) })
    queue.push(...files)
  }
  return graph
}
