/**
 * The API-level middleware around every route (DESIGN §2 steps 1 and 6):
 *
 * 1. gives the request an id (`X-Request-Id`, `meta.requestId`, problem `requestId`);
 * 2. renders every failure as `application/problem+json` (spec §7, RFC 9457):
*    problem errors as they are; decode failures and malformed JSON as 400 with
 *    `errors` (JSON pointers, the rule broken, never the value sent); unknown paths as 404; an
 *    unavailable database as `dependency-unavailable` (see DependencyFailure.ts;
 *    logged once per outage by OutageLog); any other failure or defect as 500 with
 *    nothing internal on the wire (the cause is logged with the request id);
 * 3. answers nobody once the client has gone: a request whose connection closed before its
 *    answer ends as the client's abort (platform: an empty 499, logged as 499), never with a
 *    body. platform-node waits for a body's write to finish, uninterruptibly, and Node never
 *    finishes a write to a closed socket: such a request would hang in its fiber forever,
 *    without its access-log line (seen when a client dropped mid-body: the failed body read
 *    was answered with a 400 problem).
 */
import type { HttpApp } from "@effect/platform"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiError from "@effect/platform/HttpApiError"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpMethod from "@effect/platform/HttpMethod"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Cause, Effect, FiberRef, Layer, Option } from "effect"
import { type InvalidParam, isProblem, type Problem, toDocument, withRequest } from "../../schema/problem.js"
import { InternalError, InvalidRequest, MalformedBody, MissingIdempotencyKey, NoSuchOperation } from "../../schema/errors.js"
import { fieldsOf } from "../../schema/fields.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { Ids } from "../../layers/Ids.js"
import { Operations, type OperationTable } from "../api/policies.js"
import { admitBody, textRefusal } from "./RequestBody.js"
import { urlTextErrors } from "./RequestText.js"
import { dependencyProblem, isDependencyFailure, isDependencyProblem } from "./DependencyFailure.js"
import { OutageLog } from "./OutageLog.js"
import { CurrentRequest, type RequestInfo } from "../../layers/RequestContext.js"
import { clientAddress } from "./ClientAddress.js"

/** Renders a problem as its HTTP response (`Retry-After` when the problem has one). */
export const problemResponse = (problem: Problem, request: RequestInfo): HttpServerResponse.HttpServerResponse => {
  const rendered = withRequest(problem, request)
  return HttpServerResponse.unsafeJson(toDocument(rendered), {
    status: rendered.status,
    contentType: "application/problem+json",
    headers: {
      "cache-control": "no-store",
      ...(rendered.retryAfter !== undefined ? { "retry-after": String(rendered.retryAfter) } : {})
    }
  })
}

const bodyMethods = new Set(["POST", "PUT", "PATCH"])

/** Whether the client's connection has closed (on Node: its socket is destroyed), so nobody is left to answer. */
const clientGone = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const source = request.source as { readonly socket?: { readonly destroyed?: boolean } | null } | null
  return source?.socket?.destroyed === true
}

/** The request's end once its client has gone: the client's abort, as platform-node reports it. */
const abandoned = Effect.interruptWith(HttpServerError.clientAbortFiberId)

const escapePointer = (key: PropertyKey) => String(key).replace(/~/g, "~0").replace(/\//g, "~1")

/** Which part of the request a decode issue's first path key belongs to. */
const locate = (request: HttpServerRequest.HttpServerRequest, operations: OperationTable) => {
  const endpoint = Option.map(operations.find(request.method, request.url.split("?")[0] ?? ""), (op) => op.endpoint)
  const parts: ReadonlyArray<readonly [InvalidParam["in"], ReadonlyArray<PropertyKey>]> = Option.match(endpoint, {
    onNone: () => [],
    onSome: (e) => [
      ["path", fieldsOf(e.pathSchema)],
      ["query", fieldsOf(e.urlParamsSchema)],
      ["header", fieldsOf(e.headersSchema)],
      ["body", fieldsOf(e.payloadSchema)]
    ]
  })
  return (key: PropertyKey | undefined): InvalidParam["in"] =>
    parts.find(([, fields]) => key !== undefined && fields.includes(key))?.[0] ??
      (bodyMethods.has(request.method) ? "body" : "query")
}

/** At most this many `errors` entries in a 400, and this many characters in a pointer or detail. */
const MaxErrors = 20
const MaxChars = 200

const clip = (s: string) => (s.length > MaxChars ? s.slice(0, MaxChars) + "…" : s)

/**
 * The detail of one decode issue. Request schemas state their rule (`rule` in
 * schema/common.ts); a message of the default formatter (which prints the value
 * sent) is replaced, so a problem never echoes the input (DESIGN §3).
 */
export const issueDetail = (issue: HttpApiError.HttpApiDecodeError["issues"][number]): string => {
  if (issue._tag === "Missing") return "is required"
  if (issue._tag === "Unexpected") return "is not allowed"
  return /\bactual\b|Unable to decode|Expected /.test(issue.message) || issue.message.length > MaxChars
    ? "is not valid"
    : issue.message
}

/** The 400 of a schema decode failure: one `errors` entry per field (at most {@link MaxErrors}). */
const fromDecodeError = (
  e: HttpApiError.HttpApiDecodeError,
  request: HttpServerRequest.HttpServerRequest,
  operations: OperationTable
): InvalidRequest | MissingIdempotencyKey => {
  const where = locate(request, operations)
  const errors: Array<InvalidParam> = []
  for (const issue of e.issues) {
    const entry: InvalidParam = {
      in: where(issue.path[0]),
      pointer: clip(issue.path.length === 0 ? "" : "/" + issue.path.map(escapePointer).join("/")),
      detail: issueDetail(issue)
    }
    // a union reports each member's failure at the same pointer: keep the first
    if (errors.some((x) => x.in === entry.in && x.pointer === entry.pointer)) continue
    errors.push(entry)
    if (errors.length === MaxErrors) break
  }
  const missingKey = errors.some((x) => x.in === "header" && x.pointer === "/idempotency-key")
  return missingKey
    ? new MissingIdempotencyKey({ detail: "This operation needs an Idempotency-Key header holding a uuid.", errors })
    : new InvalidRequest({
      detail: `The request is not valid: ${errors.map((x) => `${x.in} ${x.pointer || "(root)"} ${x.detail}`).join("; ")}`,
      errors
    })
}

/** Maps any failure of a route to the problem it is answered with. */
const toProblem = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest,
  operations: OperationTable
): { readonly problem: Problem; readonly unexpected: boolean } => {
  const error = Option.getOrElse(Cause.failureOption(cause), () => Cause.squash(cause))
  if (isProblem(error)) return { problem: error, unexpected: false }
  if (error instanceof HttpApiError.HttpApiDecodeError) return { problem: fromDecodeError(error, request, operations), unexpected: false }
  if (HttpServerError.isServerError(error)) {
    if (error._tag === "RouteNotFound") {
      return {
        problem: new NoSuchOperation({ detail: `There is no operation ${request.method} ${request.url.split("?")[0]}.` }),
        unexpected: false
      }
    }
    if (error._tag === "RequestError" && error.reason === "Decode") {
      return {
        problem: new MalformedBody({
          detail: "The request body is not valid JSON.",
          errors: [{ in: "body", pointer: "", detail: "malformed JSON" }]
        }),
        unexpected: false
      }
    }
  }
  if (isDependencyFailure(error)) {
    return { problem: dependencyProblem(operations.find(request.method, request.url.split("?")[0] ?? "")), unexpected: false }
  }
  return { problem: new InternalError({ detail: "An unexpected error occurred; quote the requestId when reporting it." }), unexpected: true }
}

/**
 * The request middleware, as an HttpApi-level middleware layer: admits the path and query
 * (text rule: see RequestText.ts) and the body of every method that has one (media type,
 * size, encoding, nesting, text rule: see RequestBody.ts) before the handler reads them.
 * Requires `Ids`, `Operations` and `AppConfig` (`maxBodyBytes`).
 */
export const RequestMiddlewareLive = HttpApiBuilder.middleware(
  Effect.map(Effect.all([Ids, Operations, AppConfig, OutageLog]), ([ids, operations, config, outage]) => (app: HttpApp.Default) => {
    // hot path: a flatMap chain rather than Effect.gen, and no scoped FiberRef (each Effect.locally is an
    // acquire/use/release of ~15 runtime operations) where a plain set on the request's own fiber does
    const maxBodySize = Option.some(config.maxBodyBytes)
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.flatMap(ids.next, (requestId) => {
        const info: RequestInfo = {
          requestId,
          instance: request.url.split("?")[0] ?? "/",
          clientAddress: clientAddress(request, config.trustedProxyHops)
        }
        // the path and query obey the text rule (RequestText.ts) whatever the operation
        const urlErrors = urlTextErrors(request.method, request.url, operations)
        // platform reads a body only for methods that have one (HttpMethod.hasBody: DELETE too); a body
        // sent with GET, HEAD or OPTIONS is never read, and Node discards it once the answer is written
        const handled = urlErrors.length > 0
          ? Effect.fail(textRefusal(urlErrors))
          : HttpMethod.hasBody(request.method)
          ? HttpIncomingMessage.withMaxBodySize(
            Effect.flatMap(admitBody(request, config.maxBodyBytes), (admitted) =>
              admitted === request ? app : Effect.provideService(app, HttpServerRequest.HttpServerRequest, admitted)),
            maxBodySize
          )
          : app
        // each request runs in its own fiber (the server forks one per request), so setting the
        // FiberRef there scopes it to the request without Effect.locally's restore
        return FiberRef.set(CurrentRequest, info).pipe(
          Effect.zipRight(handled),
          Effect.tap(outage.success),
          Effect.catchAllCause((cause) => {
            // re-raised as it is: an interruption by the client's abort stays one (platform answers 499, not 503)
            if (Cause.isInterruptedOnly(cause)) return Effect.failCause(Cause.stripFailures(cause))
            const { problem, unexpected } = toProblem(cause, request, operations)
            return (unexpected
              ? Effect.logError("request failed", cause).pipe(Effect.annotateLogs({ requestId: info.requestId }))
              : isDependencyProblem(problem)
              ? outage.failure(cause)
              : Effect.void).pipe(Effect.as(problemResponse(problem, info)))
          }),
          // after the failure is logged and counted as usual: only the answer is dropped
          Effect.flatMap((response) =>
            clientGone(request) ? abandoned : Effect.succeed(HttpServerResponse.setHeader(response, "x-request-id", info.requestId))
          )
        )
      }))
  })
).pipe(Layer.provide(OutageLog.Default))
