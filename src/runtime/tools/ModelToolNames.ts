/**
 * The names a model sees for an agent's runtime tools: every provider accepts
 * tool names matching `^[a-zA-Z0-9_-]{1,64}$`, while a tool's `stableName` may hold dots
 * (`directory.search_agents`, `<connection slug>.<tool>`) and be longer. The mapping is
 * deterministic per `stableName`, so the name of a tool in a run's history is the name it
 * was offered under.
 */
import { createHash } from "node:crypto"

/** What every provider accepts as a tool name. */
export const ModelToolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/

/**
 * The model's name for `stableName`: `.` becomes `__`, any other character outside
 * `[a-zA-Z0-9_-]` becomes `_`; a name longer than 64 characters is cut to 55 and
 * followed by `_` and 8 hex digits of the SHA-256 of `stableName`.
 */
export const modelToolName = (stableName: string): string => {
  const plain = stableName.replace(/\./g, "__").replace(/[^a-zA-Z0-9_-]/g, "_")
  if (plain.length > 0 && plain.length <= 64) return plain
  return `${plain.slice(0, 55)}_${createHash("sha256").update(stableName).digest("hex").slice(0, 8)}`
}

/**
 * The model names of `stableNames` and back. Two stable names that would share a name
 * (`a.b` and `a__b`) both get the hashed form, so the mapping stays one-to-one.
 */
export const modelToolNames = (stableNames: ReadonlyArray<string>): {
  readonly toModel: ReadonlyMap<string, string>
  readonly fromModel: ReadonlyMap<string, string>
} => {
  const first = new Map(stableNames.map((s) => [s, modelToolName(s)]))
  const counts = new Map<string, number>()
  for (const name of first.values()) counts.set(name, (counts.get(name) ?? 0) + 1)
  const toModel = new Map<string, string>()
  for (const [stable, name] of first) {
    toModel.set(
      stable,
      counts.get(name)! > 1 ? `${name.slice(0, 55)}_${createHash("sha256").update(stable).digest("hex").slice(0, 8)}` : name
    )
  }
  return { toModel, fromModel: new Map([...toModel].map(([stable, name]) => [name, stable])) }
}
