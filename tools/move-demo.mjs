// Moves the demo modules (seed, demo data, manifests, examples, the documented description, the demo CLIs)
// out of src/ into demo/, and rewrites every relative import and every quoted repository path that names
// a moved file. Run from the repository root on a clean tree: `node tools/move-demo.mjs`.
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve, posix } from "node:path"

const root = process.cwd()
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" })
const tracked = git("ls-files").split("\n").filter((f) => f !== "")

/** old path -> new path (repository-relative) */
const moves = new Map()
const demoDirs = new Set(tracked.filter((f) => /^src\/.+\/demo\.ts$/.test(f)).map((f) => dirname(f)))
for (const f of tracked) {
  let m
  if (f === "src/db/demo.ts") moves.set(f, "demo/common.ts")
  else if (f === "src/db/seed.ts") moves.set(f, "demo/seed.ts")
  else if (f === "src/db/manifest.ts") moves.set(f, "demo/manifest.ts")
  else if (f === "src/db/examples.ts") moves.set(f, "demo/examples.ts")
  else if (f === "src/http/DocumentedApi.ts") moves.set(f, "demo/DocumentedApi.ts")
  else if (["src/cli/seed.ts", "src/cli/manifest.ts", "src/cli/openapi.ts", "src/cli/demo-cluster.ts"].includes(f)) moves.set(f, f.replace(/^src\//, "demo/"))
  else if (f === "src/runtime/demoRunEvents.ts") moves.set(f, "demo/runtime/runEvents.ts")
  else if (f === "src/runtime/schedulesDemo.ts") moves.set(f, "demo/runtime/schedules.ts")
  else if (f === "src/wallets/AgentRelationsDemo.ts") moves.set(f, "demo/wallets/agentRelations.ts")
  else if ((m = /^src\/(.+)\/demo\.ts$/.exec(f))) {
    // an area whose seed step has its own file keeps its data apart (data.ts); otherwise data and seed step are seed.ts
    moves.set(f, existsSync(join(root, "src", m[1], "seed.ts")) ? `demo/${m[1]}/data.ts` : `demo/${m[1]}/seed.ts`)
  } else if ((m = /^src\/(.+)\/seed\.ts$/.exec(f)) && demoDirs.has(`src/${m[1]}`)) moves.set(f, `demo/${m[1]}/seed.ts`)
  else if ((m = /^src\/(.+)\/manifest\.ts$/.exec(f))) moves.set(f, `demo/${m[1]}/manifest.ts`)
}
const back = new Map([...moves].map(([a, b]) => [b, a]))

for (const [from, to] of moves) {
  execFileSync("mkdir", ["-p", dirname(join(root, to))])
  git("mv", from, to)
}

const sources = git("ls-files").split("\n").filter((f) => /\.(ts|mts|mjs)$/.test(f) && !f.startsWith("tools/"))
  .concat([...moves.values()]).filter((f, i, all) => all.indexOf(f) === i && existsSync(join(root, f)))

const toSpecifier = (fromFile, target) => {
  let s = posix.relative(posix.dirname(fromFile), target).replace(/\.ts$/, ".js")
  return s.startsWith(".") ? s : `./${s}`
}

let changed = 0
for (const file of sources) {
  const oldFile = back.get(file) ?? file
  const text = readFileSync(join(root, file), "utf8")
  const out = text.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']+)\2/g, (all, lead, q, spec) => {
    const abs = posix.normalize(posix.join(posix.dirname(oldFile), spec))
    const oldTarget = abs.replace(/\.js$/, ".ts")
    const newTarget = moves.get(oldTarget) ?? oldTarget
    if (newTarget === oldTarget && file === oldFile) return all
    if (!spec.endsWith(".js")) {
      // not a module of ours rewritten by extension (json etc.): recompute as-is
      const target = moves.get(abs) ?? abs
      return `${lead}${q}${posix.relative(posix.dirname(file), target).replace(/^(?!\.)/, "./")}${q}`
    }
    return `${lead}${q}${toSpecifier(file, newTarget)}${q}`
  })
  if (out !== text) {
    writeFileSync(join(root, file), out)
    changed++
  }
}
process.stdout.write(`moved ${moves.size} files, rewrote imports in ${changed}\n`)
for (const [a, b] of moves) process.stdout.write(`${a} -> ${b}\n`)
