/**
 * Wallets_RegisterWallet and Wallets_ListWallets: an address proven by a real EIP-4361 message
 * signed with a local viem account; wrong signer, other domain, other chain, expired and replayed
 * messages refused; the workspace's wallets listed by signed cursor pages.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createSiweMessage, generateSiweNonce } from "viem/siwe"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const server = makeTestServer()

/** The service's origin in the test configuration (`PUBLIC_BASE_URL`). */
const origin = "https://directory.test"

/** A SIWE message for `account` on `chainId`, issued at the test clock's start unless told otherwise. */
const siwe = async (
  key: `0x${string}`,
  options: {
    readonly chainId?: number
    readonly domain?: string
    readonly issuedAt?: Date
    readonly expirationTime?: Date
    readonly nonce?: string
    readonly signer?: `0x${string}`
  } = {}
) => {
  const account = privateKeyToAccount(key)
  const message = createSiweMessage({
    address: account.address,
    chainId: options.chainId ?? 8453,
    domain: options.domain ?? "directory.test",
    uri: `${origin}/wallets`,
    version: "1",
    nonce: options.nonce ?? generateSiweNonce(),
    issuedAt: options.issuedAt ?? TestEpoch,
    ...(options.expirationTime !== undefined ? { expirationTime: options.expirationTime } : {}),
    statement: "Register this wallet with the Agent Directory."
  })
  const signature = await privateKeyToAccount(options.signer ?? key).signMessage({ message })
  return { address: account.address, message, signature }
}

const register = (session: Session, body: unknown) => call("POST", "/api/v1/wallets", { session, body })

const registerBody = (proof: { address: string; message: string; signature: string }, chainId = 8453) => ({
  workspaceId: DemoWorkspaces.acme.id,
  account: `eip155:${chainId}:${proof.address}`,
  message: proof.message,
  signature: proof.signature
})

layer(server.layer)("Wallets_RegisterWallet", (it) => {
  it.effect("a message signed by the address registers it: 201, listed for the workspace, its nonce used once", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = generatePrivateKey()
      const proof = yield* Effect.promise(() => siwe(key))
      const reply = yield* register(owner, registerBody(proof))
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data).toEqual({
        walletPublicId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        workspaceId: DemoWorkspaces.acme.id,
        network: "eip155:8453",
        account: `eip155:8453:${proof.address}`,
        address: proof.address,
        proofMethod: "SIWE",
        provenAt: TestEpoch.toISOString(),
        createdAt: TestEpoch.toISOString()
      })
      // the same message again: its nonce proved once
      expectProblem(yield* register(owner, registerBody(proof)), 409, "nonce-used")
      // a fresh message for the same address: already registered
      const again = yield* Effect.promise(() => siwe(key))
      expectProblem(yield* register(owner, registerBody(again)), 409, "wallet-already-registered")

      const list = yield* call("GET", `/api/v1/wallets?workspaceId=${DemoWorkspaces.acme.id}&limit=1`, { session: owner })
      expect(list.status, list.text).toBe(200)
      expect(list.body.data).toEqual([reply.body.data])
      // a member (EDITOR) sees the same list
      const member = yield* signIn("member")
      const theirs = yield* call("GET", `/api/v1/wallets?workspaceId=${DemoWorkspaces.acme.id}`, { session: member })
      expect(theirs.body.data.map((w: { walletPublicId: string }) => w.walletPublicId)).toContain(reply.body.data.walletPublicId)
      // an outsider does not see the workspace
      const outsider = yield* signIn("outsider")
      expectProblem(yield* call("GET", `/api/v1/wallets?workspaceId=${DemoWorkspaces.acme.id}`, { session: outsider }), 404, "workspace-not-found")
    }))

  it.effect("cursor pages: newest first, the cursor bound to the workspace and caller", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const made: Array<string> = []
      for (let i = 0; i < 3; i++) {
        server.clock.advance(1000)
        const proof = yield* Effect.promise(() => siwe(generatePrivateKey(), { issuedAt: new Date(server.clock.unsafeCurrentTimeMillis()) }))
        const reply = yield* register(owner, registerBody(proof))
        expect(reply.status, reply.text).toBe(201)
        made.push(reply.body.data.walletPublicId)
      }
      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const query: string = `workspaceId=${DemoWorkspaces.acme.id}&limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
        const page = yield* call("GET", `/api/v1/wallets?${query}`, { session: owner })
        expect(page.status, page.text).toBe(200)
        expect(page.body.data.length).toBeLessThanOrEqual(2)
        seen.push(...page.body.data.map((w: { walletPublicId: string }) => w.walletPublicId))
        cursor = page.body.nextCursor
        if (cursor !== null) {
          const member = yield* signIn("member")
          const stolen = yield* call("GET", `/api/v1/wallets?${query.replace(/cursor=[^&]*/, "")}&cursor=${encodeURIComponent(cursor)}`, {
            session: member
          })
          expectProblem(stolen, 400, "invalid-cursor")
        }
      } while (cursor !== null)
      expect(seen.slice(0, 3)).toEqual([...made].reverse())
      expect(new Set(seen).size).toBe(seen.length)
    }))

  it.effect("wrong signer, other domain, other chain: 422 proof-invalid; expired: 410; unknown network: 422", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const key = generatePrivateKey()
      const wrongSigner = yield* Effect.promise(() => siwe(key, { signer: generatePrivateKey() }))
      const refused = yield* register(owner, registerBody(wrongSigner))
      expectProblem(refused, 422, "proof-invalid")
      expect(refused.text).not.toContain(wrongSigner.signature)

      const otherDomain = yield* Effect.promise(() => siwe(key, { domain: "evil.example" }))
      expectProblem(yield* register(owner, registerBody(otherDomain)), 422, "proof-invalid")

      // the message says Base, the account says Ethereum
      const base = yield* Effect.promise(() => siwe(key))
      expectProblem(yield* register(owner, registerBody(base, 1)), 422, "proof-invalid")

      const old = yield* Effect.promise(() => siwe(key, { issuedAt: new Date(TestEpoch.getTime() - 11 * 60_000) }))
      expectProblem(yield* register(owner, registerBody(old)), 410, "challenge-expired")
      const expired = yield* Effect.promise(() =>
        siwe(key, { issuedAt: new Date(TestEpoch.getTime() - 60_000), expirationTime: new Date(TestEpoch.getTime() - 1) })
      )
      expectProblem(yield* register(owner, registerBody(expired)), 410, "challenge-expired")
      const future = yield* Effect.promise(() => siwe(key, { issuedAt: new Date(TestEpoch.getTime() + 3_600_000) }))
      expectProblem(yield* register(owner, registerBody(future)), 422, "proof-invalid")

      // a long-lived message with an Expiration Time ahead is accepted, on a network nobody configured: 422
      const unknownChain = yield* Effect.promise(() => siwe(key, { chainId: 999_999 }))
      expectProblem(yield* register(owner, registerBody(unknownChain, 999_999)), 422, "configuration-missing")
      const notSiwe = { ...registerBody(base), message: "please register me" }
      expectProblem(yield* register(owner, notSiwe), 422, "proof-invalid")
      expectProblem(yield* register(owner, { ...registerBody(base), account: "eip155:8453:0x12" }), 400)
    }))

  it.effect("roles: a VIEWER is refused (403 role-required), a non-member 404", () =>
    Effect.gen(function*() {
      const admin = yield* signIn("admin") // VIEWER in acme
      const proof = yield* Effect.promise(() => siwe(generatePrivateKey()))
      expectProblem(yield* register(admin, registerBody(proof)), 403, "role-required")
      const outsider = yield* signIn("outsider")
      expectProblem(yield* register(outsider, registerBody(proof)), 404, "workspace-not-found")
    }))
})
