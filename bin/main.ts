/**
 * Entry point (`npm start`, `npm run dev`): the server of `src/startup.ts`, serving the api
 * with the demo examples in its description and docs (`demo/DocumentedApi.ts`), and loading
 * the demo data set (`demo/seed.ts`) into a new embedded database in development. A failed
 * start prints one line and exits with 1.
 */
import { documentedApi } from "../demo/DocumentedApi.js"
import { seedDemoData } from "../demo/seed.js"
import { runServer } from "../src/startup.js"

runServer({ describe: documentedApi, developmentSeed: seedDemoData })
