/**
 * The package as another project gets it: `npm pack` (built JavaScript and
 * declaration files only), installed from the tarball into a scratch consumer in a
 * temp dir, type-checked there with a plain strict tsconfig (the consumer's own
 * settings, none of our dev-only types), compiled, and run: it mounts `ApiLive` as
 * docs/architecture.md shows and calls one operation through `HttpApiClient`.
 *
 * `npm pack` uses `dist/` as built by `npm ci` (the `prepare` script); the test
 * rebuilds first when a source file is newer. Installing takes most of the time
 * (dependencies from the local npm cache, `--prefer-offline`).
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { onPostgres } from "../support/database.js"

const root = join(import.meta.dirname, "../..")
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")

const newest = (dir: string): number =>
  Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) =>
    e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs
  ))

const builtIsCurrent = () => {
  try {
    return statSync(join(root, "dist/src/index.js")).mtimeMs >= Math.max(...["src", "schema", "layers"].map((d) => newest(join(root, d))))
  } catch {
    return false
  }
}

// asynchronous, so the test worker keeps answering the runner while a step runs
const run = async (command: string, args: ReadonlyArray<string>, cwd: string) =>
  (await promisify(execFile)(command, args, { cwd, env: { ...process.env, DATABASE_URL: "", DATA_DIR: "memory://" } })).stdout

const consumerTsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    outDir: "out",
    types: ["node"]
  },
  include: ["main.ts"]
}

// mounts the API from the package (docs/architecture.md, "Use it as a library"), calls it with a typed client
const consumerMain = `
import { HttpApiBuilder, HttpApiClient } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { Api, ApiLive, AppConfigLive, AreaSettingsLive, BackgroundLive, DbLive, IdsLive, migrate } from "agent-directory-api"

const Live = HttpApiBuilder.serve().pipe(
  Layer.provide(ApiLive),
  Layer.provide(BackgroundLive),
  Layer.provide(DbLive(migrate)),
  Layer.provide(IdsLive),
  Layer.provide(AreaSettingsLive),
  Layer.provideMerge(AppConfigLive),
  Layer.provideMerge(NodeHttpServer.layerTest)
)

const program = Effect.gen(function*() {
  const client = yield* HttpApiClient.make(Api)
  const catalog = yield* client.Protocols.getProtocolCatalog()
  const protocols: ReadonlyArray<{ readonly key: string }> = catalog.data.protocols
  console.log(JSON.stringify({ protocols: protocols.length, schemaVersion: catalog.meta.schemaVersion }))
})

Effect.runPromise(program.pipe(Effect.provide(Live), Effect.scoped)).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
`

// The package does not depend on the database the suite runs against: pack it once per CI
// run (the embedded pass), not again in the PostgreSQL pass.

describe.skipIf(onPostgres)("the npm package (packed once, in the embedded run)", () => {
  it("packs built JavaScript with declarations, installs into a consumer, typechecks strictly and serves a typed call", async () => {
    if (!builtIsCurrent()) await run("npm", ["run", "build"], root)
    const dir = mkdtempSync(join(tmpdir(), "adapi-pack-"))
    try {
      const tarball = (await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], root)).trim().split("\n").pop()!
      const listing = (await run("tar", ["tzf", join(dir, tarball)], dir)).split("\n").filter((f) => f !== "")
      expect(listing).toContain("package/dist/src/index.js")
      expect(listing).toContain("package/dist/src/index.d.ts")
      expect(listing.filter((f) => /^package\/(test|\.ci|src|schema|layers)\//.test(f) || f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([])

      const consumer = join(dir, "consumer")
      mkdirSync(consumer)
      writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
      writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify(consumerTsconfig))
      writeFileSync(join(consumer, "main.ts"), consumerMain)
      await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", join(dir, tarball), "@types/node@20"], consumer)

      await run("node", [tsc, "-p", "tsconfig.json"], consumer)
      const output = (await run("node", ["out/main.js"], consumer)).trim().split("\n").pop()!
      // an empty embedded database (migrated, not seeded): the catalog is empty but well-formed
      expect(JSON.parse(output)).toEqual({ protocols: 0, schemaVersion: "1.0.0" })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 480_000)
})
