/**
 * The API reference UI at `/docs` (Scalar). It loads nothing from outside the
 * server: `HttpApiScalar.layer` inlines the Scalar bundle shipped in
 * `@effect/platform` (not the CDN of `layerCdn`), and `withDefaultFonts: false`
 * stops it fetching its web fonts, so the page works offline against `npm start`.
 */
import { HttpApiScalar } from "@effect/platform"

/** Serves the docs UI of the served `HttpApi` at `/docs`. */
export const DocsLive = HttpApiScalar.layer({ path: "/docs", scalar: { withDefaultFonts: false } })
