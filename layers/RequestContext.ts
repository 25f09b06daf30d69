/**
 * Per-request facts set once by the request middleware and read anywhere below it
 * (envelope `meta.requestId`, problem `requestId`/`instance`, idempotency replays).
 */
import { Effect, FiberRef } from "effect"

/** The current request's id (a uuid; also the `X-Request-Id` header), path and client address. */
export interface RequestInfo {
  readonly requestId: string
  readonly instance: string
  /** The client address (src/http/ClientAddress.ts: the TCP peer, or per `TRUSTED_PROXY_HOPS`); "" outside a request. */
  readonly clientAddress: string
}

/** FiberRef holding the current {@link RequestInfo}. */
export const CurrentRequest = FiberRef.unsafeMake<RequestInfo>({
  requestId: "00000000-0000-0000-0000-000000000000",
  instance: "",
  clientAddress: ""
})

/** The current request's info. */
export const currentRequest: Effect.Effect<RequestInfo> = FiberRef.get(CurrentRequest)
