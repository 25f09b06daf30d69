import { Effect, Layer, Redacted } from "effect"
import { DbServer } from "./layers/Db.js"
import { AgentsRepo } from "./src/agents/Repo.js"
import { queryWords, tsqueryText } from "./src/agents/SearchQuery.js"
const db = DbServer(Redacted.make("postgres://postgres@127.0.0.1:5432/adapi_search"), Effect.void)
const prog = Effect.gen(function*() {
  const repo = yield* AgentsRepo
  for (const q of [process.argv[2] ?? "RESEARCH"]) {
    const words = queryWords(q)
    const r = yield* repo.resolveWords(words)
    console.log(words, r, tsqueryText(r))
    const search = { tsquery: tsqueryText(r), words: words.join(" ") }
    const f = { networks: [], protocols: [], verificationStates: [], search }
    console.log((yield* repo.list(f, "relevance", undefined, 10)).map((x) => [x.agent.name, x.position[0]]))
    console.log(JSON.stringify(yield* repo.facets(f)))
  }
})
Effect.runPromise(prog.pipe(Effect.provide(AgentsRepo.Default.pipe(Layer.provide(db))), Effect.catchAllCause(Effect.logError))).then(() => process.exit(0))
