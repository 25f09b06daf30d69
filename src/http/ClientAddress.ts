/**
 * The client address a request comes from (anonymous budgets, sign-in throttling):
 * the TCP peer, or, behind `TRUSTED_PROXY_HOPS` reverse proxies that each append to
 * `X-Forwarded-For`, the entry the outermost trusted proxy appended. Entries left
 * of it are client-supplied and never trusted.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Option } from "effect"

/** The client address of `request` given the number of trusted proxy hops. */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustedProxyHops: number): string => {
  const peer = Option.getOrElse(request.remoteAddress, () => "unknown")
  if (trustedProxyHops === 0) return peer
  const forwarded = (request.headers["x-forwarded-for"] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  return forwarded[forwarded.length - trustedProxyHops] ?? peer
}
