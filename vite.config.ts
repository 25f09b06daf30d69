/**
 * The web directory's build (`npm run build:web`): `web/` → `dist/web/`, served by the API's own
 * process (src/http/Web.ts). Assets under `dist/web/assets/` are named by content hash (served
 * with a year's immutable cache); `index.html` is the shell every page route answers. No inline
 * script and nothing from another origin, so the pages run under the server's strict CSP.
 */
import { defineConfig } from "vite"

export default defineConfig({
  root: "web",
  base: "/",
  publicDir: false,
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false
  },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } }
})
