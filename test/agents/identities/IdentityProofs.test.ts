/**
 * Agents_CreateIdentityChallenge and Agents_ProveIdentity through the HTTP
 * stack: EVM address (EIP-191, viem), SVM (Ed25519, base58), did:key and did:web (a local
 * HTTP server serving the DID document) — each proven, verification states moved, a locator
 * bound to two agents making both CONFLICTED — and the refusals: expiry (test clock), reuse,
 * bad signatures, roles, locators that cannot be proven, CAIP-2 inputs. The ERC-721 proof on
 * an in-process chain is in IdentityTokenProof.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { ed25519 } from "@noble/curves/ed25519.js"
import { base58, base64urlnopad, utf8 } from "@scure/base"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { DemoProofs } from "../../../demo/agents/identities/seed.js"
import { purgeExpiredIdentityChallenges } from "../../../src/agents/identities/ChallengePurge.js"
import { IdentitiesRepo } from "../../../src/agents/identities/Repo.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer, TestEpoch } from "../../support/TestServer.js"
import { waitFor } from "../../support/waitFor.js"

// a local did:web host: its document is set per test
let didDocument: unknown = null
const didServer = createServer((req, res) => {
  if (req.url === "/.well-known/did.json" && didDocument !== null) {
    res.writeHead(200, { "content-type": "application/did+json" }).end(JSON.stringify(didDocument))
  } else res.writeHead(404).end()
})
await new Promise<void>((resolve) => didServer.listen(0, "127.0.0.1", resolve))
const didPort = (didServer.address() as AddressInfo).port
const didWeb = `did:web:127.0.0.1%3A${didPort}`

// the local did:web host is reachable only because it is allowed (the outbound client refuses loopback otherwise)
const server = makeTestServer({ outbound: { ...testConfig().outbound, allowedHosts: [`127.0.0.1:${didPort}`] } })
const atlas = DemoAgents[0].id
const beacon = DemoAgents[1].id
const minute = 60_000

const challenge = (agent: string, body: Record<string, unknown>, session: Session) =>
  call("POST", `/api/v1/agents/${agent}/identity-challenges`, {
    body: { networkFamily: "EVM", network: null, protocol: null, registry: null, ...body },
    session
  })
const prove = (agent: string, challengeId: string, signature: string, session: Session) =>
  call("POST", `/api/v1/agents/${agent}/identities`, { body: { challengeId, signature }, session })

const setState = (agent: string, state: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE agents SET verification_state = ${state} WHERE id = ${agent}`).pipe(
    Effect.orDie
  )
const stateOf = (agent: string) =>
  call("GET", `/api/v1/agents/${agent}`).pipe(Effect.map((r) => r.body.data.verificationState as string))

/** An EVM challenge of `agent` for a fresh key's address, network named by CAIP-2; its signer. */
const evmChallenge = (agent: string, session: Session) =>
  Effect.gen(function*() {
    const account = privateKeyToAccount(generatePrivateKey())
    const reply = yield* challenge(agent, { network: "eip155:8453", locatorKind: "ADDRESS", nativeId: account.address }, session)
    expect(reply.status, reply.text).toBe(201)
    return { account, challenge: reply.body.data as { challengeId: string; message: string; expiresAt: string } }
  })

layer(server.layer)("identity proofs", (it) => {
  it.effect("EVM address: challenge (CAIP-2 network) → EIP-191 signature → 201 bound, proven, UNVERIFIED → VERIFIED", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      yield* setState(beacon, "UNVERIFIED")
      const { account, challenge: c } = yield* evmChallenge(beacon, owner)
      const at = server.clock.unsafeCurrentTimeMillis()
      expect(c.expiresAt).toBe(new Date(at + 10 * minute).toISOString())
      const lines = c.message.split("\n")
      expect(lines[0]).toBe("directory.test wants you to prove control of an identity for an agent:")
      expect(lines[1]).toBe(`evm:base:${account.address}`)
      expect(c.message).toContain(`URI: https://directory.test/api/v1/agents/${beacon}`)
      expect(c.message).toContain("Chain ID: eip155:8453")
      // an address states its wallet relation (default OWNER), so the signature covers it
      expect(lines).toContain("Wallet Relation: OWNER")
      expect(lines[3]).toContain("in the Agent Directory, as its OWNER wallet.")
      expect(c.message).toMatch(/\nNonce: [0-9a-f]{32}\n/)
      expect(c.message).toContain(`Issued At: ${new Date(at).toISOString()}`)
      expect(c.message).toContain(`Request ID: ${c.challengeId}`)

      const versionBefore = (yield* call("GET", `/api/v1/agents/${beacon}`)).body.data.version
      const reply = yield* prove(beacon, c.challengeId, yield* Effect.promise(() => account.signMessage({ message: c.message })), owner)
      expect(reply.status, reply.text).toBe(201)
      expectMeta(reply)
      expect(reply.body.data).toEqual({
        publicId: expect.any(String),
        locator: `evm:base:${account.address}`,
        networkFamily: "EVM",
        locatorKind: "ADDRESS",
        network: "base",
        caip2: "eip155:8453",
        registry: null,
        nativeId: account.address,
        provenAt: new Date(at).toISOString(),
        proofMethod: "EIP191",
        verificationState: "VERIFIED"
      })
      const profile = yield* call("GET", `/api/v1/agents/${beacon}`)
      expect(profile.body.data.verificationState).toBe("VERIFIED")
      expect(profile.body.data.version).toBe(versionBefore + 1) // the state moved: the profile's version too
      expect(profile.body.data.locators).toContainEqual(
        expect.objectContaining({ nativeId: account.address, provenAt: new Date(at).toISOString() })
      )
      // the resolver now names Beacon for the address, by CAIP-10 too
      const resolved = yield* call("POST", "/api/v1/resolve/agent-identities", {
        body: { locators: [{ networkFamily: "EVM", locatorKind: "ADDRESS", nativeId: `eip155:8453:${account.address.toLowerCase()}` }] }
      })
      expect(resolved.body.data.results[0]).toMatchObject({ status: "UNIQUE", candidates: [{ entityId: beacon }] })

      // a challenge proves once
      const again = yield* prove(beacon, c.challengeId, yield* Effect.promise(() => account.signMessage({ message: c.message })), owner)
      expectProblem(again, 409, "identity-challenge-used")
    }))

  it.effect("the demo challenge (manifest) is proven by the demo key's signature", () =>
    Effect.gen(function*() {
      const reply = yield* prove(atlas, DemoProofs.challenge.id, DemoProofs.challenge.signature, yield* signIn("owner"))
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data.nativeId).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
      // the demo challenge names relation OWNER: Atlas's OWNER wallet now, proof SIGNATURE naming the locator
      const wallets = yield* call("GET", `/api/v1/agents/${atlas}/wallets?limit=100`)
      expect(wallets.body.data).toContainEqual(expect.objectContaining({
        address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        relation: "OWNER",
        proof: { kind: "SIGNATURE", reference: reply.body.data.publicId, verifiedAt: reply.body.data.provenAt }
      }))
    }))

  it.effect("422 signature-invalid for another signer or a malformed signature (challenge still usable); 410 once expired", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const { account, challenge: c } = yield* evmChallenge(atlas, owner)
      const stranger = privateKeyToAccount(generatePrivateKey())
      const wrong = yield* prove(atlas, c.challengeId, yield* Effect.promise(() => stranger.signMessage({ message: c.message })), owner)
      expectProblem(wrong, 422, "signature-invalid")
      expect(wrong.text).not.toContain(stranger.address)
      expectProblem(yield* prove(atlas, c.challengeId, "0x1234", owner), 422, "signature-invalid")
      // another message signed by the right key
      const otherMessage = yield* prove(atlas, c.challengeId, yield* Effect.promise(() => account.signMessage({ message: "hello" })), owner)
      expectProblem(otherMessage, 422, "signature-invalid")
      // expired: 10 minutes later the right signature is refused
      server.clock.advance(10 * minute)
      const late = yield* prove(atlas, c.challengeId, yield* Effect.promise(() => account.signMessage({ message: c.message })), owner)
      expectProblem(late, 410, "challenge-expired")
      // a challenge of another agent is not found here
      const { challenge: other } = yield* evmChallenge(beacon, owner)
      expectProblem(yield* prove(atlas, other.challengeId, "0x00", owner), 404, "identity-challenge-not-found")
    }))

  it.effect("the same address proven for two agents makes both CONFLICTED, and the resolver says so", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const account = privateKeyToAccount(generatePrivateKey())
      for (const agent of [atlas, beacon]) {
        const c = yield* challenge(agent, { network: "base", locatorKind: "ADDRESS", nativeId: account.address }, owner)
        const { challengeId, message } = c.body.data
        const reply = yield* prove(agent, challengeId, yield* Effect.promise(() => account.signMessage({ message })), owner)
        expect(reply.status, reply.text).toBe(201)
      }
      expect(yield* stateOf(atlas)).toBe("CONFLICTED")
      expect(yield* stateOf(beacon)).toBe("CONFLICTED")
      const resolved = yield* call("POST", "/api/v1/resolve/agent-identities", {
        body: { locators: [{ networkFamily: "EVM", network: "eip155:8453", locatorKind: "ADDRESS", nativeId: account.address }] }
      })
      expect(resolved.body.data.results[0].status).toBe("CONFLICTED")
      expect(resolved.body.data.results[0].candidates.map((c: any) => c.entityId).sort()).toEqual([atlas, beacon].sort())
      yield* setState(atlas, "VERIFIED")
      yield* setState(beacon, "VERIFIED")
    }))

  it.effect("SVM: an Ed25519 signature (base58) by the base58 key, network by CAIP-2", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const secret = ed25519.utils.randomSecretKey()
      const key = base58.encode(ed25519.getPublicKey(secret))
      const c = yield* challenge(atlas, {
        networkFamily: "SVM",
        network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        protocol: "metaplex-core",
        locatorKind: "ASSET",
        nativeId: key
      }, owner)
      expect(c.status, c.text).toBe(201)
      const { challengeId, message } = c.body.data
      expect(message).toContain("Chain ID: solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")
      expect(message).not.toContain("Wallet Relation:") // an SVM asset is not a wallet relation
      const otherKey = ed25519.utils.randomSecretKey()
      expectProblem(
        yield* prove(atlas, challengeId, base58.encode(ed25519.sign(utf8.decode(message), otherKey)), owner),
        422,
        "signature-invalid"
      )
      const reply = yield* prove(atlas, challengeId, base58.encode(ed25519.sign(utf8.decode(message), secret)), owner)
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data).toMatchObject({
        locator: `svm:solana:metaplex-core:${key}`,
        network: "solana",
        caip2: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        proofMethod: "ED25519"
      })
    }))

  it.effect("did:key: an Ed25519 signature (base64url) by the key the DID encodes", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const secret = ed25519.utils.randomSecretKey()
      const did = `did:key:z${base58.encode(new Uint8Array([0xed, 0x01, ...ed25519.getPublicKey(secret)]))}`
      const c = yield* challenge(atlas, { networkFamily: "DID", locatorKind: "DID", nativeId: did }, owner)
      expect(c.status, c.text).toBe(201)
      expect(c.body.data.message).not.toContain("Chain ID")
      const { challengeId, message } = c.body.data
      // base58 is not this kind's encoding
      expectProblem(yield* prove(atlas, challengeId, base58.encode(ed25519.sign(utf8.decode(message), secret)), owner), 422, "signature-invalid")
      const reply = yield* prove(atlas, challengeId, base64urlnopad.encode(ed25519.sign(utf8.decode(message), secret)), owner)
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data).toMatchObject({ locator: did, networkFamily: "DID", network: null, caip2: null, proofMethod: "DID_KEY" })
    }))

  it.effect("did:web: a key of the document's authentication (local host); 422 did-not-resolvable without a document", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const secret = ed25519.utils.randomSecretKey()
      const multibase = `z${base58.encode(new Uint8Array([0xed, 0x01, ...ed25519.getPublicKey(secret)]))}`
      const c = yield* challenge(atlas, { networkFamily: "DID", locatorKind: "DID", nativeId: didWeb }, owner)
      expect(c.status, c.text).toBe(201)
      const { challengeId, message } = c.body.data
      const signature = base64urlnopad.encode(ed25519.sign(utf8.decode(message), secret))
      didDocument = null
      expectProblem(yield* prove(atlas, challengeId, signature, owner), 422, "did-not-resolvable")
      didDocument = {
        "@context": ["https://www.w3.org/ns/did/v1"],
        id: didWeb,
        verificationMethod: [{ id: `${didWeb}#key-1`, type: "Multikey", controller: didWeb, publicKeyMultibase: multibase }],
        authentication: ["#key-1"]
      }
      const reply = yield* prove(atlas, challengeId, signature, owner)
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data).toMatchObject({ locator: didWeb, proofMethod: "DID_WEB" })
    }))

  it.effect("400 for locators that cannot be proven or break a rule (the field named, not the value); 403/404 by role", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const offchain = yield* challenge(atlas, {
        networkFamily: "OFFCHAIN",
        locatorKind: "REGISTRY_KEY",
        registry: "agentverse",
        nativeId: "agent1qsecret"
      }, owner)
      expectProblem(offchain, 400, "invalid-request")
      expect(offchain.body.errors).toEqual([{ in: "body", pointer: "/locatorKind", detail: expect.any(String) }])
      expect(offchain.text).not.toContain("agent1qsecret")
      const malformed = yield* challenge(atlas, { network: "EIP155:8453", locatorKind: "ADDRESS", nativeId: "0x" + "ab".repeat(20) }, owner)
      expectProblem(malformed, 400, "invalid-request")
      expect(malformed.body.errors.map((e: any) => e.pointer)).toEqual(["/network"])
      expect(malformed.text).not.toContain("EIP155")
      const unknown = yield* challenge(atlas, { network: "eip155:999999", locatorKind: "ADDRESS", nativeId: "0x" + "ab".repeat(20) }, owner)
      expectProblem(unknown, 400, "invalid-request")
      expect(unknown.body.errors[0].detail).toMatch(/known network/)
      const noRegistry = yield* challenge(atlas, { network: "base", locatorKind: "REGISTRY_TOKEN", nativeId: "1" }, owner)
      expect(noRegistry.body.errors.map((e: any) => e.pointer)).toEqual(["/registry"])
      const otherDid = yield* challenge(atlas, { networkFamily: "DID", locatorKind: "DID", nativeId: "did:ethr:0xabc" }, owner)
      expect(otherDid.body.errors.map((e: any) => e.pointer)).toEqual(["/nativeId"])
      // a token's chain without an RPC endpoint
      const token = yield* challenge(atlas, {
        network: "eip155:8453",
        locatorKind: "REGISTRY_TOKEN",
        registry: "0x8004a6090Cd10A7288092483047B097295Fb8847",
        nativeId: "1"
      }, owner)
      expectProblem(token, 422, "configuration-missing")

      const body = { network: "base", locatorKind: "ADDRESS", nativeId: "0x" + "ab".repeat(20) }
      expectProblem(yield* challenge(atlas, body, yield* signIn("admin")), 403, "role-required")
      expectProblem(yield* challenge(atlas, body, yield* signIn("outsider")), 404, "agent-not-found")
      expectProblem(yield* challenge(DemoAgents[3].id, body, owner), 404, "agent-not-found")
      expect((yield* challenge(atlas, body, yield* signIn("member"))).status).toBe(201)
      // session commands need the CSRF token
      const noCsrf = yield* call("POST", `/api/v1/agents/${atlas}/identity-challenges`, {
        body: { networkFamily: "EVM", locatorKind: "ADDRESS", network: "base", nativeId: body.nativeId },
        session: owner,
        csrf: null
      })
      expectProblem(noCsrf, 403, "csrf-token-invalid")
    }))

  it.effect("expired challenges are purged by the PurgeIdentityChallenges cron; a purged one is 404", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const sql = yield* SqlClient.SqlClient
      const { challenge: c } = yield* evmChallenge(atlas, owner)
      const count = sql<{ n: number }>`SELECT count(*)::int AS n FROM agent_identity_challenges WHERE id = ${c.challengeId}`.pipe(
        Effect.map((rows) => rows[0]!.n),
        Effect.orDie
      )
      expect(yield* count).toBe(1)
      // past its expiry and past the next quarter-hour tick
      server.clock.advance(25 * minute)
      yield* waitFor("the expired challenge purged", Effect.tap(count, (n) => {
        expect(n).toBe(0)
      }), 20_000, 50)
      expectProblem(yield* prove(atlas, c.challengeId, "0x00", owner), 404, "identity-challenge-not-found")
      // the demo challenge (valid until 2036) stays; a purge run again deletes nothing
      const purge = purgeExpiredIdentityChallenges.pipe(Effect.provide(IdentitiesRepo.Default), Effect.withClock(server.clock))
      expect(yield* purge).toBe(0)
      expect(new Date(server.clock.unsafeCurrentTimeMillis()).getTime()).toBeGreaterThan(TestEpoch.getTime())
    }))
})
