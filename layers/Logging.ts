/**
 * The process logger of the server: one line per log event, written without
 * blocking the event loop (an asynchronous `sonic-boom` stream on stdout). Lines are
 * gathered into writes of at least {@link LogBatchBytes} bytes, and whatever is
 * buffered is written every {@link LogFlushMillis} ms and when the scope closes: one
 * write per request would cost a thread-pool round trip per request, the largest
 * single cost of a cheap request (measured: see docs/performance.md).
 *
 * - `json`: one JSON object per line: `{ time, level, msg, ...annotations, spans?, cause? }`
 *   (`time` ISO-8601, `spans` in ms); for log shippers and production.
 * - `pretty`: Effect's human-readable logger (terminals, development).
 * - `auto`: `pretty` when stdout is a TTY, else `json`.
 *
 * The minimum level comes from `LOG_LEVEL`; events below it cost no formatting.
 *
 * The access log ({@link AccessLog}, one event per request) is written by the same
 * logger but without a fiber: the event's line is built and written synchronously,
 * because on a cheap request the Effect logging path (annotations, FiberRefs, a log
 * call, a generic serialiser) cost more than the request itself (docs/performance.md).
 */
import { Cause, Context, Effect, FiberId, FiberRefs, HashMap, Layer, List, Logger, LogLevel } from "effect"
import { configure } from "safe-stable-stringify"
import SonicBoomModule from "sonic-boom"
import type { AppConfigShape } from "./AppConfig.js"

// a CommonJS module: Node's ESM loader exposes only its default export
const { SonicBoom } = SonicBoomModule
type SonicBoom = InstanceType<typeof SonicBoom>

// insertion order, no sorting: fast, and still safe for circular or bigint values
const stringify = configure({ deterministic: false, bigint: true })

/** The JSON logger, writing to `sink` (anything with `write(string)`). @internal exported for tests */
export const jsonLine = (sink: Pick<SonicBoom, "write">) =>
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

/**
 * A URL as logs carry it: scheme, host and path only. The query string and fragment (where
 * API keys and tokens travel) and any user name or password are left out. Every log event
 * that names a URL (an endpoint probed, a server fetched) names it through this; text that
 * is not an absolute URL is logged as `<not a URL>`.
 */
export const loggedUrl = (url: string | URL): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}${parsed.host === "" ? "" : `//${parsed.host}`}${parsed.pathname}`
  } catch {
    return "<not a URL>"
  }
}

/** Bytes gathered before a log write. */
export const LogBatchBytes = 4096
/** Longest time a log line waits in the buffer, in milliseconds. */
export const LogFlushMillis = 200

/**
 * One access-log event (src/http/AccessLog.ts): logged at `Info` with message `http`
 * and these fields as annotations. `path` has no query string; `ms` is the time from
 * the request to its response, in milliseconds (one decimal).
 */
export interface AccessEvent {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly ms: number
  readonly requestId: string | undefined
}

/**
 * Where access events go. `write` logs one event now, synchronously (no fiber); when it
 * is undefined (the default: an app that mounts the API with its own logger), events go
 * through the calling fiber's Effect logger instead, like any `Effect.logInfo` call.
 */
export class AccessLog extends Context.Reference<AccessLog>()("agent-directory/AccessLog", {
  defaultValue: (): { readonly write: ((event: AccessEvent) => void) | undefined } => ({ write: undefined })
}) {}

/** The JSON line of an access event: the fields {@link jsonLine} writes for it, built directly. @internal exported for tests */
export const accessJson = (e: AccessEvent, date: Date) =>
  `{"time":"${date.toISOString()}","level":"INFO","msg":"http","method":${JSON.stringify(e.method)},` +
  `"path":${JSON.stringify(e.path)},"status":${e.status},"ms":${e.ms}` +
  (e.requestId === undefined ? "}\n" : `,"requestId":${JSON.stringify(e.requestId)}}\n`)

/** An access event through `logger` without a fiber (no fiber id, spans or context). */
const viaLogger = (logger: Logger.Logger<unknown, unknown>) => (e: AccessEvent) =>
  logger.log({
    fiberId: FiberId.none,
    logLevel: LogLevel.Info,
    message: "http",
    cause: Cause.empty,
    context: FiberRefs.empty(),
    spans: List.empty(),
    annotations: HashMap.make(["method", e.method], ["path", e.path], ["status", e.status], ["ms", e.ms], [
      "requestId",
      e.requestId
    ]),
    date: new Date()
  })

const sinkLayer = <A>(f: (sink: SonicBoom) => Layer.Layer<A>) =>
  Layer.unwrapScoped(Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => new SonicBoom({ fd: 1, sync: false, minLength: LogBatchBytes, periodicFlush: LogFlushMillis })),
      (sink) => Effect.async<void>((resume) => {
        sink.flush(() => resume(Effect.void))
      }).pipe(Effect.timeout("2 seconds"), Effect.ignore)
    ),
    f
  ))

/** The logger and minimum level the configuration asks for, and the matching {@link AccessLog}. */
export const LoggingLive = (config: Pick<AppConfigShape, "logFormat" | "logLevel">): Layer.Layer<AccessLog> => {
  const pretty = config.logFormat === "pretty" || (config.logFormat === "auto" && process.stdout.isTTY === true)
  const accessLogged = LogLevel.greaterThanEqual(LogLevel.Info, config.logLevel)
  const access = (write: (event: AccessEvent) => void) =>
    Layer.succeed(AccessLog, { write: accessLogged ? write : () => undefined })
  return Layer.mergeAll(
    pretty
      ? Layer.merge(Logger.pretty, access(viaLogger(Logger.prettyLoggerDefault)))
      : sinkLayer((sink) =>
        Layer.merge(
          Logger.replace(Logger.defaultLogger, jsonLine(sink)),
          access((event) => sink.write(accessJson(event, new Date())))
        )
      ),
    Logger.minimumLogLevel(config.logLevel)
  )
}
