/**
 * One probe of one endpoint, through the guarded outbound fetch
 * (`layers/Outbound.ts`: non-public addresses refused unless `OUTBOUND_ALLOWED_HOSTS`
 * allows them, sizes and waits bounded):
 *
 * - **HTTP check** (A2A interfaces, registration endpoints): one GET; any answer with a
 *   status below 500 within the timeout is ok (a JSON-RPC endpoint's 405 means it is there),
 *   a 5xx is `HTTP_STATUS`. The body is not read.
 * - **MCP check** (MCP servers): `initialize` then `ping` with the SDK's client over the
 *   connection's transport (src/mcp/Client.ts `pingServer`), the session closed after; a 401
 *   (OAuth required) counts as answered: the server is up. No access token is sent.
 *
 * Each probe is bounded by `timeoutMs` (`TIMEOUT` past it) and never fails: what went wrong
 * is its {@link ProbeFailureCode}. Latency is measured with the monotonic
 * `performance.now()` (a duration, not a time of the domain: the domain's `Clock` may be a
 * test's manual clock).
 */
import { Effect, Either, Option } from "effect"
import { type OutboundFailureReason, outboundFailureOf } from "../../layers/Outbound.js"
import { pingServer } from "../mcp/index.js"
import type { EndpointTarget, ProbeFailureCode } from "./Repo.js"

/** What a probe observed: `latencyMs` in whole milliseconds, null when nothing answered; `failureCode` null when ok. */
export interface ProbeOutcome {
  readonly ok: boolean
  readonly latencyMs: number | null
  readonly failureCode: ProbeFailureCode | null
}

/** The failure code of each way the outbound client refuses or fails a request. */
const outboundCodes: Record<OutboundFailureReason, ProbeFailureCode> = {
  scheme: "TARGET_REFUSED",
  credentials: "TARGET_REFUSED",
  address: "TARGET_REFUSED",
  redirects: "TARGET_REFUSED",
  "too-large": "RESPONSE_TOO_LARGE",
  timeout: "TIMEOUT",
  network: "CONNECTION_FAILED"
}

/** The failure codes of src/mcp/Client.ts (`CatalogFetchFailure.code`) as probe codes; `auth-required` is ok. */
const mcpCode = (code: string): ProbeFailureCode | null => {
  switch (code) {
    case "auth-required":
      return null
    case "timeout":
      return "TIMEOUT"
    case "network-error":
      return "CONNECTION_FAILED"
    case "target-refused":
      return "TARGET_REFUSED"
    case "response-too-large":
      return "RESPONSE_TOO_LARGE"
    default:
      return code.startsWith("http-") ? "HTTP_STATUS" : "PROTOCOL_ERROR"
  }
}

/** Codes for which something answered (so a latency is kept). */
const answered = (code: ProbeFailureCode | null) =>
  code === null || code === "HTTP_STATUS" || code === "PROTOCOL_ERROR" || code === "RESPONSE_TOO_LARGE"

const outcome = (failureCode: ProbeFailureCode | null, started: number): ProbeOutcome => ({
  ok: failureCode === null,
  latencyMs: answered(failureCode) ? Math.max(0, Math.round(performance.now() - started)) : null,
  failureCode
})

/** True when `url` is an http(s) URL (anything else is refused without a request). */
const isHttpUrl = (url: string) => {
  try {
    const protocol = new URL(url).protocol
    return protocol === "http:" || protocol === "https:"
  } catch {
    return false
  }
}

/** The HTTP check of `url` (see the module's description). Never fails. */
export const httpCheck = (fetch: typeof globalThis.fetch, url: string, timeoutMs: number): Effect.Effect<ProbeOutcome> =>
  Effect.suspend(() => {
    if (!isHttpUrl(url)) return Effect.succeed<ProbeOutcome>({ ok: false, latencyMs: null, failureCode: "TARGET_REFUSED" })
    const started = performance.now()
    return Effect.tryPromise({
      try: async (signal) => {
        const response = await fetch(url, { method: "GET", signal, headers: { accept: "*/*" } })
        void response.body?.cancel().catch(() => undefined)
        return response.status
      },
      catch: (error) => outboundCodes[outboundFailureOf(error)?.reason ?? "network"]
    }).pipe(
      Effect.timeoutFail({ duration: timeoutMs, onTimeout: (): ProbeFailureCode => "TIMEOUT" }),
      Effect.either,
      Effect.map(Either.match({
        onLeft: (code) => outcome(code, started),
        onRight: (status) => outcome(status < 500 ? null : "HTTP_STATUS", started)
      }))
    )
  })

/** The MCP check of the server at `url` over `transport` (see the module's description). Never fails. */
export const mcpCheck = (
  fetch: typeof globalThis.fetch,
  url: string,
  transport: EndpointTarget["transport"],
  timeoutMs: number
): Effect.Effect<ProbeOutcome> =>
  Effect.suspend(() => {
    if (!isHttpUrl(url)) return Effect.succeed<ProbeOutcome>({ ok: false, latencyMs: null, failureCode: "TARGET_REFUSED" })
    const started = performance.now()
    return pingServer({ serverUrl: url, transport: transport ?? "AUTO", accessToken: Option.none(), fetch, timeoutMs }).pipe(
      Effect.mapError((failure) => mcpCode(failure.code)),
      // the client bounds each request by timeoutMs; the probe as a whole too
      Effect.timeoutFail({ duration: timeoutMs, onTimeout: (): ProbeFailureCode | null => "TIMEOUT" }),
      Effect.either,
      Effect.map(Either.match({
        onLeft: (code) => outcome(code, started),
        onRight: () => outcome(null, started)
      }))
    )
  })

/** Probes `target` as its kind says: an MCP check for an MCP server, else an HTTP check. Never fails. */
export const probeEndpoint = (
  fetch: typeof globalThis.fetch,
  target: EndpointTarget,
  timeoutMs: number
): Effect.Effect<ProbeOutcome> =>
  target.kind === "MCP_SERVER" ? mcpCheck(fetch, target.url, target.transport, timeoutMs) : httpCheck(fetch, target.url, timeoutMs)
