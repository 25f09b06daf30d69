/**
 * `tsx test/bench/heapsnapshot.ts FILE.heapsnapshot [TOP]`: what holds a V8 heap snapshot
 * (as written by `node --heapsnapshot-signal=…` or `v8.writeHeapSnapshot()`).
 *
 * Prints, in MB (10^6 bytes):
 * - the total self size of the snapshot's nodes (the live heap: a snapshot is taken after a full GC);
 * - self size by node type and by constructor / string kind (the largest TOP, default 25);
 * - the largest retainers: the nodes with the largest retained size (the size that would be freed
 *   with them: their subtree in the dominator tree, Cooper-Harvey-Kennedy's iterative algorithm
 *   from the snapshot's root), each with a path of edge names from the root;
 * - the largest single strings, with their first characters.
 *
 * Reads the whole snapshot into memory: run it with a heap a few times the file's size
 * (`node --max-old-space-size=4096 --import tsx …`).
 */
import { readFileSync } from "node:fs"

const file = process.argv[2]
if (file === undefined) {
  process.stderr.write("usage: tsx test/bench/heapsnapshot.ts FILE.heapsnapshot [TOP]\n")
  process.exit(2)
}
const top = Number(process.argv[3] ?? 25)

interface Snapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: ReadonlyArray<string>
      readonly node_types: [ReadonlyArray<string>, ...Array<unknown>]
      readonly edge_fields: ReadonlyArray<string>
      readonly edge_types: [ReadonlyArray<string>, ...Array<unknown>]
    }
    readonly node_count: number
  }
  readonly nodes: ReadonlyArray<number>
  readonly edges: ReadonlyArray<number>
  readonly strings: ReadonlyArray<string>
}

const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot
const meta = snap.snapshot.meta
const nf = meta.node_fields.length
const ef = meta.edge_fields.length
const nType = meta.node_fields.indexOf("type")
const nName = meta.node_fields.indexOf("name")
const nSelf = meta.node_fields.indexOf("self_size")
const nEdges = meta.node_fields.indexOf("edge_count")
const eType = meta.edge_fields.indexOf("type")
const eName = meta.edge_fields.indexOf("name_or_index")
const eTo = meta.edge_fields.indexOf("to_node")
const nodeTypes = meta.node_types[0]
const edgeTypes = meta.edge_types[0]
const weakEdge = edgeTypes.indexOf("weak")
const shortcutEdge = edgeTypes.indexOf("shortcut")
const elementEdge = edgeTypes.indexOf("element")
const hiddenEdge = edgeTypes.indexOf("hidden")
const { nodes, edges, strings } = snap
const count = nodes.length / nf

const firstEdge = new Uint32Array(count + 1)
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e
  e += nodes[i * nf + nEdges]! * ef
}
firstEdge[count] = edges.length

const type = (i: number) => nodeTypes[nodes[i * nf + nType]!]!
const name = (i: number) => strings[nodes[i * nf + nName]!]!
const self = (i: number) => nodes[i * nf + nSelf]!
const label = (i: number) => {
  const t = type(i)
  if (t === "string" || t === "concatenated string" || t === "sliced string") return `(${t})`
  if (t === "object" || t === "closure" || t === "native") return `${name(i)}${t === "object" ? "" : ` (${t})`}`
  return `(${t}) ${name(i).slice(0, 60)}`
}
const edgeLabel = (e: number) => {
  const t = edges[e + eType]!
  const n = edges[e + eName]!
  return t === elementEdge || t === hiddenEdge ? `[${n}]` : strings[n]!
}
const mb = (bytes: number) => (bytes / 1e6).toFixed(2)

// self sizes
let total = 0
const byType = new Map<string, number>()
const byLabel = new Map<string, { size: number; count: number }>()
for (let i = 0; i < count; i++) {
  const s = self(i)
  total += s
  byType.set(type(i), (byType.get(type(i)) ?? 0) + s)
  const l = label(i)
  const entry = byLabel.get(l) ?? { size: 0, count: 0 }
  entry.size += s
  entry.count++
  byLabel.set(l, entry)
}
console.log(`${file}: ${count} nodes, ${mb(total)} MB (sum of self sizes)\n`)
console.log("## Self size by node type (MB)")
for (const [t, s] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`${mb(s).padStart(9)}  ${t}`)
console.log(`\n## Self size by constructor (top ${top}, MB, count)`)
for (const [l, { count: c, size }] of [...byLabel].sort((a, b) => b[1].size - a[1].size).slice(0, top)) {
  console.log(`${mb(size).padStart(9)}  ${String(c).padStart(8)}  ${l}`)
}

// dominator tree (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm"), root = node 0;
// weak and shortcut edges do not retain
const isRetaining = (e: number) => edges[e + eType] !== weakEdge && edges[e + eType] !== shortcutEdge
const order = new Int32Array(count).fill(-1) // postorder index of each node
const post = new Int32Array(count) // postorder → node
let n = 0
{
  const stack = new Int32Array(count)
  const cursor = new Uint32Array(count)
  const visited = new Uint8Array(count)
  let sp = 0
  stack[sp++] = 0
  visited[0] = 1
  cursor[0] = firstEdge[0]!
  while (sp > 0) {
    const v = stack[sp - 1]!
    let pushed = false
    while (cursor[v]! < firstEdge[v + 1]!) {
      const e = cursor[v]!
      cursor[v] = e + ef
      if (!isRetaining(e)) continue
      const w = edges[e + eTo]! / nf
      if (visited[w]) continue
      visited[w] = 1
      cursor[w] = firstEdge[w]!
      stack[sp++] = w
      pushed = true
      break
    }
    if (!pushed) {
      sp--
      order[v] = n
      post[n++] = v
    }
  }
}
// predecessors (retaining edges, reachable nodes only)
const predCount = new Uint32Array(count + 1)
for (let v = 0; v < count; v++) {
  if (order[v]! < 0) continue
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ef) {
    if (isRetaining(e)) predCount[edges[e + eTo]! / nf]!++
  }
}
const predStart = new Uint32Array(count + 1)
for (let v = 0; v < count; v++) predStart[v + 1] = predStart[v]! + predCount[v]!
const preds = new Int32Array(predStart[count]!)
const fill = predStart.slice()
for (let v = 0; v < count; v++) {
  if (order[v]! < 0) continue
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ef) {
    if (isRetaining(e)) preds[fill[edges[e + eTo]! / nf]!++] = v
  }
}
const idom = new Int32Array(count).fill(-1)
idom[0] = 0
for (let changed = true; changed;) {
  changed = false
  for (let k = n - 2; k >= 0; k--) { // reverse postorder, root (last) excluded
    const v = post[k]!
    let d = -1
    for (let p = predStart[v]!; p < predStart[v + 1]!; p++) {
      let u = preds[p]!
      if (idom[u] === -1) continue
      if (d === -1) {
        d = u
        continue
      }
      let a = u
      let b = d
      while (a !== b) {
        while (order[a]! < order[b]!) a = idom[a]!
        while (order[b]! < order[a]!) b = idom[b]!
      }
      d = a
      u = a
    }
    if (d !== -1 && idom[v] !== d) {
      idom[v] = d
      changed = true
    }
  }
}
const retained = new Float64Array(count)
for (let k = 0; k < n; k++) {
  const v = post[k]!
  retained[v]! += self(v)
  if (v !== 0) retained[idom[v]!]! += retained[v]!
}

// a path from the root to v along the dominator tree, naming the edges
const edgeFrom = (from: number, to: number) => {
  for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += ef) if (edges[e + eTo]! / nf === to) return edgeLabel(e)
  return "…"
}
const path = (v: number) => {
  const chain: Array<number> = []
  for (let u = v; u !== 0 && chain.length < 12; u = idom[u]!) chain.unshift(u)
  let from = chain.length > 0 ? idom[chain[0]!]! : 0
  return chain.map((u) => {
    const step = `${edgeFrom(from, u)}`
    from = u
    return step
  }).join(" → ")
}

// the largest retainers: nodes dominated directly by a synthetic or system root, or anything whose
// retained size is large while each of its dominated children is much smaller (avoid listing a chain)
console.log(`\n## Largest retainers (top ${top} by retained size, MB; children of the dominator tree collapsed)`)
const candidates = [...Array(count).keys()].filter((v) => order[v]! >= 0 && v !== 0 && retained[v]! > 200_000)
candidates.sort((a, b) => retained[b]! - retained[a]!)
const shown: Array<number> = []
const dominatedByShown = (v: number) => {
  for (let u = idom[v]!; u !== 0; u = idom[u]!) if (shown.includes(u) && retained[u]! < retained[v]! * 1.25) return true
  return false
}
for (const v of candidates) {
  if (shown.length >= top) break
  if (dominatedByShown(v)) continue
  shown.push(v)
  console.log(`${mb(retained[v]!).padStart(9)}  ${label(v)}  ← ${path(v).slice(0, 220)}`)
}

console.log("\n## Strings by the edge that holds them (self size, MB; the edge from the string's dominator)")
const byEdge = new Map<string, number>()
for (let v = 0; v < count; v++) {
  if (!type(v).includes("string") || order[v]! < 0) continue
  const e = edgeFrom(idom[v]!, v)
  const key = /^\[\d+\]$/.test(e) ? `${label(idom[v]!)}[…]` : e
  byEdge.set(key, (byEdge.get(key) ?? 0) + self(v))
}
for (const [e, s] of [...byEdge].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${mb(s).padStart(9)}  ${e}`)

console.log("\n## Largest strings (MB, first characters)")
const strs = [...Array(count).keys()].filter((v) => type(v) === "string" && self(v) > 50_000)
strs.sort((a, b) => self(b) - self(a))
for (const v of strs.slice(0, top)) {
  console.log(`${mb(self(v)).padStart(9)}  ${JSON.stringify(name(v).slice(0, 90))}  ← ${path(v).slice(0, 160)}`)
}
