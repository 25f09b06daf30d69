/**
 * A TCP proxy on 127.0.0.1 in front of a real server, whose `cut()` drops every
 * open connection at once (queries in flight see `Connection terminated
 * unexpectedly`); new connections go through again, as after a network blip.
 * `refuse(true)` makes the server unreachable until `refuse(false)`: every new
 * connection is dropped as soon as it is accepted.
 */
import { Effect } from "effect"
import { connect, createServer, type Socket } from "node:net"

export interface TcpProxy {
  readonly port: number
  /** Destroys every open connection (both sides). */
  readonly cut: () => void
  /** While `true`, drops every new connection at once (combine with `cut()` for an outage). */
  readonly refuse: (refusing: boolean) => void
}

/** A proxy to `host:port` for the scope. */
export const tcpProxy = (host: string, port: number) =>
  Effect.acquireRelease(
    Effect.async<TcpProxy & { readonly close: () => void }>((resume) => {
      const open = new Set<Socket>()
      let refusing = false
      const track = (s: Socket) => {
        open.add(s)
        s.on("close", () => open.delete(s))
        s.on("error", () => s.destroy())
      }
      const server = createServer((client) => {
        if (refusing) {
          client.on("error", () => {})
          client.destroy()
          return
        }
        const upstream = connect(port, host)
        track(client)
        track(upstream)
        client.pipe(upstream)
        upstream.pipe(client)
        client.on("close", () => upstream.destroy())
        upstream.on("close", () => client.destroy())
      })
      const cut = () => {
        for (const s of open) s.destroy()
      }
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(Effect.succeed({
          port: typeof address === "object" && address !== null ? address.port : 0,
          cut,
          refuse: (on) => {
            refusing = on
          },
          close: () => {
            cut()
            server.close()
          }
        }))
      })
    }),
    (proxy) => Effect.sync(proxy.close)
  )
