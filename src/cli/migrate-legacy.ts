/**
 * `npm run migrate:legacy -- --input legacy.jsonl --output report.jsonl [--apply] [--summary-line] [--fail-on-review] [--memo-size N]`
 * `npm run migrate:legacy -- verify [--samples N]`
 *
 * The legacy-ID batch (spec §9) on DATABASE_URL (or the embedded database in DATA_DIR).
 * The summary goes to stderr as one JSON line `{"summary":{...},"seconds":s,"linesPerSecond":n,
 * "peakRssMb":m}` (counts per status; the batch's wall time, excluding start-up; the process's
 * peak resident set). Progress is a bar on a TTY (redrawn at most 10 times a second), plain
 * lines every 100,000 lines otherwise. Exit code 0 when it ran; 2 with `--fail-on-review` while
 * AMBIGUOUS or CONFLICTED rows remain; 1 on an error (bad arguments, unreadable input).
 *
 * The npm script runs the compiled file with `--max-old-space-size=192 --max-semi-space-size=32`:
 * the batch's live heap is flat (about 50 MB, modules included), but with V8's defaults every
 * batch outlives a few scavenges while its lookup runs and is promoted, and V8 lets that garbage
 * grow the heap before collecting it. A larger young generation lets most batches die young;
 * the old-space bound makes V8 collect the rest early. Peak RSS then stays ~165-180 MB, plus
 * the memo of outcomes (`--memo-size`, default 131,072 locators, ~0.45 KB each: ~60 MB once full).
 *
 * Modules are imported by subpath, not from package indexes: `@effect/platform`'s index loads
 * every platform module (about 20 MB more heap, which every full GC of the batch marks again).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import cliProgress from "cli-progress"
import { Effect, Layer } from "effect"
import { parseArgs } from "node:util"
import { AppConfigLive } from "../../layers/AppConfig.js"
import { DbLive } from "../../layers/Db.js"
import { migrate } from "../db/migrate.js"
import { migrateLegacyIdentities, verifyCutover } from "../identity/LegacyMigration.js"
import { Resolver } from "../identity/Resolver.js"

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    input: { type: "string" },
    output: { type: "string" },
    apply: { type: "boolean", default: false },
    "summary-line": { type: "boolean", default: false },
    "fail-on-review": { type: "boolean", default: false },
    samples: { type: "string", default: "5" },
    "memo-size": { type: "string", default: "131072" }
  }
})

/** Progress: a bar on a TTY, else one line every 100,000 lines. */
const progress = () => {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: "migrate:legacy {value} lines | {rate} lines/s", stream: process.stderr, fps: 10 },
      cliProgress.Presets.shades_classic
    )
    const start = Date.now()
    bar.start(0, 0, { rate: 0 })
    return {
      update: (n: number) => bar.update(n, { rate: Math.round(n / Math.max((Date.now() - start) / 1000, 0.001)) }),
      stop: () => bar.stop()
    }
  }
  let next = 100_000
  return {
    update: (n: number) => {
      if (n < next) return
      process.stderr.write(`migrate:legacy: ${n} lines\n`)
      next = n - (n % 100_000) + 100_000
    },
    stop: () => undefined
  }
}

const batch = Effect.gen(function*() {
  if (values.input === undefined || values.output === undefined) {
    return yield* Effect.fail(new Error("usage: migrate:legacy --input <legacy.jsonl> --output <report.jsonl> [--apply] [--summary-line] [--fail-on-review] [--memo-size N]"))
  }
  const memoSize = Number(values["memo-size"])
  if (!Number.isSafeInteger(memoSize) || memoSize < 0) {
    return yield* Effect.fail(new Error("--memo-size must be a whole number of locators, 0 or more (0 turns the memo off)"))
  }
  const bar = progress()
  const started = performance.now()
  const summary = yield* migrateLegacyIdentities({
    input: values.input,
    output: values.output,
    apply: values.apply,
    summaryLine: values["summary-line"],
    memoSize,
    onProgress: bar.update
  }).pipe(Effect.ensuring(Effect.sync(bar.stop)))
  const seconds = (performance.now() - started) / 1000
  process.stderr.write(`${
    JSON.stringify({
      summary,
      seconds: Math.round(seconds * 1000) / 1000,
      linesPerSecond: Math.round(summary.lines / Math.max(seconds, 0.001)),
      // resourceUsage().maxRSS is in KiB
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024)
    })
  }\n`)
  if (values["fail-on-review"] && summary.reviewRows > 0) process.exitCode = 2
})

const verify = Effect.gen(function*() {
  const result = yield* verifyCutover(Number(values.samples))
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
})

;(positionals[0] === "verify" ? verify : batch).pipe(
  Effect.provide(Resolver.Default),
  Effect.provide(Layer.mergeAll(DbLive(migrate), NodeContext.layer).pipe(Layer.provideMerge(AppConfigLive))),
  NodeRuntime.runMain
)
