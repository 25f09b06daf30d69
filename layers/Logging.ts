/**
 * The process logger of the server: one line per log event, written without
 * blocking the event loop (an asynchronous `sonic-boom` stream on stdout). Lines are
 * gathered into writes of at least {@link LogBatchBytes} bytes, and whatever is
 * buffered is written every {@link LogFlushMillis} ms and when the scope closes: one
 * write per request would cost a thread-pool round trip per request, the largest
 * single cost of a cheap request (measured: see README, Performance).
 *
 * - `json`: one JSON object per line: `{ time, level, msg, ...annotations, spans?, cause? }`
 *   (`time` ISO-8601, `spans` in ms); for log shippers and production.
 * - `pretty`: Effect's human-readable logger (terminals, development).
 * - `auto`: `pretty` when stdout is a TTY, else `json`.
 *
 * The minimum level comes from `LOG_LEVEL`; events below it cost no formatting.
 */
import { Cause, Effect, HashMap, Layer, List, Logger } from "effect"
import { configure } from "safe-stable-stringify"
import SonicBoomModule from "sonic-boom"
import type { AppConfigShape } from "./AppConfig.js"

// a CommonJS module: Node's ESM loader exposes only its default export
const { SonicBoom } = SonicBoomModule
type SonicBoom = InstanceType<typeof SonicBoom>

// insertion order, no sorting: fast, and still safe for circular or bigint values
const stringify = configure({ deterministic: false, bigint: true })

const jsonLine = (sink: SonicBoom) =>
  Logger.make<unknown, void>(({ annotations, cause, date, logLevel, message, spans }) => {
    const line: Record<string, unknown> = {
      time: date.toISOString(),
      level: logLevel.label,
      msg: Array.isArray(message) && message.length === 1 ? message[0] : message
    }
    for (const [key, value] of HashMap.toEntries(annotations)) line[key] = value
    if (List.isCons(spans)) {
      const now = date.getTime()
      line["spans"] = Object.fromEntries(List.toArray(spans).map((s) => [s.label, now - s.startTime]))
    }
    if (!Cause.isEmpty(cause)) line["cause"] = Cause.pretty(cause)
    sink.write(stringify(line) + "\n")
  })

/** Bytes gathered before a log write. */
export const LogBatchBytes = 4096
/** Longest time a log line waits in the buffer, in milliseconds. */
export const LogFlushMillis = 200

const jsonLogger = Layer.unwrapScoped(Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => new SonicBoom({ fd: 1, sync: false, minLength: LogBatchBytes, periodicFlush: LogFlushMillis })),
    (sink) => Effect.async<void>((resume) => {
      sink.flush(() => resume(Effect.void))
    }).pipe(Effect.timeout("2 seconds"), Effect.ignore)
  ),
  (sink) => Logger.replace(Logger.defaultLogger, jsonLine(sink))
))

/** The logger and minimum level the configuration asks for. */
export const LoggingLive = (config: Pick<AppConfigShape, "logFormat" | "logLevel">): Layer.Layer<never> => {
  const pretty = config.logFormat === "pretty" || (config.logFormat === "auto" && process.stdout.isTTY === true)
  return Layer.merge(
    pretty ? Logger.pretty : jsonLogger,
    Logger.minimumLogLevel(config.logLevel)
  )
}
