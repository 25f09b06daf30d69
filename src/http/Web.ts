/**
 * The web directory (the Vite build of `web/`, in `dist/web/`), served by the API's own process:
 *
 * - `GET /`: by content negotiation, the pages' HTML shell for a browser (`Accept` naming
 *   `text/html`), else the JSON links of {@link home} (an API client, curl: `Accept: *\/*`);
 * - `GET /agents/{publicId}`, `/agents/{publicId}/conversation`, `/agents/{publicId}/prove`, `/jobs`,
 *   `/jobs/{jobId}`, `/offers/{offerId}/buy`, `/sign-in`, `/sign-up`, `/verify-email`, `/workspaces`,
 *   `/workspaces/{publicId}`: the shell (each page reads what it
 *   shows through the API);
 * - `GET /assets/{file}`: the built scripts and styles, named by content hash, served with a
 *   year's `immutable` cache, Brotli or gzip by `Accept-Encoding` (compressed once, at start).
 *
 * Pages run under {@link webContentSecurityPolicy}: only this origin's scripts, styles and API,
 * no inline script, no other origin. Without a build (`npm run build:web` not run) `/` answers
 * the JSON links to everyone and the page routes 404, logged once at start.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Effect, Layer, Option } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, extname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { NotFound } from "../../schema/errors.js"
import { DirectoryPaths } from "./DirectoryAgentCard.js"

/**
 * The body of `GET /` for API clients: `{ name, links: { docs, openapi, mcp, agentCard } }`
 * (paths on this server: the docs UI, the OpenAPI description, the MCP server and the
 * directory's A2A Agent Card).
 */
export const home = {
  name: "Agent Directory API",
  links: {
    docs: DirectoryPaths.docs,
    openapi: DirectoryPaths.openapi,
    mcp: DirectoryPaths.mcp,
    agentCard: DirectoryPaths.agentCard
  }
} as const

/** The Content-Security-Policy of the pages. */
export const webContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/** One built asset: its type and its bytes as stored and compressed. */
interface Asset {
  readonly contentType: string
  readonly identity: Uint8Array
  readonly br: Uint8Array
  readonly gzip: Uint8Array
}

const ContentTypes: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json"
}

/** The package's root: the nearest folder above this module holding `package.json`. */
const packageRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

/** The build in `dir` (`index.html` and `assets/`), or none when it was not built. */
export const readWebBuild = (dir: string): Option.Option<{ readonly shell: string; readonly assets: ReadonlyMap<string, Asset> }> => {
  const index = join(dir, "index.html")
  if (!existsSync(index)) return Option.none()
  const assets = new Map<string, Asset>()
  const assetDir = join(dir, "assets")
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const contentType = ContentTypes[extname(name)]
    if (contentType === undefined) continue
    const identity = readFileSync(join(assetDir, name))
    assets.set(name, { contentType, identity, br: brotliCompressSync(identity), gzip: gzipSync(identity, { level: 9 }) })
  }
  return Option.some({ shell: readFileSync(index, "utf8"), assets })
}

/** Whether the request's `Accept` asks for HTML (a browser's navigation), not JSON. */
export const wantsHtml = (accept: string | undefined): boolean => {
  if (accept === undefined) return false
  const types = accept.split(",").map((part) => part.split(";")[0]!.trim().toLowerCase())
  const html = types.indexOf("text/html")
  const json = types.indexOf("application/json")
  return html >= 0 && (json < 0 || html < json)
}

const encodingOf = (acceptEncoding: string | undefined): "br" | "gzip" | "identity" => {
  const names = (acceptEncoding ?? "").split(",").map((part) => part.split(";")[0]!.trim().toLowerCase())
  return names.includes("br") ? "br" : names.includes("gzip") ? "gzip" : "identity"
}

/** The page routes that answer the shell, and where the assets are. */
export const WebPaths = {
  pages: [
    "/agents/:publicId",
    "/agents/:publicId/conversation",
    "/jobs",
    "/jobs/:jobId",
    "/agents/:publicId/prove",
    "/offers/:offerId/buy",
    "/sign-in",
    "/sign-up",
    "/verify-email",
    "/workspaces",
    "/workspaces/:publicId"
  ],
  assets: "/assets/:file"
} as const

/** Serves `GET /`, the page routes and the assets (see the module docs); the build is read once, at start. */
export const WebLive: Layer.Layer<never> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const build = readWebBuild(join(packageRoot(), "dist", "web"))
    if (Option.isNone(build)) yield* Effect.logWarning("the web directory is not built (npm run build:web): GET / answers JSON only")
    const json = HttpServerResponse.unsafeJson(home, { headers: { "cache-control": "no-cache", vary: "accept" } })
    const shell = Option.map(build, ({ shell }) =>
      HttpServerResponse.html(shell).pipe(HttpServerResponse.setHeaders({
        "content-security-policy": webContentSecurityPolicy,
        "referrer-policy": "strict-origin-when-cross-origin",
        "cache-control": "no-cache",
        vary: "accept"
      })))
    yield* router.get("/", Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
      Option.match(shell, {
        onNone: () => json,
        onSome: (page) => wantsHtml(request.headers["accept"]) ? page : json
      })))
    if (Option.isNone(build) || Option.isNone(shell)) return
    const page = shell.value
    const assets = build.value.assets
    for (const path of WebPaths.pages) yield* router.get(path, Effect.succeed(page))
    yield* router.get(WebPaths.assets, Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const name = decodeURIComponent(request.url.split("?")[0]!.slice("/assets/".length))
      const asset = assets.get(name)
      if (asset === undefined) return yield* new NotFound({ detail: "No such asset of the web directory." })
      const encoding = encodingOf(request.headers["accept-encoding"])
      return HttpServerResponse.uint8Array(asset[encoding === "identity" ? "identity" : encoding], {
        contentType: asset.contentType,
        headers: {
          "cache-control": "public, max-age=31536000, immutable",
          vary: "accept-encoding",
          ...(encoding === "identity" ? {} : { "content-encoding": encoding })
        }
      })
    }))
  })
)
