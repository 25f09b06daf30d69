/**
 * Real server processes (`bin/main.ts`, as `npm start` runs it, through tsx) on one
 * PostgreSQL database, each a socket runner of the durable engine: for the multi-process
 * tests and `bench:runs`. Each process is killed and reaped when the scope closes; a client
 * for it sends the relative requests of `test/support/http.ts` (`call`, `signIn`) to it.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs"
import { freePort, type Proc, spawnNode } from "./engineCluster.js"

/** A started server process. */
export interface ServerProcess {
  readonly proc: Proc
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string
}

/**
 * Starts `bin/main.ts` on `databaseUrl` (migrated already, or migrated by this process:
 * start processes one after the other), serving HTTP on a free port and running the engine as a
 * socket runner on another; `env` adds or overrides settings. Ready when it logs that it listens.
 */
export const spawnServer = (label: string, databaseUrl: string, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const port = yield* freePort
    const runnerPort = yield* freePort
    const proc = yield* spawnNode(label, "bin/main.ts", {
      DATABASE_URL: databaseUrl,
      HOST: "127.0.0.1",
      PORT: String(port),
      ENGINE_RUNNER: "socket",
      ENGINE_RUNNER_HOST: "127.0.0.1",
      ENGINE_RUNNER_PORT: String(runnerPort),
      ENGINE_POLL_INTERVAL_MS: "100",
      LOG_FORMAT: "json",
      LOG_LEVEL: "info",
      // generous budgets: tests and benchmarks send many requests from one account and address
      RATE_SESSION_LIMIT: "60000",
      RATE_SESSION_WINDOW_SECONDS: "60",
      SIGN_IN_ACCOUNT_LIMIT: "900",
      SIGN_IN_ADDRESS_LIMIT: "900",
      ...env
    }, 180_000, /Listening on/)
    return { proc, baseUrl: `http://127.0.0.1:${port}` } satisfies ServerProcess
  })

/** `client` sending relative URLs to `server`. */
export const clientOf = (server: ServerProcess, client: HttpClient.HttpClient) =>
  client.pipe(HttpClient.mapRequest(HttpClientRequest.prependUrl(server.baseUrl)))

/** Runs `effect` with its `HttpClient` talking to `server` (the `call`/`signIn`/`openSse` helpers then reach it). */
export const against = (server: ServerProcess) =>
<A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => Effect.provideService(effect, HttpClient.HttpClient, clientOf(server, client)))

/**
 * Which of `servers` has a TCP connection from local port `port` on 127.0.0.1 (Linux:
 * the socket's inode from /proc/net/tcp, found among each process's open descriptors);
 * e.g. the process that made a request a local test server received.
 */
export const serverWithPort = (servers: ReadonlyArray<ServerProcess>, port: number) =>
  Effect.sync(() => {
    const inodes = new Set<string>()
    for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
      const lines = existsSync(table) ? readFileSync(table, "utf8").split("\n").slice(1) : []
      for (const line of lines) {
        const fields = line.trim().split(/\s+/)
        if (fields.length > 9 && parseInt(fields[1]!.split(":")[1]!, 16) === port) inodes.add(fields[9]!)
      }
    }
    return servers.find((server) => {
      try {
        return readdirSync(`/proc/${server.proc.pid}/fd`).some((fd) => {
          try {
            const target = readlinkSync(`/proc/${server.proc.pid}/fd/${fd}`)
            return inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? "")
          } catch {
            return false
          }
        })
      } catch {
        return false
      }
    })
  })

/** `/proc/<pid>/status` fields of a live process (Linux), or `gone`. */
const processState = (pid: number) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1]?.trim() ?? "?"
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    // utime and stime (fields 14 and 15 of stat), in clock ticks (1/100 s)
    const cpuSeconds = (Number(stat[11]) + Number(stat[12])) / 100
    return `state ${field("State")}, cpu ${cpuSeconds.toFixed(1)} s, rss ${field("VmRSS")}, threads ${field("Threads")}`
  } catch {
    return "gone"
  }
}

/**
 * What a failure message needs of `servers`: each process's state (running or sleeping,
 * CPU seconds used, resident memory) and the last `lines` lines of its output, and
 * `extra` (e.g. the database's sessions).
 */
export const serverDiagnostics = (servers: ReadonlyArray<ServerProcess>, lines = 60) =>
  servers.map(({ proc }) =>
    `\n--- ${proc.label} (pid ${proc.pid}, ${proc.exited() ? "exited" : processState(proc.pid)}):\n${
      proc.output().split("\n").slice(-lines).join("\n")
    }`
  ).join("")
