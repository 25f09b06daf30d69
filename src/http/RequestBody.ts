/**
 * Admission of a request body at the edge (DESIGN §2 step 2, "limits"), before any
 * handler reads or parses it:
 *
 * - media type exactly `application/json` (parameters such as `charset` allowed),
 *   else 400 `unsupported-content-type` (today's HttpApiBuilder would pick a parser
 *   by substring: `multipart/…` failed as a 500, `application/jsonx` passed as JSON);
 * - at most `maxBytes` bytes, enforced while reading: a declared `Content-Length`
 *   over the limit is refused without reading, a streamed body is no longer kept as soon
 *   as it passes the limit (the rest flows by unread; the connection stays, so the
 *   answer arrives), else 400 `body-too-large`;
 * - UTF-8 (RFC 8259 §8.1), else 400 `malformed-body`;
 * - JSON nested at most {@link MaxJsonDepth} levels, checked on the text before it is
 *   parsed or decoded, else 400 `nesting-too-deep` (deeper input overflowed the stack
 *   while a decode failure was formatted);
 * - no string (or key) with U+0000 or an unpaired surrogate (RequestText.ts), else 400
 *   `invalid-request` naming each by its JSON pointer.
 *
 * The text read here travels with the request {@link admitBody} returns (its `text`), so the
 * handler's decode reuses it.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import type { IncomingMessage } from "node:http"
import { BodyTooLarge, InvalidRequest, MalformedBody, NestingTooDeep, UnsupportedContentType } from "../../schema/errors.js"
import type { InvalidParam } from "../../schema/problem.js"
import { bodyTextErrors } from "./RequestText.js"

/** Deepest JSON nesting (arrays and objects) a request body may have. */
export const MaxJsonDepth = 64

/** True when the request carries a body (declared length above 0, or chunked). */
const hasBody = (headers: HttpServerRequest.HttpServerRequest["headers"]) =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0")

const isJsonMediaType = (contentType: string | undefined) =>
  contentType !== undefined && contentType.split(";")[0]!.trim().toLowerCase() === "application/json"

/**
 * The 400 of a body over the limit. Node discards (never buffers) what the client
 * still sends after the answer; closing the connection instead would make the
 * client's kernel see a reset and lose the answer.
 */
export const bodyTooLarge = (maxBytes: number) =>
  new BodyTooLarge({
    detail: `Request bodies are limited to ${maxBytes} bytes.`,
    errors: [{ in: "body", pointer: "", detail: `must be at most ${maxBytes} bytes` }]
  })

/** The deepest nesting of arrays and objects in a JSON text (strings skipped). */
export const jsonDepth = (text: string): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 /* [ */ || c === 123 /* { */) max = Math.max(max, ++depth)
    else if (c === 93 /* ] */ || c === 125 /* } */) depth--
  }
  return max
}

/** The 400 causes of {@link admitBody}. */
export type BodyRefusal = UnsupportedContentType | BodyTooLarge | MalformedBody | NestingTooDeep | InvalidRequest

const unreadable = (detail: string) =>
  new MalformedBody({ detail: `The request body ${detail}.`, errors: [{ in: "body", pointer: "", detail }] })

/**
 * Reads the body of `source` as UTF-8 (RFC 8259 §8.1), at most `maxBytes` bytes. Over the
 * limit it stops keeping the bytes and lets the rest flow by unread, but never destroys the
 * stream: destroying a request stream destroys its socket, and the client then got no
 * answer at all (what platform-node's bounded read does, see its `NodeStream.toString`).
 * Node discards what the client still sends once the answer is written, and keeps the
 * connection. Fails with `body-too-large`, or `malformed-body` for a body that is not UTF-8
 * or that the client abandoned.
 */
const readUtf8 = (source: IncomingMessage, maxBytes: number): Effect.Effect<string, BodyTooLarge | MalformedBody> =>
  Effect.async<string, BodyTooLarge | MalformedBody>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    let done = false
    const cleanup = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
    }
    const finish = (effect: Effect.Effect<string, BodyTooLarge | MalformedBody>) => {
      if (done) return
      done = true
      cleanup()
      resume(effect)
    }
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk
      bytes += buffer.length
      if (bytes <= maxBytes) return void chunks.push(buffer)
      chunks.length = 0
      finish(Effect.fail(bodyTooLarge(maxBytes)))
      // unread, discarded: the stream keeps flowing without a listener
      source.resume()
    }
    const onEnd = () => {
      try {
        finish(Effect.succeed(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks))))
      } catch {
        finish(Effect.fail(unreadable("is not valid UTF-8")))
      }
    }
    const onError = () => finish(Effect.fail(unreadable("could not be read")))
    const onClose = () => finish(Effect.fail(unreadable("could not be read")))
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("close", onClose)
    return Effect.sync(cleanup)
  })

/**
 * Checks a body-carrying request's media type, size, encoding, nesting and strings (see
 * RequestText.ts), reading its body once. Succeeds with the request to serve: the same one
 * when it has no body, else one whose `text` (and so `json`) is the body read here, so the
 * handler's decode reuses it. Fails with a 400 {@link BodyRefusal}: `unsupported-content-type`,
 * `body-too-large`, `malformed-body` (unreadable, not UTF-8), `nesting-too-deep`,
 * `invalid-request` (a string with U+0000 or an unpaired surrogate, named by its pointer).
 */
export const admitBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<HttpServerRequest.HttpServerRequest, BodyRefusal> =>
  Effect.gen(function*() {
    if (!hasBody(request.headers)) return request
    if (!isJsonMediaType(request.headers["content-type"])) {
      return yield* new UnsupportedContentType({
        detail: "Request bodies must be application/json.",
        errors: [{ in: "header", pointer: "/content-type", detail: "must be application/json" }]
      })
    }
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > maxBytes) return yield* bodyTooLarge(maxBytes)
    const text = yield* readUtf8(request.source as IncomingMessage, maxBytes)
    if (jsonDepth(text) > MaxJsonDepth) {
      return yield* new NestingTooDeep({
        detail: `JSON bodies may nest arrays and objects at most ${MaxJsonDepth} levels deep.`,
        errors: [{ in: "body", pointer: "", detail: `must nest at most ${MaxJsonDepth} levels` }]
      })
    }
    const errors = bodyTextErrors(text)
    if (errors.length > 0) return yield* textRefusal(errors)
    // the request with its body read: everything else (source, headers, url) is the request's own
    return Object.create(request, { text: { value: Effect.succeed(text) } }) as HttpServerRequest.HttpServerRequest
  })

/** The 400 `invalid-request` of request strings breaking the text rule (RequestText.ts). */
export const textRefusal = (errors: ReadonlyArray<InvalidParam>) =>
  new InvalidRequest({
    detail: `The request is not valid: ${errors.map((x) => `${x.in} ${x.pointer || "(root)"} ${x.detail}`).join("; ")}`,
    errors: [...errors]
  })
