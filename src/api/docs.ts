/**
 * The documentation half of the `operation` helper: what `/openapi.json` and
 * `/docs` say about one operation beyond its Schemas.
 *
 * - the description ends with the problem `type`s each listed status can carry:
 *   the operation's own kinds plus those of the shared mechanisms it goes through
 *   (decoding, auth, CSRF, idempotency, cursors); each problem response repeats them;
 * - path and query parameters and the request body carry the request of the demo
 *   manifest (`src/db/manifest.ts`), so the docs' request panel works against
 *   `npm start` on the demo data; `Idempotency-Key` has a real uuid example;
 * - session commands list the `X-CSRF-Token` header the auth middleware checks.
 *
 * Examples are set on the operation (parameter and media-type `example`) rather
 * than as Schema `examples`: Effect's generator puts Schema annotations into the
 * shared component schemas (`#/components/schemas/Uuid` serves every id
 * parameter), so they could not differ per operation.
 */
import { type HttpApiEndpoint, HttpMethod } from "@effect/platform"
import { JSONSchema, Option } from "effect"
import { CsrfTokenHeader } from "../../schema/accounts.js"
import { fieldsOf } from "../../schema/fields.js"
import { type ProblemKind, ProblemKinds, problemType, ProblemByStatus, type ProblemStatus } from "../../schema/problem.js"
import { DemoAccounts, DemoIdempotencyKey } from "../db/demo.js"
import { demoManifest, type ManifestOperation } from "../db/manifest.js"
import type { OperationPolicy } from "./operation.js"
import { commandMethods } from "./security.js"

type OpenApiOperation = Record<string, any>

/** Whether `endpoint` is a command of a browser session (needs `X-CSRF-Token`). */
const isSessionCommand = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps, policy: OperationPolicy) =>
  (policy.auth === "required-user" || policy.auth === "required-admin" || policy.auth === "optional-user") &&
  commandMethods.has(endpoint.method)

/** The problem kinds the shared mechanisms can raise on `endpoint`, by status. */
const mechanismProblems = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  policy: OperationPolicy
): Partial<Record<ProblemStatus, ReadonlyArray<ProblemKind>>> => {
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
      ...(hasInput ? ["invalid-request" as const] : []),
      ...(hasBody
        ? ["malformed-body" as const, "unsupported-content-type" as const, "body-too-large" as const, "nesting-too-deep" as const]
        : []),
      ...(idempotent ? ["idempotency-key-required" as const] : []),
      ...(query.some((q) => /cursor$/i.test(q)) ? ["invalid-cursor" as const] : [])
    ],
    401: ["unauthenticated"],
    403: [
      ...(session ? ["session-required" as const] : []),
      ...(sessionRules && command ? ["cross-site-request" as const, "origin-not-allowed" as const, "csrf-token-invalid" as const] : []),
      ...(policy.auth === "required-admin" ? ["admin-required" as const] : []),
      ...(policy.sensitive ? ["reauthentication-required" as const] : []),
      ...(policy.scopes.length > 0 && !session ? ["insufficient-scope" as const] : [])
    ],
    409: idempotent ? ["idempotency-key-reuse", "idempotency-request-in-flight"] : []
  }
}

/** The problem kinds of each error status of an operation: its own, then the mechanisms', else the status's default. */
const problemKindsByStatus = (
  statuses: ReadonlyArray<ProblemStatus>,
  own: Partial<Record<ProblemStatus, ReadonlyArray<ProblemKind>>>,
  mechanisms: Partial<Record<ProblemStatus, ReadonlyArray<ProblemKind>>>
): ReadonlyArray<readonly [ProblemStatus, ReadonlyArray<ProblemKind>]> =>
  statuses.map((status) => {
    const kinds = [...new Set([...(own[status] ?? []), ...(mechanisms[status] ?? [])])]
    return [status, kinds.length > 0 ? kinds : [ProblemByStatus[status].defaultKind as ProblemKind]] as const
  })

const problemSection = (kinds: ReadonlyArray<readonly [ProblemStatus, ReadonlyArray<ProblemKind>]>) =>
  [
    "**Problem types** (`application/problem+json`, RFC 9457), by status:",
    "",
    ...kinds.map(([status, ks]) =>
      `- ${status}: ${ks.map((k) => `[\`${k}\`](${problemType(k)}) (${ProblemKinds[k].meaning})`).join("; ")}`
    )
  ].join("\n")

const demoSection = (example: ManifestOperation | undefined) => {
  if (example === undefined) return ""
  const who = example.as
  if (who === "anonymous") return "**Try it** on the demo data (`npm start`): no credential needed."
  if (who === "apiKey:public") {
    return `**Try it** on the demo data (\`npm start\`): anonymously, or with the demo API key \`${demoManifest.apiKeys.public.key}\`.`
  }
  const account = DemoAccounts[who]
  return `**Try it** on the demo data (\`npm start\`): first sign in (Accounts_SignIn) as \`${account.email}\` / ` +
    `\`${account.password}\`; the browser keeps the session cookie.`
}

const canonicalHeaderName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())

const { $schema: _, ...csrfSchema } = JSONSchema.make(CsrfTokenHeader) as unknown as Record<string, unknown>

/**
 * The OpenAPI `transform` of one operation: header names in their conventional
 * case, the description with its problem types, per-status problem descriptions,
 * demo examples and the `X-CSRF-Token` parameter of session commands.
 */
export const documentOperation = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  policy: OperationPolicy,
  description: string,
  own: Partial<Record<ProblemStatus, ReadonlyArray<ProblemKind>>>
) =>
(op: OpenApiOperation): OpenApiOperation => {
  const example = (demoManifest.operations as Record<string, ManifestOperation | undefined>)[policy.operationId]
  const statuses = Object.keys(op["responses"] ?? {}).map(Number).filter((s): s is ProblemStatus => s in ProblemByStatus)
  const kinds = problemKindsByStatus(statuses, own, mechanismProblems(endpoint, policy))
  const responses: Record<string, any> = { ...op["responses"] }
  for (const [status, ks] of kinds) {
    responses[status] = { ...responses[status], description: `${ProblemByStatus[status].title}: ${ks.join(", ")}` }
  }
  const parameters = ((op["parameters"] ?? []) as ReadonlyArray<Record<string, any>>).map((p): Record<string, any> => {
    const name = p["in"] === "header" ? canonicalHeaderName(p["name"]) : p["name"]
    const value = p["in"] === "path" ? example?.path[name]
      : p["in"] === "query" ? example?.query[name]
      : name === "Idempotency-Key" ? DemoIdempotencyKey
      : p["in"] === "header" ? example?.headers?.[name.toLowerCase()]
      : undefined
    // a query value is text on the wire; the example follows the parameter's declared type
    const typed = typeof value === "number" && p["schema"]?.["type"] === "string" ? String(value)
      // a repeatable parameter's example is the list of its values
      : value !== undefined && !Array.isArray(value) && p["schema"]?.["type"] === "array" ? [value]
      : value
    return { ...p, name, ...(typed !== undefined ? { example: typed } : {}) }
  })
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
  const body = op["requestBody"]
  return {
    ...op,
    description: [description, demoSection(example), problemSection(kinds)].filter((x) => x !== "").join("\n\n"),
    parameters,
    responses,
    ...(body !== undefined && example !== undefined && example.body !== null
      ? {
        requestBody: {
          ...body,
          content: Object.fromEntries(
            Object.entries<Record<string, unknown>>(body["content"]).map(([type, media]) => [type, { ...media, example: example.body }])
          )
        }
      }
      : {})
  }
}
