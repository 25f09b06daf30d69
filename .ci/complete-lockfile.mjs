// Adds to package-lock.json the entries of other platforms' optional packages
// (rollup, msgpackr-extract, ...) that `npm install` leaves out when the registry
// it reaches lacks their exact versions; `npm ci` needs every entry to be present.
// They are never installed on a platform they do not fit, so no tarball is needed.
// Run after changing dependencies: `node .ci/complete-lockfile.mjs`.
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"))
const packages = lock.packages
let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `node_modules/${name}`
    if (packages[where] !== undefined || packages[`${path}/${where}`] !== undefined) continue
    const version = range.replace(/^[\^~=]/, "")
    let meta = {}
    try {
      meta = JSON.parse(execFileSync("npm", ["view", name, "os", "cpu", "libc", "--json"], { encoding: "utf8" }) || "{}")
    } catch {
      // unknown to the registry: record the entry without platform fields
    }
    packages[where] = {
      version,
      ...(meta.cpu ? { cpu: [].concat(meta.cpu) } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(meta.libc ? { libc: [].concat(meta.libc) } : {}),
      optional: true,
      ...(meta.os ? { os: [].concat(meta.os) } : {})
    }
    added++
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))))
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n")
console.log(`added ${added} optional platform entries`)
