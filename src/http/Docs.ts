/**
 * The API reference UI at `/docs` (Scalar). It loads nothing from outside the
 * server: `HttpApiScalar.layer` inlines the Scalar bundle shipped in
 * `@effect/platform` (not the CDN of `layerCdn`), and `withDefaultFonts: false`
 * stops it fetching its web fonts, so the page works offline against `npm start`.
 *
 * Scalar fills the first API-key scheme of an operation with a placeholder
 * (`X-API-Key: YOUR_SECRET_TOKEN`, a sure 401) even where the key is optional, so
 * in development, where the demo data set is loaded, the panel is pre-filled with
 * the demo public API key instead; other environments get no key.
 */
import { type HttpApi, HttpApiScalar } from "@effect/platform"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { DemoApiKeys } from "../accounts/demo.js"

/** Scalar's `authentication` setting, which `HttpApiScalar.ScalarConfig` does not type. */
const demoAuthentication = {
  authentication: {
    preferredSecurityScheme: "apiKeyAuth",
    securitySchemes: { apiKeyAuth: { value: DemoApiKeys.public.key } }
  }
}

/** Serves the docs UI of the served `HttpApi` at `/docs`. Requires `AppConfig`. */
export const DocsLive: Layer.Layer<never, never, HttpApi.Api | AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => {
    const scalar: HttpApiScalar.ScalarConfig = {
      withDefaultFonts: false,
      ...(config.environment === "development" ? demoAuthentication : {})
    }
    return HttpApiScalar.layer({ path: "/docs", scalar })
  })
)
