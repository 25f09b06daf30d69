/**
 * The demo manifest (`npm run --silent demo:manifest`): the demo accounts and API
 * key, and for every operation one request that succeeds on a freshly seeded
 * database (`ManifestOperation`), gathered from every area's `manifest.ts` in the order of
 * `demo/areas.ts`. The docs' examples are built from it (`demo/DocumentedApi.ts`).
 */
import { demoAreas } from "./areas.js"
import type { ManifestOperation } from "./DemoArea.js"
import { DemoApiKeys, demoCredentials as credentials } from "./accounts/seed.js"

export type { ManifestOperation } from "./DemoArea.js"

/** The manifest document. */
export const demoManifest = {
  accounts: {
    admin: credentials("admin"),
    owner: credentials("owner"),
    member: credentials("member"),
    outsider: credentials("outsider")
  },
  apiKeys: {
    public: { key: DemoApiKeys.public.key, scopes: [...DemoApiKeys.public.scopes] }
  },
  operations: Object.fromEntries(
    demoAreas.flatMap((area) => Object.entries(area.manifest ?? {}))
  ) as Readonly<Record<string, ManifestOperation>>
} as const
