/** `npm run --silent demo:manifest`: prints the demo manifest as JSON on stdout, nothing else. */
import { demoManifest } from "../manifest.js"

process.stdout.write(JSON.stringify(demoManifest, null, 2) + "\n")
