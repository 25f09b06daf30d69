/**
 * The one ordered list of migrations (src/db/migrate.ts): the shared ones of src/db/migrations/
 * and every area's own (src/<area>/migrations/, listed by its Migrations.ts and its Area.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { areas } from "../../src/areas.js"
import { areaMigrations, assembleMigrations, sharedMigrations } from "../../src/db/migrate.js"
import { moduleGraph, root } from "../support/moduleGraph.js"

/** Every `NNNN_name.ts` under a `migrations/` folder of src/, relative to the root. */
const migrationFiles = (dir: string): Array<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return migrationFiles(path)
    return /(^|\/)migrations\/\d{4}_[\w]+\.ts$/.test(path) ? [path] : []
  })

describe("the migration list", () => {
  it("is assembled from the areas of src/areas.ts: each area's Area.ts and migrate.ts name the same records", () => {
    const fromAreas = areas.flatMap((area) => ("migrations" in area && area.migrations ? [area.migrations] : []))
    expect(new Set(fromAreas)).toEqual(new Set(areaMigrations))
    expect(fromAreas.length).toBe(areaMigrations.length)
  })

  it("holds every migration file once, an area's in its folder and the shared ones in src/db/migrations/", () => {
    const expected: Array<string> = Object.keys(sharedMigrations).map((id) => `src/db/migrations/${id}.ts`)
    for (const area of areas) {
      if (!("migrations" in area) || !area.migrations) continue
      expected.push(...Object.keys(area.migrations).map((id) => `src/${area.name}/migrations/${id}.ts`))
    }
    expect(migrationFiles("src").sort()).toEqual(expected.sort())
    const { duplicates, migrations } = assembleMigrations([sharedMigrations, ...areaMigrations])
    expect(duplicates).toEqual([])
    expect(Object.keys(migrations).length).toBe(expected.length)
  })

  it("tells two migrations that claim one id, by number or by name", () => {
    const m = Effect.void
    expect(assembleMigrations([{ "0001_a": m }, { "0002_b": m }]).duplicates).toEqual([])
    expect(assembleMigrations([{ "0001_a": m, "0002_b": m }, { "0002_c": m }]).duplicates).toEqual(["0002_b, 0002_c"])
    expect(assembleMigrations([{ "0003_a": m }, { "0003_a": m }]).duplicates).toEqual(["0003_a, 0003_a"])
  })

  it("is reached without the areas' HTTP layers: src/db/migrate.ts imports migrations only", () => {
    const files = [...moduleGraph("src/db/migrate.ts", "values").keys()]
    expect(files.filter((f) => !/^src\/db\/migrate\.ts$|\/Migrations\.ts$|\/migrations\/\d{4}_\w+\.ts$/.test(f))).toEqual([])
  })
})
