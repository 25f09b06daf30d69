/**
 * Admission of a request body at the edge (DESIGN §2 step 2, "limits"), before any
 * handler reads or parses it:
 *
 * - media type exactly `application/json` (parameters such as `charset` allowed),
 *   else 400 `unsupported-content-type` (today's HttpApiBuilder would pick a parser
 *   by substring: `multipart/…` failed as a 500, `application/jsonx` passed as JSON);
 * - at most `maxBytes` bytes, enforced while reading: a declared `Content-Length`
 *   over the limit is refused without reading, a streamed body is cut off as soon as
 *   it passes the limit (@effect/platform's `MaxBodySize`, which platform-node checks
 *   chunk by chunk), else 400 `body-too-large`;
 * - JSON nested at most {@link MaxJsonDepth} levels, checked on the text before it is
 *   parsed or decoded, else 400 `nesting-too-deep` (deeper input overflowed the stack
 *   while a decode failure was formatted).
 *
 * The text read here is cached by the request, so the handler's decode reuses it.
 */
import type { HttpServerRequest } from "@effect/platform"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import { Effect, Option } from "effect"
import { BodyTooLarge, MalformedBody, NestingTooDeep, UnsupportedContentType } from "../../schema/errors.js"

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
export type BodyRefusal = UnsupportedContentType | BodyTooLarge | MalformedBody | NestingTooDeep

/**
 * Checks a body-carrying request's media type, size and nesting, reading its body
 * (cached for the handler). Fails with a 400 {@link BodyRefusal}: `unsupported-content-type`,
 * `body-too-large`, `malformed-body` (unreadable), `nesting-too-deep`.
 */
export const admitBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number
): Effect.Effect<void, BodyRefusal> =>
  Effect.gen(function*() {
    if (!hasBody(request.headers)) return
    if (!isJsonMediaType(request.headers["content-type"])) {
      return yield* new UnsupportedContentType({
        detail: "Request bodies must be application/json.",
        errors: [{ in: "header", pointer: "/content-type", detail: "must be application/json" }]
      })
    }
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > maxBytes) return yield* bodyTooLarge(maxBytes)
    const text = yield* request.text.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(maxBytes)),
      Effect.mapError((e): BodyTooLarge | MalformedBody =>
        HttpServerError.isServerError(e) && e._tag === "RequestError" && isOverLimit(e.cause)
          ? bodyTooLarge(maxBytes)
          : new MalformedBody({
            detail: "The request body could not be read.",
            errors: [{ in: "body", pointer: "", detail: "could not be read" }]
          })
      )
    )
    if (jsonDepth(text) > MaxJsonDepth) {
      return yield* new NestingTooDeep({
        detail: `JSON bodies may nest arrays and objects at most ${MaxJsonDepth} levels deep.`,
        errors: [{ in: "body", pointer: "", detail: `must nest at most ${MaxJsonDepth} levels` }]
      })
    }
  })

/** platform-node fails a body over `MaxBodySize` with this error (see its `NodeStream.toString`). */
const isOverLimit = (cause: unknown) => cause instanceof Error && cause.message === "maxBytes exceeded"
