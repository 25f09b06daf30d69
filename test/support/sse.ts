/**
 * A Server-Sent Events client for tests and benchmarks (WHATWG HTML §9.2 parsing of the
 * `text/event-stream` our server sends: `\n` line ends): open a stream, read its blocks
 * as they arrive, wait for one, or for the end.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Deferred, Effect, Fiber, Stream } from "effect"
import type { Session } from "./http.js"
import { waitFor } from "./waitFor.js"

/** One block of the stream: an event, a comment, or a `retry` field. */
export type SseItem =
  | { readonly _tag: "event"; readonly id: string | undefined; readonly event: string; readonly data: unknown }
  | { readonly _tag: "comment"; readonly text: string }
  | { readonly _tag: "retry"; readonly ms: number }

/** Parses one block (the lines between two empty lines). */
export const parseBlock = (block: string): ReadonlyArray<SseItem> => {
  const items: Array<SseItem> = []
  let id: string | undefined
  let event = "message"
  const data: Array<string> = []
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) {
      items.push({ _tag: "comment", text: line.slice(1).trim() })
      continue
    }
    const at = line.indexOf(":")
    const field = at < 0 ? line : line.slice(0, at)
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "")
    if (field === "id") id = value
    else if (field === "event") event = value
    else if (field === "data") data.push(value)
    else if (field === "retry") items.push({ _tag: "retry", ms: Number(value) })
  }
  if (data.length > 0) items.push({ _tag: "event", id, event, data: JSON.parse(data.join("\n")) })
  return items
}

/** Parses a whole stream's text. */
export const parseSse = (text: string): ReadonlyArray<SseItem> =>
  text.split("\n\n").filter((b) => b !== "").flatMap(parseBlock)

/** The events of `items`, as `{id, event, data}`. */
export const eventsOf = (items: ReadonlyArray<SseItem>) =>
  items.flatMap((i) => i._tag === "event" ? [{ id: i.id, event: i.event, data: i.data }] : [])

/** An open stream: what arrived so far, and its end. */
export interface OpenStream {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The blocks received so far (grows while the stream is read). */
  readonly items: Array<SseItem>
  /** Completes when the server closed the stream. */
  readonly ended: Deferred.Deferred<void>
  /** Waits (real time, at most `timeoutMs`) until `check(items)` holds; dies otherwise. */
  readonly until: (what: string, check: (items: ReadonlyArray<SseItem>) => boolean, timeoutMs?: number) => Effect.Effect<void>
  /** Waits (at most `timeoutMs`) for the server to close the stream; dies otherwise. */
  readonly end: (timeoutMs?: number) => Effect.Effect<ReadonlyArray<SseItem>>
  /** Closes the stream from the client's side. */
  readonly close: Effect.Effect<void>
}

/**
 * GETs `url` as an EventSource would (`Accept: text/event-stream`, the session's cookie,
 * `Last-Event-ID` when given) and reads the body in the background until the server closes
 * it or the scope closes. A non-200 answer is returned with its whole body as `text`.
 */
export const openSse = (url: string, options: { readonly session?: Session; readonly lastEventId?: string } = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const headers: Record<string, string> = { accept: "text/event-stream" }
    if (options.session) headers["cookie"] = options.session.cookie
    if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId
    const response = yield* client.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders(headers)))
    const items: Array<SseItem> = []
    const ended = yield* Deferred.make<void>()
    let text = ""
    let done = false
    const finish = Effect.zipRight(Effect.sync(() => (done = true)), Deferred.succeed(ended, undefined))
    if (response.status !== 200) {
      text = yield* response.text
      yield* finish
    }
    const reader = response.status !== 200 ? undefined : yield* response.stream.pipe(
      Stream.decodeText(),
      Stream.runForEach((chunk) =>
        Effect.sync(() => {
          text += chunk
          let at: number
          while ((at = text.indexOf("\n\n")) >= 0) {
            items.push(...parseBlock(text.slice(0, at)))
            text = text.slice(at + 2)
          }
        })
      ),
      Effect.ensuring(finish),
      Effect.forkScoped
    )
    const waitUntil = (what: string, check: () => boolean, timeoutMs: number) =>
      Effect.asVoid(waitFor(what, Effect.sync(() => check() ? true : undefined), timeoutMs, 20, () => `: ${JSON.stringify(items)}`))
    return {
      status: response.status,
      headers: response.headers,
      text: () => text,
      items,
      ended,
      until: (what, check, timeoutMs = 20_000) => waitUntil(what, () => check(items), timeoutMs),
      end: (timeoutMs = 20_000) => Effect.as(waitUntil("the end of the stream", () => done, timeoutMs), items),
      close: reader === undefined ? Effect.void : Fiber.interrupt(reader)
    } satisfies OpenStream & { text: () => string }
  })
