// Once: rewrote demo/examples.ts (one generated module) as demo/examples/<area>.json + index.ts (npx tsx tools/examples-to-json.ts).
import { successExamples } from "../demo/examples.js"
import { renderExamples, writeExamples } from "../test/support/examples.js"
writeExamples(renderExamples(successExamples as any))
