/**
 * docs/configuration.md lists exactly the environment variables the server reads: the
 * cross-cutting settings (`loadAppConfig`, layers/AppConfig.ts) and every area's own
 * (`src/<area>/Config.ts`, assembled in src/config.ts). The names read are recorded by a
 * `ConfigProvider` that sees every lookup, so a setting added, renamed or removed in the code
 * without its row (or a row left for a setting that is gone) fails here.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { readFileSync } from "node:fs"
import { loadAppConfig } from "../../layers/AppConfig.js"
import { areaSettingsConfigs } from "../../src/config.js"

/** Every variable name `read` looks up under `env` (names joined with `_`, as `ConfigProvider.fromEnv` does). */
const namesRead = (read: Effect.Effect<unknown, unknown>, env: Record<string, string>) =>
  Effect.gen(function*() {
    const seen = new Set<string>()
    const inner = ConfigProvider.fromMap(new Map(Object.entries(env)), { pathDelim: "_" }).flattened
    const recording = ConfigProvider.fromFlat(ConfigProvider.makeFlat({
      load: (path, primitive, split) => {
        seen.add(path.join("_"))
        return inner.load(path, primitive, split)
      },
      enumerateChildren: (path) => inner.enumerateChildren(path),
      patch: inner.patch
    }))
    yield* Effect.either(Effect.withConfigProvider(read, recording))
    return seen
  })

/** The server's settings, cross-cutting and per area. */
const settings: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
  loadAppConfig,
  ...areaSettingsConfigs
]

/** The variables of the reference's table rows, benchmark-only rows aside. */
const documented = (): ReadonlySet<string> => {
  const names = new Set<string>()
  for (const line of readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8").split("\n")) {
    const cells = line.split(" | ")
    if (!line.startsWith("| `") || cells.length < 3 || cells.at(-1)!.startsWith("`npm run bench")) continue
    for (const match of cells[0]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!)
  }
  return names
}

describe("docs/configuration.md", () => {
  it.effect("documents every variable the server reads, and no other", () =>
    Effect.gen(function*() {
      // the defaults, and settings that turn on what the defaults leave off (metrics, a cluster's runner)
      const environments = [{}, { METRICS_PORT: "9464", ENGINE_RUNNER: "socket", DEPLOYMENT_ENV: "production" }]
      const read = new Set<string>()
      for (const env of environments) {
        for (const setting of settings) for (const name of yield* namesRead(setting, env)) read.add(name)
      }
      expect([...read].sort()).toEqual([...documented()].sort())
    }))
})
