/**
 * Verified card signatures: an A2A Agent Card signed with jose (ES256, detached JWS over the
 * RFC 8785 form of the card without `signatures`), its key in a JWK Set served by a local HTTP
 * server (`jku`), is VERIFIED on import; the same card with one byte changed is INVALID; a card
 * without signatures is UNSIGNED; a card signed with an embedded `jwk` verifies too. The import's
 * result and the agent's profile state the outcome and the signer's key id.
 */
import { expect, layer } from "@effect/vitest"
import canonicalize from "canonicalize"
import { Effect } from "effect"
import { exportJWK, FlattenedSign, generateKeyPair } from "jose"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DemoAgentCard } from "../../../demo/agents/imports/seed.js"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { testConfig } from "../../support/config.js"
import { call, signIn } from "../../support/http.js"
import { makeTestServer } from "../../support/TestServer.js"
import { until, waitFor } from "../../support/waitFor.js"

const beacon = DemoAgents[1].id
const importsPath = `/api/v1/agents/${beacon}/imports`

/** Signs `card` (without signatures) as A2A says: a flattened JWS whose payload is detached. */
const sign = async (card: Record<string, unknown>, header: Record<string, unknown>, key: Parameters<FlattenedSign["sign"]>[0]) => {
  const payload = new TextEncoder().encode(canonicalize(card)!)
  const jws = await new FlattenedSign(payload).setProtectedHeader({ alg: "ES256", ...header }).sign(key)
  return { protected: jws.protected!, signature: jws.signature }
}

const Fixtures = Effect.promise(async () => {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: "beacon-2026", alg: "ES256", use: "sig" }
  const base = { ...DemoAgentCard, name: "Beacon Monitor", description: "Uptime and chain monitoring." }
  return { privateKey, jwk, base }
})

/** The local host: serves the cards and the JWK Set, built once the port is known. */
const Host = Effect.gen(function*() {
  const { base, jwk, privateKey } = yield* Fixtures
  const documents = new Map<string, string>()
  const server = yield* Effect.acquireRelease(
    Effect.async<Server>((resume) => {
      const s = createServer((req, res) => {
        const body = documents.get(req.url ?? "")
        if (body === undefined) return res.writeHead(404).end("{}")
        res.writeHead(200, { "content-type": "application/json" }).end(body)
      })
      s.listen(0, "127.0.0.1", () => resume(Effect.succeed(s)))
    }),
    (s) => Effect.async<void>((resume) => {
      s.closeAllConnections()
      s.close(() => resume(Effect.void))
    })
  )
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const jku = `${origin}/.well-known/jwks.json`
  const signed = { ...base, signatures: [yield* Effect.promise(() => sign(base, { kid: jwk.kid, jku }, privateKey))] }
  const signedText = JSON.stringify(signed, null, 2)
  // one byte of the description changed, the signature kept
  const tampered = signedText.replace("Uptime and chain monitoring.", "Uptime and chain monitoring!")
  const { kid: _kid, alg: _alg, use: _use, ...bareKey } = jwk
  const embedded = {
    ...base,
    signatures: [yield* Effect.promise(() => sign(base, { jwk: { ...bareKey, kid: "embedded-1" } }, privateKey))]
  }
  documents.set("/.well-known/jwks.json", JSON.stringify({ keys: [jwk] }))
  documents.set("/signed.json", signedText)
  documents.set("/tampered.json", tampered)
  documents.set("/unsigned.json", JSON.stringify(base))
  documents.set("/embedded.json", JSON.stringify(embedded))
  documents.set("/unknown-key.json", JSON.stringify({
    ...base,
    signatures: [yield* Effect.promise(() => sign(base, { kid: "gone", jku: `${origin}/missing-jwks.json` }, privateKey))]
  }))
  return { origin, jku }
})

const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: ["127.0.0.1"], timeoutMs: 2_000 } })

/** Imports the card at `url` into Beacon and answers the finished import. */
const importCard = (url: string) =>
  Effect.gen(function*() {
    const owner = yield* signIn("owner")
    const created = yield* call("POST", importsPath, { session: owner, body: { kind: "A2A_AGENT_CARD", url } })
    expect(created.status, created.text).toBe(202)
    const read = call("GET", `${importsPath}/${created.body.data.id}`, { session: owner })
    const done = yield* waitFor(
      "the import to finish",
      until(read, (r) => ["SUCCEEDED", "FAILED"].includes(r.body.data.state), (r) => r.text),
      20_000,
      50
    )
    expect(done.body.data.state, done.text).toBe("SUCCEEDED")
    const profile = (yield* call("GET", `/api/v1/agents/${beacon}`)).body.data
    return { result: done.body.data.result, profile }
  })

layer(server.layer, { excludeTestServices: true })("A2A card signatures", (it) => {
  it.scoped("a card signed with a key of its jku verifies; one changed byte is INVALID; unsigned is UNSIGNED; an embedded jwk verifies", () =>
    Effect.gen(function*() {
      const { jku, origin } = yield* Host

      const signed = yield* importCard(`${origin}/signed.json`)
      expect(signed.result).toMatchObject({ signatures: 1, signatureState: "VERIFIED", signatureKid: "beacon-2026" })
      expect(signed.profile).toMatchObject({ signatureState: "VERIFIED", signatureKid: "beacon-2026" })
      expect(jku).toContain("/.well-known/jwks.json")

      const tampered = yield* importCard(`${origin}/tampered.json`)
      expect(tampered.result).toMatchObject({ signatureState: "INVALID", signatureKid: "beacon-2026" })
      expect(tampered.profile).toMatchObject({ signatureState: "INVALID", signatureKid: "beacon-2026" })

      const unsigned = yield* importCard(`${origin}/unsigned.json`)
      expect(unsigned.result).toMatchObject({ signatures: 0, signatureState: "UNSIGNED", signatureKid: null })
      expect(unsigned.profile).toMatchObject({ signatureState: "UNSIGNED", signatureKid: null })

      const embedded = yield* importCard(`${origin}/embedded.json`)
      expect(embedded.profile).toMatchObject({ signatureState: "VERIFIED", signatureKid: "embedded-1" })

      // a key set that cannot be read verifies nothing
      const unknown = yield* importCard(`${origin}/unknown-key.json`)
      expect(unknown.profile).toMatchObject({ signatureState: "INVALID", signatureKid: "gone" })
    }))
})
