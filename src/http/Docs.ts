/**
 * The API reference UI at `/docs` (Scalar), under a strict Content Security Policy.
 *
 * It loads nothing from outside the server: the Scalar bundle shipped in
 * `@effect/platform` (the one `HttpApiScalar.layer` inlines, not the CDN of `layerCdn`)
 * is served as its own file, `GET /docs/scalar.js`, and `withDefaultFonts: false` stops
 * it fetching web fonts. The page itself has no inline script: the OpenAPI description
 * is a JSON data block (`<script type="application/json">`, never executed) and
 * Scalar's configuration is its `data-configuration` attribute, which is what
 * HttpApiScalar's inline script would set. So the policy is
 *
 *     default-src 'none'; script-src 'self'; style-src 'self' 'nonce-<n>'; img-src 'self' data:;
 *     font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
 *
 * Scalar (a Vue app) writes its CSS as `<style>` elements at run time. Rather than
 * allowing inline styles (`'unsafe-inline'`), each page gets a fresh nonce (128 random
 * bits) on its script tag, and the served script starts with a few lines that give every
 * `<style>` element created by `document.createElement` that nonce: only the page's own
 * same-origin script can make styles the browser applies. Images may be `data:` URIs
 * (Scalar's icons). `Referrer-Policy: no-referrer`: links out of the docs send no URL.
 *
 * Under the API's description the page links the directory's other interfaces (its MCP
 * server and its A2A Agent Card, {@link otherInterfaces}).
 *
 * Scalar fills the first API-key scheme of an operation with a placeholder
 * (`X-API-Key: YOUR_SECRET_TOKEN`, a sure 401) even where the key is optional, so
 * in development the panel is pre-filled with the key the served api names in its
 * {@link DocsApiKey} annotation instead (`demo/DocumentedApi.ts` names the demo public
 * API key, which works on the demo data set loaded in development); other environments,
 * and an api with no such annotation, get no key.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import { Context, Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { runInNewContext } from "node:vm"
import { AppConfig } from "../../layers/AppConfig.js"
import { DirectoryPaths, McpProtocolVersion } from "./DirectoryAgentCard.js"

/**
 * An annotation of the served `HttpApi`: the API key (`X-API-Key`, in clear) the docs' request
 * panel is pre-filled with in development. Without it the panel is not pre-filled.
 */
export class DocsApiKey extends Context.Tag("agent-directory/DocsApiKey")<DocsApiKey, string>() {}

/** Scalar's `authentication` setting, which `HttpApiScalar.ScalarConfig` does not type, for the API key `key`. */
const keyAuthentication = (key: string) => ({
  authentication: {
    preferredSecurityScheme: "apiKeyAuth",
    securitySchemes: { apiKeyAuth: { value: key } }
  }
})

/**
 * The paragraph the docs page adds under the API's description: the directory's interfaces
 * besides this REST API, as links on this server.
 */
export const otherInterfaces = "**Also served:** the directory's MCP server at " +
  `[\`${DirectoryPaths.mcp}\`](${DirectoryPaths.mcp}) (Streamable HTTP, MCP ${McpProtocolVersion}: tools to search ` +
  "the directory and resolve identities, with the same API keys, scopes and budgets as this API), and the directory's " +
  `own A2A Agent Card at [\`${DirectoryPaths.agentCard}\`](${DirectoryPaths.agentCard}) with its A2A 1.0 interface ` +
  `(JSON-RPC at \`${DirectoryPaths.a2aJsonRpc}\`, HTTP+JSON at \`${DirectoryPaths.a2aRest}\`: skills search and resolve, ` +
  "same keys, scopes and budgets); each listed agent's A2A " +
  "Agent Card is Agents_GetAgentCard (`/api/v1/agents/{entityPublicId}/agent-card`)."

/** Where the docs page and its script are served. */
export const DocsPaths = { page: "/docs", script: "/docs/scalar.js" } as const

/** The Content-Security-Policy of the docs page whose style nonce is `nonce`. */
export const docsContentSecurityPolicy = (nonce: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

/**
 * Run first by the served script: `<style>` elements created through `document.createElement`
 * carry the nonce of the script tag that loaded it (see the module docs).
 */
const styleNonceShim = `(function () {
  var script = document.currentScript;
  var nonce = script && script.nonce;
  if (!nonce) return;
  var create = Document.prototype.createElement;
  Document.prototype.createElement = function (tagName, options) {
    var element = create.call(this, tagName, options);
    if (String(tagName).toLowerCase() === "style") element.nonce = nonce;
    return element;
  };
})();
`

/**
 * The served script: the shim, then the Scalar bundle `@effect/platform` ships (its internal
 * module, not in the package's exports map), as UTF-8 bytes. Read on the first request for
 * it, not at start: the bundle is a ~6.5 MB string constant, and a loaded module keeps its
 * source too, so loading it with the server held ~13 MB of heap for a page few processes
 * serve. The module is evaluated in a scratch context and only the bytes are kept (outside
 * the JavaScript heap).
 */
const docsScript = Effect.cached(Effect.sync(() => {
  const require = createRequire(import.meta.url)
  const file = join(dirname(require.resolve("@effect/platform/HttpApiScalar")), "internal", "httpApiScalar.js")
  const module = { exports: {} as { javascript?: string } }
  runInNewContext(readFileSync(file, "utf8"), { module, exports: module.exports, require }, { filename: file })
  return Buffer.from(styleNonceShim + (module.exports.javascript ?? ""), "utf8")
}))

/** `</script>`-safe JSON for a data block (as `@effect/platform`'s html helper does). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")
const attribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** Serves the docs page of the served `HttpApi` at `/docs` and its script at `/docs/scalar.js`. Requires `AppConfig`. */
export const DocsLive: Layer.Layer<never, never, HttpApi.Api | AppConfig> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const { api } = yield* HttpApi.Api
    const described = OpenApi.fromApi(api)
    const spec = {
      ...described,
      info: { ...described.info, description: `${described.info.description ?? ""}\n\n${otherInterfaces}` }
    }
    const key = Context.getOption(api.annotations, DocsApiKey)
    const scalarConfig = {
      _integration: "html",
      withDefaultFonts: false,
      ...(config.environment === "development" && Option.isSome(key) ? keyAuthentication(key.value) : {})
    }
    const script = yield* docsScript
    const page = (nonce: string) =>
      `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${attribute(spec.info.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${attribute(JSON.stringify(scalarConfig))}">
      ${scriptJson(spec)}
    </script>
    <script src="${DocsPaths.script}" nonce="${nonce}"></script>
  </body>
</html>`
    yield* router.get(
      DocsPaths.page,
      Effect.sync(() => {
        const nonce = randomBytes(16).toString("base64")
        return HttpServerResponse.html(page(nonce)).pipe(HttpServerResponse.setHeaders({
          "content-security-policy": docsContentSecurityPolicy(nonce),
          "referrer-policy": "no-referrer",
          "cache-control": "no-store"
        }))
      })
    )
    yield* router.get(
      DocsPaths.script,
      Effect.map(script, (bytes) =>
        HttpServerResponse.uint8Array(bytes, {
          contentType: "text/javascript; charset=utf-8",
          headers: { "cache-control": "public, max-age=3600", "referrer-policy": "no-referrer" }
        }))
    )
  })
)
