/**
 * Problem details (spec §7, RFC 9457): one tagged error per status, each with a
 * Schema that encodes it as an `application/problem+json` document:
 *
 * `{ type, title, status, detail, instance, requestId, errors? }`
 *
 * - `type` is a stable URI per problem kind (`${ProblemTypeBase}<slug>`); several
 *   kinds share a status (409 `version-conflict`, `idempotency-key-reuse`, ...).
 * - `instance` is the request path, `requestId` the request's id (also the
 *   `X-Request-Id` header). Both are filled in when the error is rendered, so
 *   domain code raises errors without knowing the request.
 * - 400 carries `errors`: one entry per invalid input, with a JSON pointer.
 *
 * No `_tag`, stack or SQL text ever reaches the wire.
 */
import { HttpApiSchema } from "@effect/platform"
import { type Cause, Data, ParseResult, Schema } from "effect"
import { Uuid } from "./common.js"

/** Base URI of the problem `type`s. */
export const ProblemTypeBase = "https://agent-directory.dev/problems/"

/** One invalid input of a 400: `pointer` is a JSON pointer into the request part named by `in`. */
export const InvalidParam = Schema.Struct({
  in: Schema.Literal("body", "query", "path", "header"),
  pointer: Schema.String,
  detail: Schema.String
}).annotations({ identifier: "InvalidParam" })
export type InvalidParam = typeof InvalidParam.Type

/** The wire document of every error response (spec §7). */
export const ProblemDocument = Schema.Struct({
  type: Schema.String.annotations({ jsonSchema: { format: "uri" } }),
  title: Schema.String,
  status: Schema.Int.pipe(Schema.between(400, 599)),
  detail: Schema.String,
  instance: Schema.String,
  requestId: Uuid,
  errors: Schema.optional(Schema.Array(InvalidParam))
}).annotations({ identifier: "Problem" })
export type ProblemDocument = typeof ProblemDocument.Type

/** What a problem error carries; `instance` and `requestId` are filled at render time. */
export interface ProblemArgs {
  /** Human-readable explanation specific to this occurrence. */
  readonly detail: string
  /** Problem kind slug (appended to {@link ProblemTypeBase}); defaults to the status's kind. */
  readonly kind?: string | undefined
  readonly instance?: string | undefined
  readonly requestId?: string | undefined
  /** 400 only: the invalid inputs. */
  readonly errors?: ReadonlyArray<InvalidParam> | undefined
  /** Seconds after which a retry may succeed; rendered as the `Retry-After` header. */
  readonly retryAfter?: number | undefined
}

/** A problem error instance: a yieldable tagged error with its `type`, `status` and `title`. */
export type ProblemInstance<Tag extends string, Status extends number> = Cause.YieldableError & {
  readonly _tag: Tag
  readonly type: string
  readonly status: Status
  readonly title: string
} & Readonly<ProblemArgs>

/** The class of one problem status (spelled out so the declaration files can name it). */
export interface ProblemClass<Tag extends string, Status extends number> {
  new(args: ProblemArgs): ProblemInstance<Tag, Status>
  readonly status: Status
  readonly title: string
  readonly defaultKind: string
}

const makeProblem = <const Tag extends string, const Status extends number>(
  tag: Tag,
  status: Status,
  title: string,
  defaultKind: string
): ProblemClass<Tag, Status> =>
  class extends Data.TaggedError(tag)<ProblemArgs> {
    static readonly status: Status = status
    static readonly title: string = title
    static readonly defaultKind: string = defaultKind
    /** The problem `type` URI. */
    get type(): string {
      return ProblemTypeBase + (this.kind ?? defaultKind)
    }
    get status(): Status {
      return status
    }
    get title(): string {
      return title
    }
  }

/** 400: the request is malformed or fails validation (`errors` lists each input). */
export class BadRequest extends makeProblem("BadRequest", 400, "Bad Request", "invalid-request") {}
/** 401: no valid credential. One identical body whatever the cause (spec §5.3). */
export class Unauthorized extends makeProblem("Unauthorized", 401, "Unauthorized", "unauthenticated") {}
/** 403: authenticated but not allowed (scope, role, CSRF, origin, recent authentication). */
export class Forbidden extends makeProblem("Forbidden", 403, "Forbidden", "forbidden") {}
/** 404: the resource does not exist or is not visible to the caller. */
export class NotFound extends makeProblem("NotFound", 404, "Not Found", "not-found") {}
/** 409: version conflict, state conflict, idempotency key reuse or in-flight request. */
export class Conflict extends makeProblem("Conflict", 409, "Conflict", "conflict") {}
/** 410: the challenge expired (wallet and trust operations). */
export class Gone extends makeProblem("Gone", 410, "Gone", "challenge-expired") {}
/** 422: configuration missing, or proof invalid. */
export class UnprocessableEntity extends makeProblem(
  "UnprocessableEntity",
  422,
  "Unprocessable Entity",
  "unprocessable"
) {}
/** 423: a policy lock prevents the operation (workspace read, session revoke). */
export class Locked extends makeProblem("Locked", 423, "Locked", "policy-locked") {}
/** 429: the request budget is exhausted. */
export class TooManyRequests extends makeProblem("TooManyRequests", 429, "Too Many Requests", "rate-limited") {}
/** 500: an unexpected failure; nothing internal is revealed. */
export class InternalServerError extends makeProblem(
  "InternalServerError",
  500,
  "Internal Server Error",
  "internal-error"
) {}
/** 503: a dependency is unavailable. */
export class ServiceUnavailable extends makeProblem(
  "ServiceUnavailable",
  503,
  "Service Unavailable",
  "dependency-unavailable"
) {}

/** Every problem error, by status. */
export const ProblemByStatus = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  410: Gone,
  422: UnprocessableEntity,
  423: Locked,
  429: TooManyRequests,
  500: InternalServerError,
  503: ServiceUnavailable
} as const

/** A status that has a problem error. */
export type ProblemStatus = keyof typeof ProblemByStatus
/** The union of every problem error. */
export type Problem = InstanceType<(typeof ProblemByStatus)[ProblemStatus]>

const problemClasses: ReadonlyArray<(typeof ProblemByStatus)[ProblemStatus]> = Object.values(ProblemByStatus)

/** True for any problem error of this module. */
export const isProblem = (u: unknown): u is Problem => problemClasses.some((cls) => u instanceof cls)

/**
 * The wire document of a problem error. `requestId` and `instance` must have been
 * filled in (see {@link withRequest}).
 */
export const toDocument = (e: Problem): ProblemDocument => ({
  type: e.type,
  title: e.title,
  status: e.status,
  detail: e.detail,
  instance: e.instance ?? "",
  requestId: e.requestId ?? "",
  ...(e.errors !== undefined ? { errors: e.errors } : {})
})

const slugOf = (type: string) => (type.startsWith(ProblemTypeBase) ? type.slice(ProblemTypeBase.length) : type)

const schemaCache = new Map<ProblemStatus, Schema.Schema.Any>()

/**
 * The Schema of one status's problem: decodes a problem document into the tagged
 * error (typed clients) and encodes the error as the document, annotated with the
 * status and `application/problem+json` (OpenAPI).
 */
export const problemSchema = <S extends ProblemStatus>(
  status: S
): Schema.Schema<InstanceType<(typeof ProblemByStatus)[S]>, ProblemDocument> => {
  const cached = schemaCache.get(status)
  if (cached) return cached as never
  const Cls = ProblemByStatus[status] as unknown as new(args: ProblemArgs) => InstanceType<(typeof ProblemByStatus)[S]>
  const schema = Schema.transformOrFail(
    ProblemDocument,
    Schema.declare((u): u is InstanceType<(typeof ProblemByStatus)[S]> => u instanceof Cls, {
      identifier: `${ProblemByStatus[status].title.replace(/ /g, "")}Problem`
    }),
    {
      strict: true,
      decode: (doc) =>
        ParseResult.succeed(
          new Cls({
            detail: doc.detail,
            kind: slugOf(doc.type),
            instance: doc.instance,
            requestId: doc.requestId,
            errors: doc.errors
          })
        ),
      encode: (e, _, ast) =>
        e.requestId === undefined || e.instance === undefined
          ? ParseResult.fail(new ParseResult.Type(ast, e, "problem rendered without a request"))
          : ParseResult.decodeUnknown(ProblemDocument)(toDocument(e))
    }
  ).pipe(
    HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/problem+json" }),
    (s) =>
      s.annotations({
        ...HttpApiSchema.annotations({ status }),
        description: ProblemByStatus[status].title
      })
  )
  schemaCache.set(status, schema)
  return schema as never
}

/** Fills in the request's `instance` (path) and `requestId` on a problem. */
export const withRequest = (e: Problem, request: { readonly instance: string; readonly requestId: string }): Problem => {
  const Cls = ProblemByStatus[e.status] as unknown as new(args: ProblemArgs) => Problem
  return new Cls({
    detail: e.detail,
    kind: e.kind,
    errors: e.errors,
    retryAfter: e.retryAfter,
    instance: e.instance ?? request.instance,
    requestId: e.requestId ?? request.requestId
  })
}
