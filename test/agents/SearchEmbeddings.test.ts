/**
 * Vector similarity in the directory search (docs/search.md "Vector similarity"): with an embeddings
 * model profile configured (a local server speaking the OpenAI embeddings API, whose vectors put
 * "forecast" near "weather prediction"), a query in words no agent uses finds the agent of that meaning
 * first, where the database has pgvector; the agents' embeddings are computed in the background and
 * again when their text changes; a query's embedding is computed once per text for a while; a model
 * outage leaves search answering by text. On a database without pgvector (the embedded one) the same
 * configuration searches by text only. Without configuration, the relevance order is the text formula
 * of docs/methodology.md, exactly.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Scope } from "effect"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { AgentsRepo } from "../../src/agents/Repo.js"
import { queryWords, RelevanceWeights, tsqueryText } from "../../src/agents/SearchQuery.js"
import { testConfig } from "../support/config.js"
import { call, type Session, signIn } from "../support/http.js"
import { startEmbeddingsServer } from "../support/modelServers/OpenAiEmbeddings.js"
import { makeTestServer } from "../support/TestServer.js"
import { until, waitFor } from "../support/waitFor.js"

const list = "/api/v1/agents"

const scope = Effect.runSync(Scope.make())
const model = await Effect.runPromise(Scope.extend(startEmbeddingsServer, scope))

const configured = makeTestServer({
  modelProfiles: {
    embed: { kind: "openai", baseUrl: `${model.origin}/v1`, apiKey: Redacted.make("sk-test-embeddings-key"), prices: {} }
  },
  searchEmbeddings: { profile: "embed", model: "test-embedding" },
  outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"] }
})
const plain = makeTestServer()

const names = (reply: { body: any }): Array<string> => reply.body.data.map((a: { name: string }) => a.name)
const search = (q: string) =>
  Effect.map(call("GET", `${list}?q=${encodeURIComponent(q)}&limit=100`), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return names(reply)
  })

let n = 0
/** Registers an agent of the Acme workspace and returns its id and version. */
const register = (session: Session, body: { name: string; description: string }) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", list, {
      session,
      body: { workspaceId: DemoWorkspaces.acme.id, canonicalSlug: `embedding-test-${++n}`, tagline: null, ...body }
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data as { entityId: string; version: number }
  })

/** True when the test database has pgvector (the embedded one never has). */
const hasVectors = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ ok: boolean }>`SELECT to_regclass('agent_search_embeddings') IS NOT NULL AS ok`, ([row]) => row?.ok === true))

/** Waits until every agent of `ids` has an embedding whose text hash is not `notHash` (null: any). */
const embedded = (ids: ReadonlyArray<string>, notHash: ReadonlyArray<string | null> = ids.map(() => null)) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    waitFor(
      "the agents' embeddings",
      until(
        sql<{ agentId: string; hash: string }>`SELECT agent_id AS "agentId", source_hash AS hash FROM agent_search_embeddings
          WHERE agent_id IN ${sql.in(ids)}`,
        (rows) => ids.every((id, i) => rows.some((r) => r.agentId === id && r.hash !== notHash[i]))
      ),
      30_000,
      100
    ))

const hashOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ hash: string }>`SELECT source_hash AS hash FROM agent_search_embeddings WHERE agent_id = ${id}`, ([r]) => r!.hash))

layer(configured.layer, { excludeTestServices: true })("search with an embeddings model", (it) => {
  it.effect("a query in other words finds the agent of that meaning first; without pgvector, text only", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const nimbus = yield* register(owner, { name: "Nimbus Outlook", description: "Weather prediction for every city." })
      const ledger = yield* register(owner, { name: "Ledger Lane", description: "Bookkeeping for small shops." })
      // the registration answered before any embedding: they are computed in the background
      const vectors = yield* hasVectors
      if (!vectors) {
        // the embedded database: the configuration changes nothing, and the model is never called
        expect(yield* search("forecast")).not.toContain("Nimbus Outlook")
        expect((yield* search("weather"))[0]).toBe("Nimbus Outlook")
        expect(model.inputs).toEqual([])
        return
      }
      yield* embedded([nimbus.entityId, ledger.entityId])
      // "forecast" is in no agent's text: the nearest agent by meaning comes first
      expect((yield* search("forecast"))[0]).toBe("Nimbus Outlook")
      expect((yield* search("accounting"))[0]).toBe("Ledger Lane")
      // a text match still counts: "weather forecast" (weather in the text, forecast only in meaning)
      expect((yield* search("weather forecast"))[0]).toBe("Nimbus Outlook")
      // an unrelated query does not list them
      expect(yield* search("research")).not.toContain("Nimbus Outlook")
      // the document text sent to the model holds the fields the text search weighs
      expect(model.inputs.flat().some((t) => t.includes("Nimbus Outlook") && t.includes("Weather prediction for every city."))).toBe(true)
    }))

  it.effect("a changed text is embedded again in the background; a query's embedding is computed once per text", () =>
    Effect.gen(function*() {
      if (!(yield* hasVectors)) return
      const owner = yield* signIn("owner")
      const agent = yield* register(owner, { name: "Stratus Desk", description: "Weather outlooks for sailors." })
      yield* embedded([agent.entityId])
      expect(yield* search("meteorology")).toContain("Stratus Desk")
      const before = yield* hashOf(agent.entityId)
      const update = yield* call("PATCH", `${list}/${agent.entityId}`, {
        session: owner,
        body: { expectedVersion: agent.version, description: "Invoices and ledgers for sailors." }
      })
      expect(update.status, update.text).toBe(200)
      yield* embedded([agent.entityId], [before])
      expect(yield* search("bookkeeping")).toContain("Stratus Desk")
      expect(yield* search("predictions")).not.toContain("Stratus Desk")

      // the same query text again within a minute: one request to the model
      const asked = () => model.inputs.filter((input) => input.length === 1 && input[0] === "bookkeeping").length
      expect(asked()).toBe(1)
      yield* search("bookkeeping")
      yield* search("Bookkeeping!")
      expect(asked()).toBe(1)
    }))

  it.effect("a model outage: search answers by text, new agents stay queued until the model is back", () =>
    Effect.gen(function*() {
      if (!(yield* hasVectors)) return
      const owner = yield* signIn("owner")
      model.failing = true
      const agent = yield* register(owner, { name: "Cirrus Watch", description: "Prediction of weather at sea." })
      // the query's embedding fails: the search is text only, and answers
      expect(yield* search("forecasting")).not.toContain("Cirrus Watch")
      expect((yield* search("cirrus"))[0]).toBe("Cirrus Watch")
      const sql = yield* SqlClient.SqlClient
      const [queued] = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM agent_search_embedding_queue WHERE agent_id = ${agent.entityId}`
      expect(queued!.n).toBe("1")
      model.failing = false
      yield* embedded([agent.entityId])
      expect((yield* search("forecasts"))).toContain("Cirrus Watch")
    }))
})

layer(plain.layer, { excludeTestServices: true })("search without an embeddings model", (it) => {
  it.effect("the relevance order is the text formula exactly, and a query in other words finds nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      yield* register(owner, { name: "Nimbus Outlook", description: "Weather prediction for every city." })
      expect(yield* search("forecast")).not.toContain("Nimbus Outlook")
      const repo = yield* AgentsRepo.pipe(Effect.provide(AgentsRepo.Default))
      const sql = yield* SqlClient.SqlClient
      for (const q of ["research", "agent demo", "wether", "nimbus prediction", "chain monitoring"]) {
        const words = queryWords(q)
        const tsquery = tsqueryText(yield* repo.resolveWords(words))
        expect(tsquery, q).not.toBeNull()
        const w = RelevanceWeights
        const expected = yield* sql<{ name: string }>`SELECT a.name FROM agents a
            JOIN agent_search_documents d ON d.agent_id = a.id LEFT JOIN agent_reputation r ON r.agent_id = a.id
            WHERE a.listed_at IS NOT NULL AND d.document @@ ${tsquery}::tsquery
            ORDER BY round((${w.text}::float8 * ts_rank(d.document, ${tsquery}::tsquery, 32)
              + ${w.similarity}::float8 * word_similarity(${words.join(" ")}::text, d.names)
              + ${w.reputation}::float8 * COALESCE(r.rank_score_ppm, 0) / 1e6)::numeric, 9) DESC, a.id`
        expect(yield* search(q), q).toEqual(expected.map((r) => r.name))
      }
    }))
})
