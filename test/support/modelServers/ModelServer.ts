/**
 * A local HTTP server for the model-provider tests: it answers each
 * request with the next scripted {@link Reply} (a JSON answer with a status, or a
 * Server-Sent Events stream) and records every request it received (method, path,
 * headers, JSON body), so a test drives the real provider clients over the real wire
 * and checks what they sent. The protocol helpers are in `./OpenAiResponses.ts` and
 * `./AnthropicMessages.ts`.
 */
import { Effect, type Scope } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/** One request the server received. */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  /** The body parsed as JSON (undefined when empty or not JSON). */
  readonly body: any
}

/** One SSE event: `event:` (optional) and its `data` (JSON-encoded). */
export interface SseEvent {
  readonly event?: string
  readonly data: unknown
}

/** How the server answers one request. */
export type Reply =
  | { readonly _tag: "Json"; readonly status: number; readonly body: unknown }
  | { readonly _tag: "Sse"; readonly events: ReadonlyArray<SseEvent>; readonly cutShort?: boolean }

/** A running scripted server. */
export interface ModelServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  /** `127.0.0.1:<port>` (for `OUTBOUND_ALLOWED_HOSTS`) */
  readonly host: string
  /** Every request received, oldest first. */
  readonly requests: Array<RecordedRequest>
  /** Queues the answers of the next requests, in order. */
  readonly script: (...replies: ReadonlyArray<Reply>) => void
  /** Every byte the server sent, for checks that a value never left through it. */
  readonly sent: () => string
}

/** An SSE reply of `events`; `cutShort`: the connection closes without the stream's end. */
export const sse = (events: ReadonlyArray<SseEvent>, cutShort = false): Reply => ({ _tag: "Sse", events, cutShort })

/** A JSON reply. */
export const json = (status: number, body: unknown): Reply => ({ _tag: "Json", status, body })

/**
 * Starts a scripted server on 127.0.0.1 (a free port) for the scope. A request with no
 * scripted answer left gets 500.
 */
export const startModelServer: Effect.Effect<ModelServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<{ server: ReturnType<typeof createServer>; model: ModelServer }>((resume) => {
    const queue: Array<Reply> = []
    const requests: Array<RecordedRequest> = []
    let sent = ""
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let body: unknown = undefined
        try {
          body = text === "" ? undefined : JSON.parse(text)
        } catch {
          body = undefined
        }
        requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body })
        const reply = queue.shift() ?? json(500, { error: { message: "no scripted answer", type: "server_error" } })
        if (reply._tag === "Json") {
          const out = JSON.stringify(reply.body)
          sent += out
          res.writeHead(reply.status, { "content-type": "application/json" })
          res.end(out)
          return
        }
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
        for (const e of reply.events) {
          const frame = `${e.event === undefined ? "" : `event: ${e.event}\n`}data: ${JSON.stringify(e.data)}\n\n`
          sent += frame
          res.write(frame)
        }
        if (reply.cutShort) res.destroy()
        else res.end()
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resume(Effect.succeed({
        server,
        model: {
          origin: `http://127.0.0.1:${port}`,
          host: `127.0.0.1:${port}`,
          requests,
          script: (...replies) => void queue.push(...replies),
          sent: () => sent
        }
      }))
    })
  }),
  ({ server }) => Effect.async<void>((resume) => {
    server.closeAllConnections()
    server.close(() => resume(Effect.void))
  })
).pipe(Effect.map(({ model }) => model))
