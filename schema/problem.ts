/**
 * Problem details (spec §7, RFC 9457): the mechanism behind every error of the API.
 * Each domain cause is one `Schema.TaggedError` made by {@link Problem} (e.g.
 * `OfferNotFound`, 404 `offer-not-found`), with a wire Schema ({@link problemSchema})
 * that encodes it as an `application/problem+json` document:
 *
 * `{ type, title, status, detail, instance, requestId, errors? }`
 *
 * - `type` is a stable URI per cause (`${ProblemTypeBase}<slug>`); several causes
 *   share a status (409 `version-conflict`, `idempotency-key-reuse`, ...). The causes
 *   shared by several areas live in `./errors.ts`, the others in `src/<area>/Errors.ts`.
 * - `instance` is the request path, `requestId` the request's id (also the
 *   `X-Request-Id` header). Both are filled in when the error is rendered, so
 *   domain code raises errors without knowing the request.
 * - 400 carries `errors`: one entry per invalid input, with a JSON pointer.
 *
 * No `_tag`, stack or SQL text ever reaches the wire.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { type Cause, ParseResult, Schema } from "effect"
import type * as AST from "effect/SchemaAST"
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

/** The title of each status a problem can have (the `title` of its causes unless they name their own). */
export const ProblemTitles = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  410: "Gone",
  422: "Unprocessable Entity",
  423: "Locked",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable"
} as const

/** A status that has problem causes. */
export type ProblemStatus = keyof typeof ProblemTitles

/**
 * What every cause carries. `instance` and `requestId` are filled at render time
 * ({@link withRequest}), so domain code raises causes without knowing the request.
 */
const ProblemFields = {
  /** Human-readable explanation specific to this occurrence. */
  detail: Schema.String,
  /** 400 only: the invalid inputs. */
  errors: Schema.optional(Schema.Array(InvalidParam)),
  /** Seconds after which a retry may succeed; rendered as the `Retry-After` header, never in the body. */
  retryAfter: Schema.optional(Schema.Number),
  instance: Schema.optional(Schema.String),
  requestId: Schema.optional(Schema.String),
  /**
   * RFC 9457 §3.2 extension members of this occurrence, rendered beside the standard members
   * (which they never replace); a cause that has some declares their wire Schema (`extensions` of
   * {@link Problem}'s spec).
   */
  extensions: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}

/** The constructor argument of every cause. */
export interface ProblemArgs {
  readonly detail: string
  readonly errors?: ReadonlyArray<InvalidParam> | undefined
  readonly retryAfter?: number | undefined
  readonly instance?: string | undefined
  readonly requestId?: string | undefined
  readonly extensions?: Readonly<Record<string, unknown>> | undefined
}

/** Marks the causes made by {@link Problem} (one check for all of them: {@link isProblem}). */
const ProblemMarker: unique symbol = Symbol.for("agent-directory/Problem")

/** A problem cause: a yieldable tagged error with its `type` URI, `status` and `title`. */
export interface Problem<Tag extends string = string, Status extends ProblemStatus = ProblemStatus>
  extends Cause.YieldableError, ProblemArgs
{
  readonly _tag: Tag
  readonly type: string
  readonly status: Status
  readonly title: string
}

/** What a cause's class tells about it (statics of every class made by {@link Problem}). */
export interface ProblemInfo<Status extends ProblemStatus = ProblemStatus> {
  readonly _tag: string
  readonly status: Status
  /** The `type` slug, appended to {@link ProblemTypeBase}. */
  readonly slug: string
  /** The `type` URI. */
  readonly type: string
  readonly title: string
  /** One line: what the cause means for the caller. */
  readonly meaning: string
  /** The wire Schema of its extension members (RFC 9457 §3.2), when it declares some. */
  readonly extensionFields?: Schema.Struct.Fields | undefined
}

/** Any class made by {@link Problem}. */
export interface ProblemClass<Tag extends string = string, Status extends ProblemStatus = ProblemStatus>
  extends ProblemInfo<Status>
{
  new(args: ProblemArgs): Problem<Tag, Status>
  readonly _tag: Tag
}

/**
 * Declares one problem cause as a `Schema.TaggedError` carrying {@link ProblemArgs},
 * annotated with its HTTP status (`HttpApiSchema.annotations`), with its `type` slug,
 * title (default: the status's) and one-line meaning as statics and instance getters:
 *
 * ```ts
 * export class OfferNotFound extends Problem<OfferNotFound>()("OfferNotFound", {
 *   status: 404, type: "offer-not-found", meaning: "no such offer visible to the caller"
 * }) {}
 * ```
 */
export const Problem = <Self = never>() =>
<const Tag extends string, const Status extends ProblemStatus>(
  tag: Tag,
  spec: {
    readonly status: Status
    readonly type: string
    readonly meaning: string
    readonly title?: string
    /** Its extension members' wire Schema (RFC 9457 §3.2), e.g. `{ offerIds: Schema.Array(Uuid) }`. */
    readonly extensions?: Schema.Struct.Fields
  }
) => {
  const title = spec.title ?? ProblemTitles[spec.status]
  const type = ProblemTypeBase + spec.type
  // `Self` is the declared class (see the example); the cast only resolves TaggedError's check of it
  const Base = Schema.TaggedError<Self>()(tag, ProblemFields, {
    ...HttpApiSchema.annotations({ status: spec.status }),
    description: spec.meaning
  }) as unknown as Schema.TaggedErrorClass<Self, Tag, ProblemCauseFields<Tag>>
  return class extends Base {
    static readonly status: Status = spec.status
    static readonly slug: string = spec.type
    static readonly type: string = type
    static readonly title: string = title
    static readonly meaning: string = spec.meaning
    static readonly extensionFields: Schema.Struct.Fields | undefined = spec.extensions
    /** The problem `type` URI. */
    get type(): string {
      return type
    }
    get status(): Status {
      return spec.status
    }
    get title(): string {
      return title
    }
    get [ProblemMarker](): true {
      return true
    }
  } as unknown as ProblemCauseClass<Self, Tag, Status>
}

/** The fields of a cause (its `_tag` and {@link ProblemFields}). */
export type ProblemCauseFields<Tag extends string> = { readonly _tag: Schema.tag<Tag> } & typeof ProblemFields

/**
 * The class {@link Problem} makes, spelled out so that declaration files can name it: a
 * `Schema.TaggedError` class whose instances also have their `type`, `status` and
 * `title`, with the cause's {@link ProblemInfo} as statics.
 */
export interface ProblemCauseClass<Self, Tag extends string, Status extends ProblemStatus> extends
  Schema.Class<
    Self,
    ProblemCauseFields<Tag>,
    Schema.Struct.Encoded<ProblemCauseFields<Tag>>,
    never,
    Schema.Struct.Constructor<Omit<ProblemCauseFields<Tag>, "_tag">>,
    {},
    Cause.YieldableError & { readonly type: string; readonly status: Status; readonly title: string }
  >
{
  readonly _tag: Tag
  readonly status: Status
  readonly slug: string
  readonly type: string
  readonly title: string
  readonly meaning: string
  readonly extensionFields: Schema.Struct.Fields | undefined
}

/** True for any problem cause. */
export const isProblem = (u: unknown): u is Problem =>
  typeof u === "object" && u !== null && (u as { readonly [ProblemMarker]?: true })[ProblemMarker] === true

/** The {@link ProblemInfo} of a cause instance (its class's statics). */
export const problemInfo = (e: Problem): ProblemInfo => e.constructor as unknown as ProblemInfo

/**
 * The wire document of a problem cause. `requestId` and `instance` must have been
 * filled in (see {@link withRequest}).
 */
export const toDocument = (e: Problem): ProblemDocument => ({
  ...e.extensions,
  type: e.type,
  title: e.title,
  status: e.status,
  detail: e.detail,
  instance: e.instance ?? "",
  requestId: e.requestId ?? "",
  ...(e.errors !== undefined ? { errors: e.errors } : {})
})

/** Fills in the request's `instance` (path) and `requestId` on a problem (a new instance of the same cause). */
export const withRequest = <E extends Problem>(e: E, request: { readonly instance: string; readonly requestId: string }): E => {
  const Cls = e.constructor as new(args: ProblemArgs) => E
  return new Cls({
    detail: e.detail,
    errors: e.errors,
    retryAfter: e.retryAfter,
    instance: e.instance ?? request.instance,
    requestId: e.requestId ?? request.requestId,
    extensions: e.extensions
  })
}

/** Annotation on a wire Schema ({@link problemSchema}) holding the class of its cause. */
export const ProblemCauseAnnotationId: unique symbol = Symbol.for("agent-directory/ProblemCause")

/** The cause class a wire Schema's AST stands for, if it is one of {@link problemSchema}. */
export const problemCauseOf = (ast: AST.AST): ProblemClass | undefined =>
  ast.annotations[ProblemCauseAnnotationId] as ProblemClass | undefined

/** The wire document of one cause: {@link ProblemDocument} whose `type` and `status` are constants. */
export type ProblemDocumentOf<Status extends number> = Omit<ProblemDocument, "status"> & { readonly status: Status }

const schemaCache = new WeakMap<object, Schema.Schema.Any>()

/**
 * The wire Schema of one cause: decodes its problem document (the `type` and `status`
 * constants pick the cause) into the class instance (typed clients) and encodes the
 * instance as the document, annotated with the status and `application/problem+json`
 * (OpenAPI: the component `<Tag>Problem`). Encoding needs `requestId` and `instance`
 * (see {@link withRequest}); `retryAfter` is a header, never in the body.
 */
export const problemSchema = <C extends ProblemClass>(
  Cls: C
): Schema.Schema<InstanceType<C>, ProblemDocumentOf<C["status"]>> => {
  const cached = schemaCache.get(Cls)
  if (cached) return cached as never
  const { errors, ...common } = ProblemDocument.fields
  const fields: Schema.Struct.Fields = {
    ...common,
    type: Schema.Literal(Cls.type).annotations({ jsonSchema: { type: "string", format: "uri", const: Cls.type } }),
    status: Schema.Literal(Cls.status).annotations({ jsonSchema: { type: "integer", const: Cls.status } }),
    // only a 400 lists the invalid inputs
    ...(Cls.status === 400 ? { errors } : {}),
    ...Cls.extensionFields
  }
  const extensionKeys = Object.keys(Cls.extensionFields ?? {})
  const document = Schema.Struct(fields).annotations({
    identifier: `${Cls._tag}Problem`,
    // a cause's document is a `Problem` (the API's `AdditionalSchemas`) whose `type` and `status` are constant
    jsonSchema: { allOf: [{ $ref: "#/components/schemas/Problem" }] },
    description: `${Cls.status} \`${Cls.slug}\`: ${Cls.meaning}`
  })
  const schema = Schema.transformOrFail(
    document,
    Schema.declare((u): u is InstanceType<C> => u instanceof Cls, { identifier: Cls._tag }),
    {
      strict: false,
      decode: (doc) =>
        ParseResult.succeed(
          new Cls({
            detail: doc["detail"] as string,
            instance: doc["instance"] as string,
            requestId: doc["requestId"] as string,
            errors: doc["errors"] as ProblemDocument["errors"],
            ...(extensionKeys.length > 0 ? { extensions: Object.fromEntries(extensionKeys.map((k) => [k, doc[k]])) } : {})
          })
        ),
      encode: (e, _, ast) =>
        e.requestId === undefined || e.instance === undefined
          ? ParseResult.fail(new ParseResult.Type(ast, e, "problem rendered without a request"))
          : ParseResult.decodeUnknown(document)(toDocument(e))
    }
  ).pipe(HttpApiSchema.withEncoding({ kind: "Json", contentType: "application/problem+json" })).annotations({
    ...HttpApiSchema.annotations({ status: Cls.status }),
    [ProblemCauseAnnotationId]: Cls
  })
  schemaCache.set(Cls, schema)
  return schema as never
}

/** The wire Schemas of several causes, as one union (e.g. a middleware's `failure`). */
export const problemUnion = <const Cs extends ReadonlyArray<ProblemClass>>(
  ...causes: Cs
): Schema.Schema<InstanceType<Cs[number]>, ProblemDocumentOf<Cs[number]["status"]>> =>
  Schema.Union(...causes.map(problemSchema)) as never

/**
 * A middleware `failure` that types the causes the middleware raises but adds no
 * response to the endpoints it guards: which of those causes an endpoint can answer
 * depends on the endpoint and its policy (CSRF only on commands, scopes only where
 * some are required, ...), so `operation()` declares exactly those on each endpoint.
 * The request middleware renders them like every problem.
 */
export const raisedOnly = <A extends Problem>(): Schema.Schema<A> => Schema.Never as unknown as Schema.Schema<A>
