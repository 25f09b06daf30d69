/**
 * Entry point (`npm start`, `npm run dev`): the server of `src/startup.ts`, serving the api
 * with the demo examples in its description and docs (`demo/DocumentedApi.ts`), and loading
 * the demo data set (`demo/seed.ts`) into a new embedded database in development, where the
 * demo's platform workspace sells the ad packages unless `ADS_PLATFORM_WORKSPACE_ID` says
 * otherwise. A failed start prints one line and exits with 1.
 */
import { documentedApi } from "../demo/DocumentedApi.js"
import { seedDemoData } from "../demo/seed.js"
import { DemoPlatformWorkspace } from "../demo/growth/ads/seed.js"
import { runServer } from "../src/startup.js"

// where the demo data set is loaded (development, embedded database), its platform workspace sells the ads
if (process.env["DATABASE_URL"] === undefined && (process.env["DEPLOYMENT_ENV"] ?? "development") === "development") {
  process.env["ADS_PLATFORM_WORKSPACE_ID"] ??= DemoPlatformWorkspace.id
}

runServer({ describe: documentedApi, developmentSeed: seedDemoData })
