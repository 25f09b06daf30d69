/**
 * The client address a request comes from (anonymous budgets, sign-in throttling):
 * the TCP peer, or, behind `TRUSTED_PROXY_HOPS` reverse proxies that each append to
 * `X-Forwarded-For`, the entry the outermost trusted proxy appended. Entries left
 * of it are client-supplied and never trusted.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Option } from "effect"

/** The client address from the TCP peer and the `X-Forwarded-For` header, given the number of trusted proxy hops. */
export const clientAddressOf = (peer: string | undefined, forwardedFor: string | undefined, trustedProxyHops: number): string => {
  const direct = peer ?? "unknown"
  if (trustedProxyHops === 0) return direct
  const forwarded = (forwardedFor ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  return forwarded[forwarded.length - trustedProxyHops] ?? direct
}

/** The client address of `request` given the number of trusted proxy hops. */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustedProxyHops: number): string =>
  clientAddressOf(Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"], trustedProxyHops)
