/**
 * Production builds without the demo: no module under `src/`, `layers/` or `schema/` (so
 * neither the library entry `src/index.ts` nor `ApiLive`/`HttpLive` of `src/server.ts`)
 * reaches `demo/` (seed, demo data, manifest, generated examples, the documented description)
 * or the entry point `bin/main.ts`, through any static import (type imports and `import()`
 * types included). The demo is added only at the composition roots outside `src/`. Every
 * production file's own imports are checked, so a path from any of them to the demo would
 * show as the production file where it crosses.
 * And `demo/areas.ts` has one entry per area of `src/areas.ts`, in the same order.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { demoAreas } from "../../demo/areas.js"
import { areas } from "../../src/areas.js"
import { importSpecifiers, moduleGraph, resolveImport, root } from "../support/moduleGraph.js"

/** Every `.ts` file under `dir` (repository-relative). */
const sources = (dir: string): Array<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(root, dir, name)
    return statSync(path).isDirectory() ? sources(relative(root, path)) : name.endsWith(".ts") ? [relative(root, path)] : []
  })

const outsideProduction = (file: string) => file.startsWith("demo/") || file.startsWith("bin/")

describe("the demo boundary", () => {
  it("no production module imports from demo/ or bin/", () => {
    const files = [...sources("src"), ...sources("layers"), ...sources("schema")]
    expect(files).toContain("src/index.ts")
    expect(files).toContain("src/server.ts")
    expect(files.length).toBeGreaterThan(200)
    const crossings = files.flatMap((file) =>
      importSpecifiers(readFileSync(join(root, file), "utf8"), "all")
        .filter((s) => s.startsWith("."))
        .map((s) => relative(root, resolveImport(join(root, file), s)))
        .filter(outsideProduction)
        .map((target) => `${file} imports ${target}`)
    )
    expect(crossings).toEqual([])
  })

  it("the library entry and the server's layers reach no demo module", () => {
    for (const entry of ["src/index.ts", "src/server.ts", "src/startup.ts"]) {
      const reached = [...moduleGraph(entry, "all").keys()]
      expect(reached.length, entry).toBeGreaterThan(20)
      expect(reached.filter(outsideProduction), entry).toEqual([])
    }
  })

  it("finds the demo where it is used: the entry point reaches the seed and the examples", () => {
    const files = [...moduleGraph("bin/main.ts", "all").keys()]
    expect(files).toContain("demo/seed.ts")
    expect(files).toContain("demo/examples/index.ts")
    expect(files).toContain("src/server.ts")
  })

  it("demo/areas.ts lists the areas of src/areas.ts, in the same order", () => {
    expect(demoAreas.map((area) => area.name)).toEqual(areas.map((area) => area.name))
  })
})
