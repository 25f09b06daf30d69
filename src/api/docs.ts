/**
 * The documentation half of the `operation` helper: what `/openapi.json` and
 * `/docs` say about one operation beyond its Schemas.
 *
 * - the description ends with the problem `type`s each listed status can carry:
 *   the operation's declared causes plus those of the shared mechanisms it goes
 *   through (decoding, auth, CSRF, idempotency, cursors, rate limit, failures); each
 *   problem response repeats them, and its schema is the `oneOf` of their documents
 *   (`type` and `status` are constants, so `type` tells them apart);
 * - session commands list the `X-CSRF-Token` header the auth middleware checks.
 *
 * Nothing here knows the demo data: the examples of parameters, request bodies and
 * success responses, and the "Try it" paragraph, are added at assembly
 * (`demo/DocumentedApi.ts`), so the contract carries no demo data.
 */
import type { HttpApiEndpoint } from "@effect/platform"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpMethod from "@effect/platform/HttpMethod"
import { JSONSchema, Option } from "effect"
import type * as AST from "effect/SchemaAST"
import { CsrfTokenHeader } from "../../schema/accounts.js"
import * as Errors from "../../schema/errors.js"
import { rolesInWords } from "../../schema/roles.js"
import { fieldsOf } from "../../schema/fields.js"
import { type ProblemClass, problemCauseOf, type ProblemStatus, ProblemTitles } from "../../schema/problem.js"
import type { OperationPolicy } from "./operation.js"
import { commandMethods } from "./security.js"

type OpenApiOperation = Record<string, any>

const ProblemMediaType = "application/problem+json"

/** Whether `endpoint` is a command of a browser session (needs `X-CSRF-Token`). */
const isSessionCommand = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, policy: OperationPolicy) =>
  (policy.auth === "required-user" || policy.auth === "required-admin" || policy.auth === "optional-user") &&
  commandMethods.has(endpoint.method)

/** The problem causes the shared mechanisms can raise on `endpoint`, by status. */
export const mechanismCauses = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  policy: OperationPolicy
): Partial<Record<ProblemStatus, ReadonlyArray<ProblemClass>>> => {
  const headers = fieldsOf(endpoint.headersSchema)
  const query = fieldsOf(endpoint.urlParamsSchema)
  const hasInput = [endpoint.pathSchema, endpoint.urlParamsSchema, endpoint.headersSchema, endpoint.payloadSchema].some(Option.isSome)
  const hasBody = HttpMethod.hasBody(endpoint.method) && Option.isSome(endpoint.payloadSchema)
  const idempotent = headers.includes("idempotency-key")
  const session = policy.auth === "required-user" || policy.auth === "required-admin"
  const sessionRules = session || policy.auth === "optional-user"
  const command = commandMethods.has(endpoint.method)
  return {
    400: [
      ...(hasInput ? [Errors.InvalidRequest] : []),
      ...(hasBody ? [Errors.MalformedBody, Errors.UnsupportedContentType, Errors.BodyTooLarge, Errors.NestingTooDeep] : []),
      ...(idempotent ? [Errors.MissingIdempotencyKey] : []),
      ...(query.some((q) => /cursor$/i.test(q)) ? [Errors.InvalidCursor] : [])
    ],
    401: [Errors.Unauthenticated],
    403: [
      ...(session ? [Errors.SessionRequired] : []),
      ...(sessionRules && command ? [Errors.CrossSiteRequest, Errors.OriginNotAllowed, Errors.CsrfTokenInvalid] : []),
      ...(policy.auth === "required-admin" ? [Errors.AdminRequired, Errors.MfaRequired] : []),
      ...(policy.sensitive ? [Errors.ReauthenticationRequired] : []),
      ...(policy.scopes.length > 0 && !session ? [Errors.InsufficientScope] : [])
    ],
    409: idempotent ? [Errors.IdempotencyKeyReuse, Errors.IdempotencyRequestInFlight] : []
  }
}

/**
 * The problem causes of each error status of an operation: its own, then the
 * mechanisms', else the status's generic cause. Every 500 can be `internal-error` (the
 * request middleware's answer to any unexpected failure), and a database outage is a 500
 * `dependency-unavailable` where the operation lists no 503 (`src/http/DependencyFailure.ts`).
 */
export const causesByStatus = (
  statuses: ReadonlyArray<ProblemStatus>,
  own: ReadonlyArray<ProblemClass>,
  mechanisms: Partial<Record<ProblemStatus, ReadonlyArray<ProblemClass>>>
): ReadonlyArray<readonly [ProblemStatus, ReadonlyArray<ProblemClass>]> =>
  statuses.map((status) => {
    const failures = status === 500
      ? [Errors.InternalError, ...(statuses.includes(503) ? [] : [Errors.DependencyUnavailable500])]
      : status === 429
      // the budget middleware (BudgetRefusing) guards every operation that lists 429
      ? [Errors.RateLimited]
      : []
    const causes = [...new Set([...own.filter((c) => c.status === status), ...(mechanisms[status] ?? []), ...failures])]
    return [status, causes.length > 0 ? causes : [Errors.GenericProblems[status]]] as const
  })

const problemSection = (causes: ReadonlyArray<readonly [ProblemStatus, ReadonlyArray<ProblemClass>]>) =>
  [
    "**Problem types** (`application/problem+json`, RFC 9457), by status:",
    "",
    ...causes.map(([status, cs]) => `- ${status}: ${cs.map((c) => `[\`${c.slug}\`](${c.type}) (${c.meaning})`).join("; ")}`)
  ].join("\n")

const unionMembers = (ast: AST.AST): ReadonlyArray<AST.AST> => ast._tag === "Union" ? ast.types.flatMap(unionMembers) : [ast]

/** One problem cause an API can answer with, as its description tells it. */
export interface CatalogueEntry {
  readonly tag: string
  readonly slug: string
  readonly type: string
  readonly status: ProblemStatus
  readonly title: string
  readonly meaning: string
}

/**
 * Every problem cause the operations of `api` declare (one entry per cause class, in
 * first-declared order), read from the endpoints' error Schemas: the catalogue is never
 * kept by hand. One `type` may have two entries when its status depends on the operation
 * (`dependency-unavailable`: 503, or 500 where 503 is not listed).
 */
export const problemCatalogue = (api: HttpApi.HttpApi.Any): ReadonlyArray<CatalogueEntry> => {
  const found = new Map<ProblemClass, CatalogueEntry>()
  HttpApi.reflect(api as unknown as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      for (const ast of unionMembers(endpoint.errorSchema.ast)) {
        const cause = problemCauseOf(ast)
        if (cause === undefined || found.has(cause)) continue
        const { _tag: tag, meaning, slug, status, title, type } = cause
        found.set(cause, { tag, slug, type, status, title, meaning })
      }
    }
  })
  return [...found.values()]
}

const canonicalHeaderName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())

const { $schema: _, ...csrfSchema } = JSONSchema.make(CsrfTokenHeader) as unknown as Record<string, unknown>

/**
 * The OpenAPI `transform` of one operation: header names in their conventional
 * case, the description with its problem types, per-status problem descriptions
 * and the `X-CSRF-Token` parameter of session commands.
 */
/**
 * `description` followed by the sentence naming the operation's permission and its roles
 * ("Needs the `agents.write` permission: the OWNER, ADMIN or EDITOR role (docs/roles.md)."),
 * when it declares one.
 */
export const withPermission = (description: string, policy: OperationPolicy): string =>
  policy.permission === undefined ? description :
    `${description.trimEnd()} Needs the \`${policy.permission}\` permission: ${rolesInWords(policy.permission)} (docs/roles.md).`

export const documentOperation = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  policy: OperationPolicy,
  description: string,
  causes: ReadonlyArray<readonly [ProblemStatus, ReadonlyArray<ProblemClass>]>
) =>
(op: OpenApiOperation): OpenApiOperation => {
  const responses: Record<string, any> = { ...op["responses"] }
  for (const [status, cs] of causes) {
    const response = responses[status] ?? {}
    const content = response["content"] as Record<string, { readonly schema: Record<string, unknown> }> | undefined
    responses[status] = {
      ...response,
      description: `${ProblemTitles[status]}: ${[...new Set(cs.map((c) => c.slug))].join(", ")}`,
      // Effect's generator emits `anyOf` for several error schemas of one status, and the bare
      // `$ref` for one; the documents' constant `type` discriminates them, so it is a `oneOf`.
      // It also reads the media type off the status's union, which has none (each member has
      // `application/problem+json`): every problem response is `application/problem+json`
      ...(content === undefined ? {} : {
        content: Object.fromEntries(Object.values(content).map((media) => {
          const { anyOf, ...rest } = media.schema
          return [ProblemMediaType, { ...media, schema: anyOf !== undefined ? { ...rest, oneOf: anyOf } : { oneOf: [media.schema] } }]
        }))
      })
    }
  }
  const parameters = ((op["parameters"] ?? []) as ReadonlyArray<Record<string, any>>).map((p): Record<string, any> =>
    p["in"] === "header" ? { ...p, name: canonicalHeaderName(p["name"]) } : p
  )
  if (isSessionCommand(endpoint, policy)) {
    parameters.push({
      name: "X-CSRF-Token",
      in: "header",
      // optional-user commands need it only when a session cookie is sent
      required: policy.auth !== "optional-user",
      description: csrfSchema["description"],
      schema: csrfSchema,
      example: (csrfSchema["examples"] as ReadonlyArray<unknown> | undefined)?.[0]
    })
  }
  return {
    ...op,
    description: [withPermission(description, policy), problemSection(causes)].join("\n\n"),
    parameters,
    responses
  }
}
