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

/**
 * Every problem kind the service raises: its status and what it means. A problem's
 * `type` is `ProblemTypeBase + kind`; the OpenAPI description of each operation
 * lists the kinds each of its statuses can carry (`src/api/operation.ts`).
 */
export const ProblemKinds = {
  "invalid-request": { status: 400, meaning: "an input breaks its schema; `errors` names each field and rule" },
  "malformed-body": { status: 400, meaning: "the body is not JSON" },
  "unsupported-content-type": { status: 400, meaning: "the body is not `application/json`" },
  "body-too-large": { status: 400, meaning: "the body is larger than the server's limit (`MAX_BODY_BYTES`)" },
  "nesting-too-deep": { status: 400, meaning: "the JSON body is nested deeper than the server's limit" },
  "idempotency-key-required": { status: 400, meaning: "the `Idempotency-Key` header (a uuid) is missing or not a uuid" },
  "invalid-cursor": { status: 400, meaning: "the cursor was altered, or belongs to another query or caller" },
  "unauthenticated": { status: 401, meaning: "no valid session or API key (one identical body whatever the cause)" },
  "forbidden": { status: 403, meaning: "the caller may not do this" },
  "session-required": { status: 403, meaning: "an API key was sent to a session-only operation" },
  "cross-site-request": { status: 403, meaning: "a cross-site browser request (`Sec-Fetch-Site: cross-site`)" },
  "origin-not-allowed": { status: 403, meaning: "the `Origin` is not allowed for session commands" },
  "csrf-token-invalid": { status: 403, meaning: "`X-CSRF-Token` is missing or is not the session's" },
  "admin-required": { status: 403, meaning: "the account is not an administrator" },
  "reauthentication-required": { status: 403, meaning: "the session's sign-in is not recent enough; sign in again" },
  "insufficient-scope": { status: 403, meaning: "the API key lacks a scope the operation requires" },
  "role-required": { status: 403, meaning: "the caller's workspace role does not allow this" },
  "author-required": { status: 403, meaning: "only the author of the feedback may do this" },
  "workspace-role-required": { status: 403, meaning: "the operation needs the OWNER or ADMIN role in the workspace" },
  "not-found": { status: 404, meaning: "the resource does not exist or is not visible to the caller" },
  "offer-not-found": { status: 404, meaning: "no such offer visible to the caller" },
  "agent-not-found": { status: 404, meaning: "no agent has this entity UUID" },
  "workspace-not-found": { status: 404, meaning: "no such workspace of the caller's" },
  "session-not-found": { status: 404, meaning: "no such session of the caller's" },
  "connection-not-found": { status: 404, meaning: "no such MCP connection of the agent" },
  "wallet-not-found": { status: 404, meaning: "no such wallet of the caller's" },
  "wallet-policy-not-found": { status: 404, meaning: "no such policy of one of the caller's wallets" },
  "feedback-not-found": { status: 404, meaning: "no such feedback, or someone else's feedback that is not public" },
  "api-key-not-found": { status: 404, meaning: "no such API key in the workspace" },
  "conversation-not-found": { status: 404, meaning: "no such conversation with an agent of the caller's workspaces" },
  "run-not-found": { status: 404, meaning: "no such run of an agent of the caller's workspaces" },
  "message-not-found": { status: 404, meaning: "no such message in the conversation" },
  "conversation-author-required": { status: 403, meaning: "only the account that started the conversation writes in it" },
  "run-in-progress": { status: 409, meaning: "a run is still active (not SUCCEEDED, FAILED, CANCELLED or TIMED_OUT)" },
  "playground-run-required": { status: 422, meaning: "the run is not a playground run" },
  "conflict": { status: 409, meaning: "the request conflicts with the resource's state" },
  "version-conflict": { status: 409, meaning: "the version sent is not the current one; read it again" },
  "invalid-state": { status: 409, meaning: "the resource's state does not allow this" },
  "offer-incomplete": { status: 409, meaning: "the offer lacks a current price or terms" },
  "idempotency-key-reuse": { status: 409, meaning: "the `Idempotency-Key` was used for a different request" },
  "idempotency-request-in-flight": { status: 409, meaning: "a request with this `Idempotency-Key` is still running (`Retry-After`)" },
  "challenge-expired": { status: 410, meaning: "the challenge expired" },
  "unprocessable": { status: 422, meaning: "configuration missing, or proof invalid" },
  "configuration-missing": { status: 422, meaning: "what the operation needs is not configured (or not yet observed)" },
  "proof-invalid": { status: 422, meaning: "the confirmation is not the expected phrase" },
  "policy-locked": { status: 423, meaning: "a policy lock prevents the operation" },
  "rate-limited": { status: 429, meaning: "the request budget is exhausted (`Retry-After`)" },
  "internal-error": { status: 500, meaning: "an unexpected failure; quote the `requestId`" },
  // launch, procurement, mesh (issue 10)
  "launch-run-not-found": { status: 404, meaning: "no such launch run in the caller's workspaces" },
  "procurement-intent-not-found": { status: 404, meaning: "no such procurement intent of this agent in the caller's workspaces" },
  "intent-expired": { status: 409, meaning: "the procurement intent expired; create a new one" },
  "public-key-registered": { status: 409, meaning: "the public key is already registered to a publisher" },
  "publisher-quota-exceeded": { status: 409, meaning: "the workspace holds as many mesh publishers as its quota allows" },
  "procurement-provider-missing": { status: 422, meaning: "configuration missing: no procurement provider is configured for the agent" },
  "provider-unavailable": { status: 500, meaning: "the procurement provider failed or could not be reached (`Retry-After`)" },
  // issue 9 admin operations (bounty disputes, partner job sources)
  "dispute-not-found": { status: 404, meaning: "no such dispute on that bounty" },
  "partner-job-source-not-found": { status: 404, meaning: "no such partner job source" },
  "units-rule": { status: 400, meaning: "the units break the resolution's rule or do not add up to the escrowed amount" },
  "approval-required": { status: 400, meaning: "applying needs the preview's `approvedCommandHash` and `confirmation`" },
  "confirmation-required": { status: 400, meaning: "applying needs the `confirmation` text" },
  "confirmation-mismatch": { status: 400, meaning: "`confirmation` is not the expected text" },
  "command-hash-mismatch": { status: 409, meaning: "`approvedCommandHash` is not the hash of this command; preview again" },
  // analytics (issue 11)
  "invalid-context-token": { status: 400, meaning: "the analytics `contextToken` is malformed or its signature is not ours" },
  "context-token-expired": { status: 401, meaning: "the analytics `contextToken` has expired; get a fresh one" },
  "invalid-date-range": { status: 400, meaning: "`from` is after `to`, or the range is longer than 366 days" },
  "export-not-found": { status: 404, meaning: "no such export, or its download token is not valid" },
  "export-not-ready": { status: 409, meaning: "the export's file is not built yet (state is not AVAILABLE)" },
  "export-expired": { status: 410, meaning: "the export's file has expired" },
  // ad campaigns (issue 9)
  "ad-campaign-not-found": { status: 404, meaning: "no such ad campaign (or, for a user, none of the caller's workspaces)" },
  "ad-package-version-not-found": { status: 404, meaning: "no such ad package version" },
  "order-not-eligible": { status: 409, meaning: "the order is not a paid order of the workspace for this ad package" },
  "order-in-use": { status: 409, meaning: "the order already funds another ad campaign" },
  "invalid-serving-token": { status: 400, meaning: "the ad-serving `token` is malformed or its signature is not ours" },
  "serving-token-expired": { status: 400, meaning: "the ad-serving `token` has expired; the ad must be served again" },
  "dependency-unavailable": { status: 503, meaning: "a dependency (the database) is unavailable (`Retry-After`)" }
} as const satisfies Record<string, { readonly status: ProblemStatus; readonly meaning: string }>

/** A problem kind of {@link ProblemKinds}. */
export type ProblemKind = keyof typeof ProblemKinds
/** The kinds whose status is `S`. */
export type ProblemKindOf<S extends ProblemStatus> = {
  [K in ProblemKind]: (typeof ProblemKinds)[K]["status"] extends S ? K : never
}[ProblemKind]

/** The problem `type` URI of a kind. */
export const problemType = (kind: ProblemKind): string => ProblemTypeBase + kind

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
