/**
 * A TCP server on 127.0.0.1 that plays a broken PostgreSQL, for dependency-failure
 * tests that need no real database (so they mean the same on both test runs):
 * - `silent`: accepts connections and never answers (a frozen server);
 * - `hang`: completes the start-up handshake, then never answers a query;
 * - `drop`: completes the handshake, then closes the connection on the first query
 *   (the driver reports `Connection terminated unexpectedly`, no code).
 * `closedPort` is a port nothing listens on (connections are refused).
 */
import { Effect } from "effect"
import { createServer, type Socket } from "node:net"

export type FakeMode = "silent" | "hang" | "drop"

// AuthenticationOk ('R', length 8, 0) then ReadyForQuery ('Z', length 5, idle)
const handshake = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49])

const serve = (mode: FakeMode) => (socket: Socket) => {
  socket.on("error", () => {})
  if (mode === "silent") return
  let started = false
  socket.on("data", (chunk) => {
    // the first packet is the StartupMessage (or an SSLRequest, which pg does not send unless asked)
    if (!started) {
      started = true
      socket.write(handshake)
      return
    }
    if (mode === "drop" && chunk.length > 0) socket.destroy()
  })
}

/** Listens in `mode` for the scope; returns its port. */
export const fakeDatabase = (mode: FakeMode) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
      const sockets = new Set<Socket>()
      const server = createServer((socket) => {
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
        serve(mode)(socket)
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({
          port,
          close: () => {
            for (const s of sockets) s.destroy()
            server.close()
          }
        }))
      })
    }),
    ({ close }) => Effect.sync(close)
  ).pipe(Effect.map(({ port }) => port))

/** A port on 127.0.0.1 with no listener (taken, then released). */
export const closedPort = Effect.scoped(fakeDatabase("silent"))
