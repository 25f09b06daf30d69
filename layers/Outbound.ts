/**
 * The one HTTP client for every server-side fetch (agent imports, MCP servers, OAuth
 * servers, `did:web` documents, chain RPC, partner feeds): a WHATWG `fetch` that
 *
 * - fetches only `http:` and `https:` URLs without credentials in them;
 * - refuses every address that is not global unicast ({@link isPublicAddress}): loopback,
 *   private (RFC 1918), link-local (which holds the cloud metadata address 169.254.169.254),
 *   unique-local (`fd00:ec2::254`), CGNAT (100.64/10, Alibaba's metadata 100.100.100.200),
 *   unspecified, multicast, every block of the IANA IPv4 and IPv6 Special-Purpose Address
 *   Registries, and IPv6 forms that embed IPv4. The check is on every address a name
 *   resolves to, at connection time (so a name that re-resolves to a private address is
 *   caught), and on literal addresses in the URL, on the first request and on every redirect;
 * - follows at most `maxRedirects` redirects, for GET and HEAD only (a redirected
 *   command is answered as the 3xx it is), dropping `Authorization` across origins;
 * - bounds every wait (connect, headers, each body read) to `timeoutMs` and the
 *   response body to `maxBytes`;
 * - sends an identifying `User-Agent` unless the caller set one.
 *
 * `OUTBOUND_ALLOWED_HOSTS` names `host` or `host:port` targets exempt from the address
 * check (a local model server, the tests' local servers); the other rules still apply.
 *
 * Failures are {@link OutboundFailure} (thrown by `fetch`, wrapped in a `TypeError` as
 * WHATWG fetch does for network errors: see {@link outboundFailureOf}).
 */
import type { HttpClient } from "@effect/platform"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Context, Data, Effect, Layer } from "effect"
import ipaddr from "ipaddr.js"
import { type LookupAddress, type LookupAllOptions, lookup as dnsLookup } from "node:dns"
import type { LookupFunction } from "node:net"
import { Agent, fetch as undiciFetch } from "undici"
import { OutboundTargetRefused } from "../schema/errors.js"

/** Settings of the outbound client (docs/configuration.md, docs/outbound.md: `OUTBOUND_*`). */
export interface OutboundOptions {
  /** `host` or `host:port` entries (lower case) exempt from the address check; default none. */
  readonly allowedHosts: ReadonlyArray<string>
  /** Bound on each wait: connecting, the response headers, each read of the body; ms, default 10 000. */
  readonly timeoutMs: number
  /** Largest response body read, in bytes; default 5 MiB. */
  readonly maxBytes: number
  /** Redirects followed for GET and HEAD; default 5. */
  readonly maxRedirects: number
  /** The `User-Agent` sent when the caller sets none. */
  readonly userAgent: string
}

/** The defaults of {@link OutboundOptions}. */
export const DefaultOutboundOptions: OutboundOptions = {
  allowedHosts: [],
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  userAgent: "agent-directory"
}

/** Why a fetch was refused or failed; `rule` says it without repeating the URL. */
export type OutboundFailureReason = "scheme" | "credentials" | "address" | "redirects" | "too-large" | "timeout" | "network"

/** A refused or failed outbound request. */
export class OutboundFailure extends Data.TaggedError("OutboundFailure")<{
  readonly reason: OutboundFailureReason
  /** The rule broken or what failed, fit for a problem's `detail` or an import's reason. */
  readonly rule: string
}> {
  override get message() {
    return this.rule
  }
}

/**
 * The failure code each {@link OutboundFailureReason} is recorded as wherever a background
 * fetch stores why it failed (partner syncs, imports, MCP catalogs): `target-refused` (the
 * rules refuse the URL: scheme, credentials, a non-public address, too many redirects),
 * `response-too-large`, `timeout`, `network-error`.
 */
export const outboundFailureCodes: Record<OutboundFailureReason, string> = {
  scheme: "target-refused",
  credentials: "target-refused",
  address: "target-refused",
  redirects: "target-refused",
  "too-large": "response-too-large",
  timeout: "timeout",
  network: "network-error"
}

const rules = (options: OutboundOptions): Record<OutboundFailureReason, string> => ({
  scheme: "only http and https URLs are fetched",
  credentials: "URLs with a user name or password are not fetched",
  address:
    "the host is or resolves to a loopback, private, link-local, unique-local, CGNAT, metadata or other non-public address (allowed only for hosts in OUTBOUND_ALLOWED_HOSTS)",
  redirects: `more than ${options.maxRedirects} redirects`,
  "too-large": `the response is larger than ${options.maxBytes} bytes`,
  timeout: `no answer within ${options.timeoutMs} ms`,
  network: "the host could not be reached"
})

/** 2000::/3, the only IPv6 space IANA allocates as global unicast (RFC 4291 §2.4, IANA IPv6 Address Space registry). */
const ipv6GlobalUnicast = ipaddr.IPv6.parseCIDR("2000::/3")
/** The NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 §2.1): the low 32 bits are the IPv4 address reached. */
const nat64WellKnown = ipaddr.IPv6.parseCIDR("64:ff9b::/96")

/** True for an IPv4 address in no special-purpose block (IANA IPv4 Special-Purpose Address Registry, RFC 6890) nor multicast. */
const isGlobalIPv4 = (address: ipaddr.IPv4) => address.range() === "unicast"

/** The IPv4 address in the low 32 bits of `address`. */
const embeddedIPv4 = (address: ipaddr.IPv6) => {
  const [high, low] = address.parts.slice(6) as [number, number]
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

/**
 * IPv6 `address` in hexadecimal groups as the WHATWG URL host parser writes it (undefined when
 * it is not IPv6 text): `ipaddr.js` reads the deprecated IPv4-compatible text `::a.b.c.d` as
 * the IPv4-mapped `::ffff:a.b.c.d`, which is another address.
 */
const canonicalIPv6 = (address: string): string | undefined => {
  if (!address.includes(":")) return undefined
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1)
  } catch {
    return "invalid"
  }
}

/**
 * True for an address this client may connect to: global unicast only.
 *
 * - IPv4: in no block of the IANA IPv4 Special-Purpose Address Registry (RFC 6890, RFC 8190),
 *   nor multicast (224.0.0.0/4). The registry's blocks come from `ipaddr.js`'s range table;
 *   test/layers/Outbound.test.ts enumerates the registry so a missing block fails there.
 * - IPv6: the IPv4-mapped form `::ffff:a.b.c.d` (how a dual-stack socket names an IPv4 peer) and
 *   the NAT64 well-known prefix `64:ff9b::/96` (what DNS64 answers for an IPv4-only name on an
 *   IPv6-only network) are checked as the IPv4 address they reach. Every other address must be
 *   in 2000::/3 (global unicast, RFC 4291 §2.4) and in no block of the IANA IPv6
 *   Special-Purpose Address Registry. So `::/128`, `::1`, the deprecated IPv4-compatible
 *   `::a.b.c.d` (`::/96`, RFC 4291 §2.5.5.1), `64:ff9b:1::/48` (RFC 8215), discard-only and
 *   dummy prefixes, ULA, link- and site-local, SRv6 SIDs and multicast are refused (outside
 *   2000::/3), and so are Teredo (`2001::/32`), 6to4 (`2002::/16`, whatever IPv4 address it
 *   embeds) and the documentation, benchmarking and other IETF blocks.
 * - The few blocks the registries mark globally reachable (192.0.0.9 and 192.0.0.10, AS112
 *   192.31.196.0/24 and 192.175.48.0/24, AMT 192.52.193.0/24, the anycast addresses and
 *   blocks in 2001::/23, 2620:4f:8000::/48) are refused too: they hold anycast
 *   infrastructure (PCP, TURN, AS112 DNS sinks, AMT relays) and identifiers (ORCHIDv2, DRIP),
 *   none of them a web server an agent would be published on; 64:ff9b::/96 alone is
 *   allowed, as the IPv4 address it reaches.
 */
export const isPublicAddress = (address: string): boolean => {
  const canonical = canonicalIPv6(address) ?? address
  if (!ipaddr.isValid(canonical)) return false
  const parsed = ipaddr.parse(canonical)
  if (parsed.kind() === "ipv4") return isGlobalIPv4(parsed as ipaddr.IPv4)
  const v6 = parsed as ipaddr.IPv6
  if (v6.isIPv4MappedAddress() || v6.match(nat64WellKnown)) return isGlobalIPv4(embeddedIPv4(v6))
  return v6.match(ipv6GlobalUnicast) && v6.range() === "unicast"
}

/**
 * The {@link OutboundFailure} in a thrown value: the value itself, or a `cause` of it
 * (fetch wraps network errors in `TypeError("fetch failed")`, Effect's HttpClient in a
 * `RequestError`).
 */
export const outboundFailureOf = (u: unknown): OutboundFailure | undefined => {
  for (let e = u, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (e instanceof OutboundFailure) return e
    e = (e as { readonly cause?: unknown }).cause
  }
  return undefined
}

const redirectStatuses = new Set([301, 302, 303, 307, 308])
const nullBodyStatuses = new Set([101, 204, 205, 304])
const timeoutCodes = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT"
])

/** The outbound client. */
export interface OutboundShape {
  /** The guarded WHATWG fetch (give it to SDKs: MCP transports, oauth4webapi's `customFetch`, viem's `fetchFn`). */
  readonly fetch: typeof globalThis.fetch
  /** Effect's `HttpClient` over the guarded fetch. */
  readonly httpClient: Layer.Layer<HttpClient.HttpClient>
  /**
   * Checks a URL a caller gives before storing it: scheme, credentials, and the address of
   * a literal host or of every address its name resolves to now (a name that does not
   * resolve passes: the fetch will say). Fails with {@link OutboundFailure}.
   */
  readonly check: (url: string) => Effect.Effect<URL, OutboundFailure>
  /**
   * {@link check} for a request field: fails with the 400 problem
   * `outbound-target-refused` naming the field (`pointer`, a JSON pointer into the body).
   */
  readonly checkField: (url: string, pointer: string) => Effect.Effect<URL, OutboundTargetRefused>
  readonly options: OutboundOptions
}

/**
 * Whether `url`'s host is named in `allowedHosts` (`OUTBOUND_ALLOWED_HOSTS`: `host`, any
 * port, or `host:port`, the port defaulting to the scheme's), case-insensitively.
 */
export const isAllowedHost = (allowedHosts: ReadonlyArray<string>, url: URL): boolean => {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase()
  const port = url.port || (url.protocol === "https:" ? "443" : "80")
  return allowedHosts.some((entry) => {
    const h = entry.toLowerCase()
    return h === host || h === `${host}:${port}` || h === `${url.hostname.toLowerCase()}:${port}`
  })
}

/** The outbound client (see the module's description). */
export class Outbound extends Context.Tag("agent-directory/Outbound")<Outbound, OutboundShape>() {}

/**
 * Name resolution: every address `hostname` has (what `node:dns` `lookup` answers with
 * `all: true`, honouring `options.family` and `options.hints`).
 */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: ReadonlyArray<LookupAddress>) => void
) => void

/** The system resolver (`getaddrinfo` through `node:dns` `lookup`: hosts file, then DNS). */
export const systemResolveAll: ResolveAll = (hostname, options, callback) =>
  dnsLookup(hostname, { ...options, all: true }, callback)

/**
 * Makes the outbound client from its options (the dispatchers live as long as the process).
 * `resolveAll` resolves names (default the system resolver; tests give a fixed table).
 */
export const makeOutbound = (options: OutboundOptions, resolveAll: ResolveAll = systemResolveAll): OutboundShape => {
  const rule = rules(options)
  const fail = (reason: OutboundFailureReason) => new OutboundFailure({ reason, rule: rule[reason] })

  const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").toLowerCase()
  const isAllowed = (url: URL) => isAllowedHost(options.allowedHosts, url)

  /** Scheme, credentials and literal addresses (a literal host never reaches the lookup). */
  const checkStatic = (url: URL): OutboundFailure | undefined => {
    if (url.protocol !== "http:" && url.protocol !== "https:") return fail("scheme")
    if (url.username !== "" || url.password !== "") return fail("credentials")
    const host = hostOf(url)
    if (ipaddr.isValid(host) && !isAllowed(url) && !isPublicAddress(host)) return fail("address")
    return undefined
  }

  /** A connect-time lookup through `resolveAll`; with `guard`, every address a name resolves to is checked. */
  const lookupWith = (guard: boolean): LookupFunction => (hostname, lookupOptions, callback) => {
    resolveAll(hostname, { ...lookupOptions, all: true }, (error, list) => {
      if (error) return callback(error, "", 0)
      if (guard && (list.length === 0 || list.some((a) => !isPublicAddress(a.address)))) return callback(fail("address"), "", 0)
      if (lookupOptions.all) return (callback as unknown as (e: null, a: ReadonlyArray<LookupAddress>) => void)(null, list)
      if (list.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0)
      return callback(null, list[0]!.address, list[0]!.family)
    })
  }
  const timeouts = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs }
  const guarded = new Agent({ ...timeouts, connect: { timeout: options.timeoutMs, lookup: lookupWith(true) } })
  const open = new Agent({ ...timeouts, connect: { timeout: options.timeoutMs, lookup: lookupWith(false) } })

  /** The body of `response`, failing once more than `maxBytes` arrive. */
  const capped = (response: Awaited<ReturnType<typeof undiciFetch>>, url: URL): Response => {
    const declared = Number(response.headers.get("content-length") ?? "NaN")
    if (declared > options.maxBytes) {
      void response.body?.cancel()
      throw fail("too-large")
    }
    let seen = 0
    const limit = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > options.maxBytes) controller.error(fail("too-large"))
        else controller.enqueue(chunk)
      }
    })
    const body = response.body === null || nullBodyStatuses.has(response.status)
      ? null
      : (response.body as unknown as ReadableStream<Uint8Array>).pipeThrough(limit)
    const result = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers as unknown as Headers
    })
    Object.defineProperty(result, "url", { value: url.href })
    return result
  }

  const translate = (error: unknown): unknown => {
    const known = outboundFailureOf(error)
    if (known) return known
    for (let e: unknown = error, depth = 0; e && depth < 8; depth++) {
      const code = (e as { readonly code?: string }).code
      if (code && timeoutCodes.has(code)) return fail("timeout")
      if ((e as { readonly name?: string }).name === "AbortError") return error
      e = (e as { readonly cause?: unknown }).cause
    }
    return error
  }

  const guardedFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined
    let url = new URL(request ? request.url : String(input))
    let method = (init.method ?? request?.method ?? "GET").toUpperCase()
    const headers = new Headers(request?.headers)
    new Headers(init.headers).forEach((value, name) => headers.set(name, value))
    if (!headers.has("user-agent")) headers.set("user-agent", options.userAgent)
    let body: RequestInit["body"] | null = init.body ?? (request?.body as RequestInit["body"]) ?? null
    const follow = (init.redirect ?? request?.redirect ?? "follow") === "follow"
    for (let hop = 0;; hop++) {
      const refused = checkStatic(url)
      if (refused) throw refused
      let response: Awaited<ReturnType<typeof undiciFetch>>
      try {
        response = await undiciFetch(url, {
          method,
          headers: headers as never,
          body: body as never,
          redirect: "manual",
          signal: init.signal ?? request?.signal ?? null,
          dispatcher: isAllowed(url) ? open : guarded,
          ...(body !== null ? { duplex: "half" } : {})
        } as never)
      } catch (error) {
        throw translate(error)
      }
      const location = response.headers.get("location")
      if (!follow || !redirectStatuses.has(response.status) || location === null) return capped(response, url)
      if (method !== "GET" && method !== "HEAD") {
        if (response.status !== 303) return capped(response, url)
        method = "GET"
        body = null
      }
      if (hop >= options.maxRedirects) {
        void response.body?.cancel()
        throw fail("redirects")
      }
      void response.body?.cancel()
      const next = new URL(location, url)
      if (next.origin !== url.origin) {
        headers.delete("authorization")
        headers.delete("cookie")
      }
      url = next
    }
  }
  const fetch = guardedFetch as typeof globalThis.fetch

  const check = (raw: string): Effect.Effect<URL, OutboundFailure> =>
    Effect.gen(function*() {
      const url = yield* Effect.try({ try: () => new URL(raw), catch: () => fail("scheme") })
      const refused = checkStatic(url)
      if (refused) return yield* refused
      const host = hostOf(url)
      if (ipaddr.isValid(host) || isAllowed(url)) return url
      const addresses = yield* Effect.async<ReadonlyArray<LookupAddress>>((resume) => {
        resolveAll(host, { all: true }, (error, list) => resume(Effect.succeed(error ? [] : list)))
      }).pipe(Effect.timeoutTo({ duration: options.timeoutMs, onTimeout: () => [], onSuccess: (a) => a }))
      if (addresses.some((a) => !isPublicAddress(a.address))) return yield* fail("address")
      return url
    })

  return {
    fetch,
    httpClient: FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch))),
    check,
    checkField: (raw, pointer) =>
      check(raw).pipe(Effect.mapError((e) =>
        new OutboundTargetRefused({
          detail: `${pointer.slice(1) || "url"} cannot be fetched: ${e.rule}`,
          errors: [{ in: "body", pointer, detail: e.rule }]
        })
      )),
    options
  }
}

/** The outbound client with the given options. */
export const OutboundLive = (options: OutboundOptions): Layer.Layer<Outbound> => Layer.succeed(Outbound, makeOutbound(options))
