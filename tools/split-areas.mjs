// After tools/move-demo.mjs: takes seed and manifest out of every src/<area>/Area.ts (run from the root,
// before demo/areas.ts exists); prints the imports and rows of demo/areas.ts on stdout.
import { readFileSync, writeFileSync } from "node:fs"
import { posix } from "node:path"
const areasSrc = readFileSync("src/areas.ts", "utf8")
const entries = [...areasSrc.matchAll(/^import \{ (\w+) \} from "\.\/(.+)\/Area\.js"/gm)].map((m) => ({ id: m[1], dir: m[2] }))
const order = [...areasSrc.slice(areasSrc.indexOf("export const areas")).matchAll(/^  (\w+),?$/gm)].map((m) => m[1])
const imports = []
const rows = []
for (const id of order) {
  const { dir } = entries.find((e) => e.id === id)
  const file = `src/${dir}/Area.ts`
  let text = readFileSync(file, "utf8")
  const name = /name: "([^"]+)"/.exec(text)[1]
  const demoImports = [...text.matchAll(/^import (.+) from "((?:\.\.\/)+demo\/[^"]+)"\n/gm)]
  for (const m of demoImports) {
    const target = posix.normalize(posix.join(posix.dirname(file), m[2]))
    imports.push(`import ${m[1]} from "./${posix.relative("demo", target)}"`)
    text = text.replace(m[0], "")
  }
  const seed = /^  seed: (.+?),?\n/m.exec(text)
  const manifest = /^  manifest: (.+?),?\n/m.exec(text)
  if (seed) text = text.replace(seed[0], "")
  if (manifest) text = text.replace(manifest[0], "")
  text = text.replace(/,\n\} satisfies Area/, "\n} satisfies Area")
  writeFileSync(file, text)
  const fields = [`name: "${name}"`]
  if (seed) fields.push(`seed: ${seed[1]}`)
  if (manifest) fields.push(`manifest: ${manifest[1]}`)
  rows.push(`  { ${fields.join(", ")} }`)
}
process.stdout.write(imports.join("\n") + "\n\n" + rows.join(",\n") + "\n")
