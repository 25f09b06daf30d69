// After tools/move-demo.mjs: rewrites repository paths written in comments, docs and command lines
// (`src/db/seed.ts`, `dist/src/cli/seed.js`, ...) to the moved files' paths. Run from the root.
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"

const git = (...args) => execFileSync("git", args, { encoding: "utf8" })
// the renames git records (status R) are the moves
const moves = git("diff", "--cached", "-M", "--name-status", "HEAD").split("\n")
  .filter((l) => l.startsWith("R")).map((l) => l.split("\t").slice(1))
const pairs = moves.flatMap(([a, b]) => [
  [a, b],
  [`dist/${a.replace(/\.ts$/, ".js")}`, `dist/${b.replace(/\.ts$/, ".js")}`]
]).sort((x, y) => y[0].length - x[0].length)
const files = git("ls-files").split("\n").filter((f) => /\.(ts|md|json)$/.test(f) && !f.startsWith("tools/") && f !== "package-lock.json")
let n = 0
for (const f of files) {
  let text
  try { text = readFileSync(f, "utf8") } catch { continue }
  let out = text
  for (const [a, b] of pairs) out = out.split(a).join(b)
  if (out !== text) { writeFileSync(f, out); n++ }
}
process.stdout.write(`rewrote paths in ${n} files\n`)
