/**
 * The guarded outbound client (layers/Outbound.ts) against real local HTTP servers:
 * which targets it refuses (literal and resolved addresses, redirects, schemes), what
 * `OUTBOUND_ALLOWED_HOSTS` lets through, and its bounds (size, time, redirects).
 */
import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"
import {
  DefaultOutboundOptions,
  isPublicAddress,
  makeOutbound,
  type OutboundOptions,
  outboundFailureOf
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

describe("isPublicAddress", () => {
  it("allows global unicast only", () => {
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(isPublicAddress(a), a).toBe(true)
    for (
      const a of [
        "127.0.0.1", "127.8.9.10", "0.0.0.0", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
        "100.100.100.200", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::1",
        "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:a00:1::1", "2001::1", "ff02::1",
        "not-an-address"
      ]
    ) expect(isPublicAddress(a), a).toBe(false)
  })
})

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
