/**
 * A local server speaking the OpenAI embeddings API as `@effect/ai-openai` 0.41 calls it
 * (`POST /v1/embeddings` with `{model, input: string | string[]}`, answered
 * `{object: "list", data: [{object: "embedding", index, embedding}], model, usage}`), whose vectors
 * are deterministic and a little semantic: each word of the input counts in one of {@link Dimensions}
 * buckets, chosen by a hash of its concept, where the words of one concept of {@link Concepts}
 * ("forecast", "prediction", "weather", …) share one, so texts of the same meaning in different words
 * are near. It records what it received, and can be told to fail (500) to stand for a provider outage.
 */
import { Effect, type Scope } from "effect"
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** Dimensions of every vector. */
export const Dimensions = 256

/** Words of one meaning: each set is one concept (one bucket). */
export const Concepts: ReadonlyArray<ReadonlyArray<string>> = [
  ["weather", "forecast", "forecasts", "forecasting", "prediction", "predictions", "outlook", "outlooks", "meteorology"],
  ["invoice", "invoices", "bookkeeping", "accounting", "ledger", "ledgers"]
]

const conceptOf = new Map(Concepts.flatMap((words, i) => words.map((w) => [w, `concept-${i}`] as const)))

/** The bucket of a word's concept (the word itself when it has none). */
const bucket = (word: string): number =>
  createHash("sha256").update(conceptOf.get(word) ?? word).digest().readUInt32BE(0) % Dimensions

/** The unit vector of `text`: its words' bucket counts, normalised (a text without a word: the first axis). */
export const embed = (text: string): Array<number> => {
  const v = new Array<number>(Dimensions).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) v[bucket(word)]! += 1
  const norm = Math.hypot(...v)
  if (norm === 0) v[0] = 1
  return v.map((x) => norm === 0 ? x : x / norm)
}

/** A running embeddings server. */
export interface EmbeddingsServer {
  /** `http://127.0.0.1:<port>` (a profile's `baseUrl` is this with `/v1`) */
  readonly origin: string
  /** The inputs of every request received, oldest first (one array per request). */
  readonly inputs: Array<ReadonlyArray<string>>
  /** While true, every request is answered 500. */
  failing: boolean
}

/** Starts the server on 127.0.0.1 (a free port) for the scope. */
export const startEmbeddingsServer: Effect.Effect<EmbeddingsServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ server: ReturnType<typeof createServer>; state: EmbeddingsServer }>((resume) => {
    const state: { -readonly [K in keyof EmbeddingsServer]: EmbeddingsServer[K] } = { origin: "", inputs: [], failing: false }
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const answer = (status: number, body: unknown) =>
          res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
        if (req.method !== "POST" || req.url !== "/v1/embeddings") return answer(404, { error: { message: "not found" } })
        let body: { model?: unknown; input?: unknown }
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        } catch {
          return answer(400, { error: { message: "invalid JSON", type: "invalid_request_error" } })
        }
        const input = typeof body.input === "string" ? [body.input] : body.input
        if (!Array.isArray(input) || input.length === 0 || !input.every((s) => typeof s === "string" && s !== "")) {
          return answer(400, { error: { message: "input must be a non-empty string or array of them", type: "invalid_request_error" } })
        }
        state.inputs.push(input)
        if (state.failing) return answer(500, { error: { message: "the model is down", type: "server_error" } })
        answer(200, {
          object: "list",
          data: input.map((text: string, index) => ({ object: "embedding", index, embedding: embed(text) })),
          model: String(body.model),
          usage: { prompt_tokens: input.length, total_tokens: input.length }
        })
      })
    })
    server.listen(0, "127.0.0.1", () => {
      state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resume(Effect.succeed({ server, state }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map(({ state }) => state))
