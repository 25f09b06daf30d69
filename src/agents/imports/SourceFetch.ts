/**
 * Fetching the document of an import: one GET through the guarded outbound client
 * (layers/Outbound.ts: public addresses only unless `OUTBOUND_ALLOWED_HOSTS` names the
 * host, every wait bounded, the body capped), the whole fetch bounded by
 * {@link fetchDeadlineMs}, the body parsed as JSON. Every way it can go wrong is an
 * {@link ImportFailed} with one reason, never a hang.
 */
import { Duration, Effect } from "effect"
import { Outbound, outboundFailureCodes, outboundFailureOf, type OutboundOptions } from "../../../layers/Outbound.js"
import { ImportFailed } from "./ImportFailed.js"

/** The reason of a thrown fetch error: the outbound rule broken, or the host unreachable. */
const failureOf = (error: unknown): ImportFailed => {
  const known = outboundFailureOf(error)
  return known === undefined
    ? ImportFailed.of("network-error", "the host could not be reached")
    : ImportFailed.of(outboundFailureCodes[known.reason], known.rule)
}

/**
 * Bound on one whole fetch (ms): the outbound client bounds each wait to `timeoutMs`, so a
 * server trickling its body byte by byte would never trip it; this bounds the total to twice that.
 */
export const fetchDeadlineMs = (options: OutboundOptions) => 2 * options.timeoutMs

/** The document at `url`: its exact text and its JSON value. Fails with {@link ImportFailed}. */
export const fetchJsonDocument = (url: string) =>
  Effect.gen(function*() {
    const outbound = yield* Outbound
    const fetched = Effect.gen(function*() {
      const response = yield* Effect.tryPromise({
        try: (signal) => outbound.fetch(url, { headers: { accept: "application/json" }, signal }),
        catch: failureOf
      })
      if (response.status < 200 || response.status > 299) {
        void response.body?.cancel().catch(() => undefined)
        return yield* ImportFailed.of(`http-${response.status}`, `the server answered HTTP ${response.status}`)
      }
      const text = yield* Effect.tryPromise({ try: () => response.text(), catch: failureOf })
      const json = yield* Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: () => ImportFailed.of("not-json", "the body is not JSON (RFC 8259)")
      })
      return { text, json }
    })
    const deadline = fetchDeadlineMs(outbound.options)
    return yield* fetched.pipe(Effect.timeoutFail({
      duration: Duration.millis(deadline),
      onTimeout: () => ImportFailed.of("timeout", `no complete answer within ${deadline} ms`)
    }))
  })
