/**
 * The served description's demo half, added at assembly (the entry point `bin/main.ts`
 * hands {@link documentedApi} to `src/startup.ts` as its `describe`; the
 * `npm run openapi` CLI; the test server): the contract (`src/api/Api.ts` and what it
 * imports) and `ApiLive` carry no demo data, and this module, which depends on the contract
 * and the demo data, annotates the api with an OpenAPI `Transform` that runs after the
 * contract's own. `makeApiLive(documentedApi)` (`src/server.ts`) makes it the api that
 * `/openapi.json` (`HttpApiBuilder.middlewareOpenApi`) and `/docs` (`src/http/Docs.ts`) describe.
 *
 * Per operation (by operationId), from the demo manifest (`demo/manifest.ts`):
 * - path, query and header parameters carry the manifest request's values, and
 *   `Idempotency-Key` a real uuid, so the docs' request panel works against `npm start`;
 * - the request body carries the manifest's body;
 * - the description gets a "Try it" paragraph naming who to sign in as (before the
 *   problem types), and for some operations an "Example (demo)" sentence;
 * - the success response carries, as its `example`, the response the manifest request
 *   got on a freshly seeded database (`demo/examples/`, one JSON file per area, written by
 *   `npm run docs:examples`, checked by test/openapi/Examples.test.ts);
 * - the docs' request panel is pre-filled in development with the demo public API key
 *   (the api's `DocsApiKey` annotation, `src/http/Docs.ts`).
 *
 * Examples are set on the operation (parameter and media-type `example`) rather than as
 * Schema `examples`: Effect's generator puts Schema annotations into the shared component
 * schemas (`#/components/schemas/Uuid` serves every id parameter), so they could not
 * differ per operation.
 */
import type { HttpApi } from "@effect/platform"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Option } from "effect"
import { DocsApiKey } from "../src/http/Docs.js"
import { DemoAccounts } from "./accounts/seed.js"
import { DemoIdempotencyKey } from "./common.js"
import { successExamples } from "./examples/index.js"
import { demoManifest, type ManifestOperation } from "./manifest.js"

type Spec = Record<string, any>

/** The "Try it" paragraph: who sends the manifest request. */
const tryIt = (example: ManifestOperation) => {
  const who = example.as
  if (who === "anonymous") return "**Try it** on the demo data (`npm start`): no credential needed."
  if (who === "apiKey:public") {
    return `**Try it** on the demo data (\`npm start\`): anonymously, or with the demo API key \`${demoManifest.apiKeys.public.key}\`.`
  }
  const account = DemoAccounts[who]
  return `**Try it** on the demo data (\`npm start\`): first sign in (Accounts_SignIn) as \`${account.email}\` / ` +
    `\`${account.password}\`; the browser keeps the session cookie.`
}

/** Where the generated problem section starts (src/api/docs.ts). */
const ProblemSection = "\n\n**Problem types**"

const describe = (description: string, example: ManifestOperation) => {
  const at = description.indexOf(ProblemSection)
  const [own, rest] = at < 0 ? [description, ""] : [description.slice(0, at), description.slice(at)]
  const sentence = example.note
  return `${own}${sentence === undefined ? "" : ` ${sentence}`}\n\n${tryIt(example)}${rest}`
}

const parameterExample = (p: Record<string, any>, example: ManifestOperation): unknown => {
  const name: string = p["name"]
  const value = p["in"] === "path" ? example.path[name]
    : p["in"] === "query" ? example.query[name]
    : name === "Idempotency-Key" ? DemoIdempotencyKey
    : p["in"] === "header" ? example.headers?.[name.toLowerCase()]
    : undefined
  // a query value is text on the wire; the example follows the parameter's declared type
  return typeof value === "number" && p["schema"]?.["type"] === "string" ? String(value)
    // a repeatable parameter's example is the list of its values
    : value !== undefined && !Array.isArray(value) && p["schema"]?.["type"] === "array" ? [value]
    : value
}

/** One operation of the description with the demo examples of `operationId`. */
const documentOperation = (op: Spec): Spec => {
  const operationId: string = op["operationId"]
  const example = (demoManifest.operations as Record<string, ManifestOperation | undefined>)[operationId]
  if (example === undefined) return op
  const parameters = ((op["parameters"] ?? []) as ReadonlyArray<Record<string, any>>).map((p) => {
    // a parameter documented with its own example (X-CSRF-Token, from its Schema) keeps it
    if (p["example"] !== undefined) return p
    const value = parameterExample(p, example)
    return value === undefined ? p : { ...p, example: value }
  })
  const withExample = (content: Record<string, Record<string, unknown>>, value: unknown) =>
    Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, example: value }]))
  const body = op["requestBody"]
  const success = successExamples[operationId]
  const responses: Spec = { ...op["responses"] }
  if (success !== undefined && responses[success.status]?.["content"] !== undefined) {
    const response = responses[success.status]
    responses[success.status] = { ...response, content: withExample(response["content"], success.body) }
  }
  return {
    ...op,
    description: describe(op["description"] ?? "", example),
    parameters,
    responses,
    ...(body !== undefined && example.body !== null ? { requestBody: { ...body, content: withExample(body["content"], example.body) } } : {})
  }
}

/** The description `spec` with the demo examples of every operation. */
export const documentSpec = (spec: Spec): Spec => ({
  ...spec,
  paths: Object.fromEntries(
    Object.entries<Record<string, Spec>>(spec["paths"] ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, typeof op === "object" && op !== null && "operationId" in op ? documentOperation(op) : op]))
    ])
  )
})

/**
 * `api` with the demo examples in its OpenAPI description: its `Transform` annotation
 * becomes the api's own transform (if any) followed by {@link documentSpec}, and its
 * `DocsApiKey` annotation the demo public API key. The api is otherwise the same (groups,
 * endpoints, middleware), so its handlers serve it.
 */
export const documentedApi = <Id extends string, Groups extends import("@effect/platform").HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, Groups, E, R> => {
  const own = Context.getOption(api.annotations, OpenApi.Transform)
  return api.annotateContext(
    Context.make(OpenApi.Transform, (spec) => documentSpec(Option.isSome(own) ? own.value(spec) : spec) as never).pipe(
      Context.add(DocsApiKey, demoManifest.apiKeys.public.key)
    )
  )
}
