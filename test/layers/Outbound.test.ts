/**
 * The guarded outbound client (layers/Outbound.ts) against real local HTTP servers:
 * which targets it refuses (literal and resolved addresses, redirects, schemes), what
 * `OUTBOUND_ALLOWED_HOSTS` lets through, and its bounds (size, time, redirects).
 */
import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import ipaddr from "ipaddr.js"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"
import {
  DefaultOutboundOptions,
  isPublicAddress,
  makeOutbound,
  type OutboundOptions,
  outboundFailureOf,
  type ResolveAll
} from "../../layers/Outbound.js"

let server: Server
let port = 0
const seen: Array<{ readonly url: string; readonly headers: IncomingHttpHeaders }> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers })
    const u = new URL(req.url ?? "/", "http://x")
    if (u.pathname === "/ok") return res.writeHead(200, { "content-type": "application/json" }).end(`{"ok":true}`)
    if (u.pathname === "/big") return res.writeHead(200, { "content-length": "4096" }).end("x".repeat(4096))
    if (u.pathname === "/big-chunked") {
      res.writeHead(200)
      for (let i = 0; i < 8; i++) res.write("y".repeat(1024))
      return res.end()
    }
    if (u.pathname === "/slow") return setTimeout(() => res.destroyed || res.writeHead(200).end("late"), 3_000).unref()
    if (u.pathname === "/to") return res.writeHead(302, { location: u.searchParams.get("target")! }).end()
    if (u.pathname === "/loop") return res.writeHead(302, { location: `/loop?n=${Number(u.searchParams.get("n") ?? 0) + 1}` }).end()
    if (u.pathname === "/post-redirect") return res.writeHead(307, { location: "/ok" }).end()
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const client = (overrides: Partial<OutboundOptions> = {}) =>
  makeOutbound({ ...DefaultOutboundOptions, userAgent: "agent-directory/test", ...overrides })

/** The reason of the failure `f` rejects with (undefined when it resolves). */
const reasonOf = async (f: () => Promise<unknown>) => {
  try {
    await f()
    return undefined
  } catch (error) {
    return outboundFailureOf(error)?.reason ?? `other: ${String(error)}`
  }
}

/**
 * The IANA IPv4 Special-Purpose Address Registry (RFC 6890, RFC 8190; as updated 2025):
 * block, name, RFC, and its "Globally Reachable" column (`N/A` where the registry says so).
 */
const ipv4SpecialPurpose: ReadonlyArray<readonly [block: string, name: string, rfc: string, globallyReachable: boolean | "N/A"]> = [
  ["0.0.0.0/8", "\"This network\"", "RFC 791 §3.2", false],
  ["0.0.0.0/32", "\"This host on this network\"", "RFC 1122 §3.2.1.3", false],
  ["10.0.0.0/8", "Private-Use", "RFC 1918", false],
  ["100.64.0.0/10", "Shared Address Space", "RFC 6598", false],
  ["127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3", false],
  ["169.254.0.0/16", "Link Local", "RFC 3927", false],
  ["172.16.0.0/12", "Private-Use", "RFC 1918", false],
  ["192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890 §2.1", false],
  ["192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", false],
  ["192.0.0.8/32", "IPv4 dummy address", "RFC 7600", false],
  ["192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", true],
  ["192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", true],
  ["192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", false],
  ["192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", false],
  ["192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", false],
  ["192.31.196.0/24", "AS112-v4", "RFC 7535", true],
  ["192.52.193.0/24", "AMT", "RFC 7450", true],
  ["192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", "N/A"],
  ["192.88.99.2/32", "6a44-relay anycast address", "RFC 6751", false],
  ["192.168.0.0/16", "Private-Use", "RFC 1918", false],
  ["192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", true],
  ["198.18.0.0/15", "Benchmarking", "RFC 2544", false],
  ["198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", false],
  ["203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", false],
  ["240.0.0.0/4", "Reserved", "RFC 1112 §4", false],
  ["255.255.255.255/32", "Limited Broadcast", "RFC 8190, RFC 919 §7", false]
]

/** The IANA IPv6 Special-Purpose Address Registry (RFC 6890, RFC 8190; as updated 2025), as {@link ipv4SpecialPurpose}. */
const ipv6SpecialPurpose: ReadonlyArray<readonly [block: string, name: string, rfc: string, globallyReachable: boolean | "N/A"]> = [
  ["::1/128", "Loopback Address", "RFC 4291", false],
  ["::/128", "Unspecified Address", "RFC 4291", false],
  ["::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", false],
  ["64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", true],
  ["64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", false],
  ["100::/64", "Discard-Only Address Block", "RFC 6666", false],
  ["100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", false],
  ["2001::/23", "IETF Protocol Assignments", "RFC 2928", false],
  ["2001::/32", "TEREDO", "RFC 4380, RFC 8190", "N/A"],
  ["2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", true],
  ["2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", true],
  ["2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", true],
  ["2001:2::/48", "Benchmarking", "RFC 5180", false],
  ["2001:3::/32", "AMT", "RFC 7450", true],
  ["2001:4:112::/48", "AS112-v6", "RFC 7535", true],
  ["2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", "N/A"],
  ["2001:20::/28", "ORCHIDv2", "RFC 7343", true],
  ["2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", true],
  ["2001:db8::/32", "Documentation", "RFC 3849", false],
  ["2002::/16", "6to4", "RFC 3056", "N/A"],
  ["2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", true],
  ["3fff::/20", "Documentation", "RFC 9637", false],
  ["5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", false],
  ["fc00::/7", "Unique-Local", "RFC 4193, RFC 8190", false],
  ["fe80::/10", "Link-Local Unicast", "RFC 4291", false]
]

/** The first, a middle and the last address of an IPv4 block. */
const ipv4Samples = (block: string) => {
  const [base, bits] = ipaddr.IPv4.parseCIDR(block)
  const first = base.toByteArray().reduce((n, b) => n * 256 + b, 0) >>> 0
  const size = 2 ** (32 - bits)
  const at = (n: number) => ipaddr.fromByteArray([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]).toString()
  return [...new Set([at(first), at(first + Math.floor(size / 2)), at(first + size - 1)])]
}

/** The first, a middle and the last address of an IPv6 block. */
const ipv6Samples = (block: string) => {
  const [base, bits] = ipaddr.IPv6.parseCIDR(block)
  const first = base.toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n)
  const size = 1n << BigInt(128 - bits)
  const at = (n: bigint) => ipaddr.fromByteArray(Array.from({ length: 16 }, (_, i) => Number((n >> BigInt(8 * (15 - i))) & 255n))).toString()
  return [...new Set([at(first), at(first + size / 2n), at(first + size - 1n)])]
}

/** The IPv6 forms that carry IPv4 address `v4`: IPv4-mapped, IPv4-compatible (dotted and hex), NAT64 (both prefixes), 6to4. */
const ipv6FormsOf = (v4: string) => {
  const [a, b, c, d] = ipaddr.IPv4.parse(v4).octets as [number, number, number, number]
  const high = ((a << 8) | b).toString(16)
  const low = ((c << 8) | d).toString(16)
  return [`::ffff:${v4}`, `::${v4}`, `::${high}:${low}`, `64:ff9b::${v4}`, `64:ff9b:1::${high}:${low}`, `2002:${high}:${low}::1`]
}

describe("isPublicAddress", () => {
  it("allows global unicast: public IPv4, 2000::/3 outside special blocks, and IPv4-mapped and NAT64 forms of public IPv4", () => {
    for (
      const a of [
        "93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80e::200e", "::ffff:8.8.8.8",
        "64:ff9b::8.8.8.8", "64:ff9b::5db8:d822",
        // just outside special blocks
        "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.88.98.255", "198.17.255.255",
        "198.20.0.0", "223.255.255.255", "2001:200::1", "2003::1", "2620:4f:7fff:ffff::1", "3ffe::1", "3fff:1000::1"
      ]
    ) expect(isPublicAddress(a), a).toBe(true)
  })

  it("refuses every address of every IANA IPv4 special-purpose block, and the IPv6 forms that carry them", () => {
    for (const [block, name, rfc] of ipv4SpecialPurpose) {
      for (const a of ipv4Samples(block)) {
        expect(isPublicAddress(a), `${a} in ${block} ${name} (${rfc})`).toBe(false)
        for (const form of ipv6FormsOf(a)) expect(isPublicAddress(form), `${form}: ${a} in ${block} ${name}`).toBe(false)
      }
    }
    // multicast (IANA IPv4 Multicast Address Space Registry, RFC 5771) and its IPv6 forms
    for (const a of ["224.0.0.1", "239.255.255.255"]) {
      for (const form of [a, ...ipv6FormsOf(a)]) expect(isPublicAddress(form), form).toBe(false)
    }
  })

  it("refuses every address of every IANA IPv6 special-purpose block but IPv4-mapped and NAT64 ones, where the IPv4 address decides", () => {
    for (const [block, name, rfc, globallyReachable] of ipv6SpecialPurpose) {
      for (const a of ipv6Samples(block)) {
        if (block === "64:ff9b::/96" || block === "::ffff:0:0/96") {
          // a connection to these reaches the IPv4 address they carry: that address decides
          expect(isPublicAddress(a), a).toBe(isPublicAddress(embedded(a)))
          continue
        }
        expect(isPublicAddress(a), `${a} in ${block} ${name} (${rfc}, globally reachable ${globallyReachable})`).toBe(false)
      }
    }
    // outside 2000::/3 but in no registry entry: IPv4-compatible (deprecated), site-local, multicast, reserved space
    for (
      const a of ["::7f00:1", "::127.0.0.1", "::a9fe:a9fe", "::8.8.8.8", "::2", "fec0::1", "ff02::1", "ff0e::1", "4000::1", "8000::1", "e000::1"]
    ) expect(isPublicAddress(a), a).toBe(false)
    // 6to4 and Teredo are refused whatever IPv4 address they embed
    for (const a of ["2002:808:808::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2"]) expect(isPublicAddress(a), a).toBe(false)
    expect(isPublicAddress("not-an-address")).toBe(false)
  })
})

/** The IPv4 address in the low 32 bits of IPv6 address `a`. */
const embedded = (a: string) => ipaddr.fromByteArray(ipaddr.IPv6.parse(a).toByteArray().slice(12)).toString()

describe("the guarded fetch", () => {
  it.effect("refuses loopback, metadata and private targets, by literal or by name, unless the host is allowed", () =>
    Effect.promise(async () => {
      const outbound = client()
      for (
        const url of [
          `http://127.0.0.1:${port}/ok`, "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
          "http://[fd00:ec2::254]/", "http://10.0.0.1/", "http://0x7f.1/", "http://2130706433/", "http://100.100.100.200/"
        ]
      ) expect(await reasonOf(() => outbound.fetch(url)), url).toBe("address")
      // a name that resolves to loopback is refused where the connection is made
      expect(await reasonOf(() => outbound.fetch(`http://localhost:${port}/ok`))).toBe("address")
      expect(await reasonOf(() => outbound.fetch("file:///etc/passwd"))).toBe("scheme")
      expect(await reasonOf(() => outbound.fetch(`http://user:pw@127.0.0.1:${port}/ok`))).toBe("credentials")
      // nothing reached the server
      expect(seen.filter((s) => s.url === "/ok")).toEqual([])

      const allowed = client({ allowedHosts: [`127.0.0.1:${port}`] })
      const response = await allowed.fetch(`http://127.0.0.1:${port}/ok`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ ok: true })
      expect(response.url).toBe(`http://127.0.0.1:${port}/ok`)
      expect(seen.at(-1)!.headers["user-agent"]).toBe("agent-directory/test")
      // the entry names one port: another port of the same host is still refused
      expect(await reasonOf(() => allowed.fetch(`http://127.0.0.1:${port + 1}/ok`))).toBe("address")
      // a host entry without a port allows every port of it
      expect((await client({ allowedHosts: ["localhost"] }).fetch(`http://localhost:${port}/ok`)).status).toBe(200)
    }))

  it.effect("refuses IPv6 literals that reach loopback or the metadata address: IPv4-compatible, NAT64, 6to4, Teredo", () =>
    Effect.promise(async () => {
      const outbound = client()
      const before = seen.length
      for (
        const url of [
          `http://[::127.0.0.1]:${port}/ok`, "http://[::a9fe:a9fe]/latest/meta-data/", "http://[::]/", `http://[::7f00:1]:${port}/ok`,
          "http://[64:ff9b::169.254.169.254]/", "http://[64:ff9b:1::a9fe:a9fe]/", "http://[2002:7f00:1::1]/", "http://[2001:0:4136:e378::1]/",
          "http://[fe80::1]/", "http://[100::1]/", "http://[5f00::1]/"
        ]
      ) {
        expect(await reasonOf(() => outbound.fetch(url)), url).toBe("address")
        expect((await Effect.runPromise(Effect.flip(outbound.check(url)))).reason, url).toBe("address")
      }
      expect(seen.length).toBe(before)
    }))

  it.effect("refuses a name when any address it resolves to is not global unicast, at check() and at connection time", () =>
    Effect.promise(async () => {
      // the resolver's answers, as a hosts file would give them
      const table: Record<string, ReadonlyArray<string>> = {
        "compat.test": ["::7f00:1"],
        "metadata.test": ["::a9fe:a9fe"],
        "nat64-metadata.test": ["64:ff9b::a9fe:a9fe"],
        "nat64-local.test": ["64:ff9b:1::a00:1"],
        "six-to-four.test": ["2002:a00:1::1"],
        "teredo.test": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
        "mapped.test": ["::ffff:10.0.0.1"],
        "mixed.test": ["93.184.216.34", "::1"],
        "documentation.test": ["2001:db8::1"],
        "public.test": ["93.184.216.34", "2606:4700:4700::1111", "64:ff9b::5db8:d822"],
        "service.test": ["127.0.0.1"]
      }
      const lookups: Array<string> = []
      const resolveAll: ResolveAll = (hostname, _options, callback) => {
        lookups.push(hostname)
        const addresses = table[hostname]
        if (addresses === undefined) return callback(Object.assign(new Error("not found"), { code: "ENOTFOUND" }), [])
        callback(null, addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))
      }
      const outbound = makeOutbound({ ...DefaultOutboundOptions, allowedHosts: ["service.test"] }, resolveAll)
      const before = seen.length
      for (const name of Object.keys(table).filter((n) => n !== "public.test" && n !== "service.test")) {
        const url = `http://${name}:${port}/ok`
        expect((await Effect.runPromise(Effect.flip(outbound.check(url)))).reason, name).toBe("address")
        expect(await reasonOf(() => outbound.fetch(url)), name).toBe("address")
      }
      expect(Exit.isSuccess(await Effect.runPromiseExit(outbound.check("https://public.test/card.json")))).toBe(true)
      expect(seen.length).toBe(before)
      // a named host in OUTBOUND_ALLOWED_HOSTS is still reached (through the same resolver)
      const response = await outbound.fetch(`http://service.test:${port}/ok`)
      expect(response.status).toBe(200)
      expect(lookups).toContain("service.test")
      expect(seen.length).toBe(before + 1)
    }))

  it.effect("checks every redirect's target, follows at most maxRedirects, and answers a redirected command as the 3xx", () =>
    Effect.promise(async () => {
      const outbound = client({ allowedHosts: [`localhost:${port}`], maxRedirects: 3 })
      // an allowed host redirecting to the metadata address or to a not-allowed loopback port
      for (const target of ["http://169.254.169.254/", `http://127.0.0.1:${port}/ok`, `http://localhost:${port + 1}/`]) {
        const url = `http://localhost:${port}/to?target=${encodeURIComponent(target)}`
        expect(await reasonOf(() => outbound.fetch(url)), target).toBe("address")
      }
      expect((await outbound.fetch(`http://localhost:${port}/to?target=%2Fok`)).status).toBe(200)
      expect(await reasonOf(() => outbound.fetch(`http://localhost:${port}/loop`))).toBe("redirects")
      expect(seen.filter((s) => s.url.startsWith("/loop")).length).toBe(4) // the first request and 3 redirects
      const post = await outbound.fetch(`http://localhost:${port}/post-redirect`, { method: "POST", body: "{}" })
      expect(post.status).toBe(307)
      const manual = await outbound.fetch(`http://localhost:${port}/to?target=%2Fok`, { redirect: "manual" })
      expect(manual.status).toBe(302)
    }))

  it.effect("caps the body (declared or streamed) and bounds the wait", () =>
    Effect.promise(async () => {
      const outbound = client({ allowedHosts: [`127.0.0.1:${port}`], maxBytes: 2048, timeoutMs: 300 })
      expect(await reasonOf(() => outbound.fetch(`http://127.0.0.1:${port}/big`))).toBe("too-large")
      expect(await reasonOf(async () => (await outbound.fetch(`http://127.0.0.1:${port}/big-chunked`)).text())).toBe("too-large")
      const started = Date.now()
      expect(await reasonOf(() => outbound.fetch(`http://127.0.0.1:${port}/slow`))).toBe("timeout")
      expect(Date.now() - started).toBeLessThan(2_500)
    }))

  it.effect("check() and checkField() refuse at creation; Effect's HttpClient goes through the same guard", () =>
    Effect.gen(function*() {
      const outbound = client()
      expect(Exit.isFailure(yield* Effect.exit(outbound.check("https://93.184.216.34/card.json")))).toBe(false)
      const refused = yield* Effect.flip(outbound.check("http://127.0.0.1/"))
      expect(refused.reason).toBe("address")
      expect((yield* Effect.flip(outbound.check("ftp://example.com/"))).reason).toBe("scheme")
      expect((yield* Effect.flip(outbound.check(`http://localhost:${port}/`))).reason).toBe("address")
      const problem = yield* Effect.flip(outbound.checkField("http://169.254.169.254/", "/serverUrl"))
      expect(problem.status).toBe(400)
      expect(problem.errors).toEqual([{ in: "body", pointer: "/serverUrl", detail: expect.stringContaining("non-public address") }])
      expect(problem.detail).not.toContain("169.254")

      const failure = yield* HttpClient.get(`http://127.0.0.1:${port}/ok`).pipe(Effect.provide(outbound.httpClient), Effect.flip)
      expect(outboundFailureOf(failure)?.reason).toBe("address")
    }))
})
