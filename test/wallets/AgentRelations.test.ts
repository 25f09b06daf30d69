/**
 * Wallet-agent relations (spec §9 "public wallet-agent relation API with explicit
 * relation and proof"): Wallets_ListAgentWallets and Wallets_ListWalletAgents through the HTTP stack.
 * An EVM address is proven with a real viem signature through Agents_CreateIdentityChallenge
 * (`relation` PAYOUT) and Agents_ProveIdentity, then listed on both sides with proof SIGNATURE; the
 * relation is covered by the signature; funded/transferred addresses never relate; paging; 404s.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { DemoAccounts, DemoApiKeys } from "../../demo/accounts/seed.js"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoProvenPayout } from "../../demo/agents/identities/seed.js"
import { DemoNetworks } from "../../demo/common.js"
import { backfillRelations } from "../../src/db/migrations/0029_agent_wallet_relations.js"
import { DemoWallets } from "../../demo/wallets/seed.js"
import { call, expectMeta, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"

const server = makeTestServer()
const atlas = DemoAgents[0]
const beacon = DemoAgents[1]
const cobalt = DemoAgents[2]
const fundedAddress = "0xF00D000000000000000000000000000000fCeD11"
const baseNetwork = { publicId: DemoNetworks.base.id, key: "base", family: "EVM", displayName: "Base", caip2: "eip155:8453" }

const agentWallets = (agent: string, query = "", headers: Record<string, string> = {}) =>
  call("GET", `/api/v1/agents/${agent}/wallets${query}`, { headers })
const walletAgents = (wallet: string, query = "", headers: Record<string, string> = {}) =>
  call("GET", `/api/v1/wallets/${wallet}/agents${query}`, { headers })

/** A challenge of `agent` for a key's address on Base (optionally with a relation); the key and the challenge. */
const addressChallenge = (
  agent: string,
  session: Session,
  relation?: string | null,
  account = privateKeyToAccount(generatePrivateKey())
) =>
  Effect.gen(function*() {
    const reply = yield* call("POST", `/api/v1/agents/${agent}/identity-challenges`, {
      body: {
        networkFamily: "EVM",
        network: "eip155:8453",
        protocol: null,
        locatorKind: "ADDRESS",
        registry: null,
        nativeId: account.address,
        ...(relation === undefined ? {} : { relation })
      },
      session
    })
    expect(reply.status, reply.text).toBe(201)
    return { account, challenge: reply.body.data as { challengeId: string; message: string } }
  })

const prove = (agent: string, challengeId: string, signature: string, session: Session) =>
  call("POST", `/api/v1/agents/${agent}/identities`, { body: { challengeId, signature }, session })

/** Proves a (fresh) key's address for `agent` with `relation`; the address, the proven locator's public id and the message. */
const proveAddress = (agent: string, session: Session, relation?: string | null, key?: ReturnType<typeof privateKeyToAccount>) =>
  Effect.gen(function*() {
    const { account, challenge } = yield* addressChallenge(agent, session, relation, key)
    const reply = yield* prove(agent, challenge.challengeId, yield* Effect.promise(() => account.signMessage({ message: challenge.message })), session)
    expect(reply.status, reply.text).toBe(201)
    return { address: account.address, identityId: reply.body.data.publicId as string, message: challenge.message }
  })

/** A wallet row of the member for an address on Base (as an account would hold it); its id. */
const insertWallet = (address: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    yield* sql`INSERT INTO wallets (id, owner_account_id, network_id, address, created_at)
               VALUES (${id}, ${DemoAccounts.member.id}, ${DemoNetworks.base.id}, ${address}, now())`
    return id
  }).pipe(Effect.orDie)

layer(server.layer)("wallet-agent relations", (it) => {
  it.effect("demo: Beacon's PAYOUT address, proven by signature, listed on both sides (anonymous and API key)", () =>
    Effect.gen(function*() {
      const reply = yield* agentWallets(beacon.id)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      const proof = { kind: "SIGNATURE", reference: DemoProvenPayout.identityId, verifiedAt: DemoProvenPayout.provenAt.toISOString() }
      expect(reply.body.data).toEqual([{
        walletPublicId: DemoWallets.beaconPayout.id,
        network: baseNetwork,
        address: DemoProvenPayout.address,
        caip10: `eip155:8453:${DemoProvenPayout.address}`,
        relation: "PAYOUT",
        proof
      }])
      expect(reply.body.nextCursor).toBeNull()
      // the proof's reference is the proven locator on Beacon's profile
      const profile = yield* call("GET", `/api/v1/agents/${beacon.id}`)
      expect(profile.body.data.locators).toContainEqual(
        expect.objectContaining({ publicId: DemoProvenPayout.identityId, nativeId: DemoProvenPayout.address, provenAt: proof.verifiedAt })
      )

      const agents = yield* walletAgents(DemoWallets.beaconPayout.id, "", { "x-api-key": DemoApiKeys.agentsOnly.key })
      expect(agents.status, agents.text).toBe(200)
      expect(agents.body.data).toEqual([{
        agent: { publicId: beacon.id, canonicalSlug: beacon.slug, name: beacon.name, verificationState: beacon.state },
        relation: "PAYOUT",
        proof
      }])
      expect(agents.body.nextCursor).toBeNull()
      // a wallet whose address no agent proved: no agents
      const bare = yield* walletAgents(DemoWallets.ownerBare.id)
      expect(bare.status).toBe(200)
      expect(bare.body.data).toEqual([])
    }))

  it.effect("an EVM address proven with relation PAYOUT (viem signature) is listed on both sides with proof SIGNATURE", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const at = new Date(server.clock.unsafeCurrentTimeMillis()).toISOString()
      const key = privateKeyToAccount(generatePrivateKey())
      const { address, identityId, message } = yield* proveAddress(atlas.id, owner, "PAYOUT", key)
      expect(message.split("\n")).toContain("Wallet Relation: PAYOUT")
      expect(message).toContain("as its PAYOUT wallet.")
      const proof = { kind: "SIGNATURE", reference: identityId, verifiedAt: at }
      const expected = {
        walletPublicId: null,
        network: baseNetwork,
        address,
        caip10: `eip155:8453:${address}`,
        relation: "PAYOUT",
        proof
      }
      // no account holds a wallet of that address yet: walletPublicId null
      const before = yield* agentWallets(atlas.id, "?limit=100")
      expect(before.status, before.text).toBe(200)
      expect(before.body.data).toContainEqual(expected)
      expect(before.body.data.filter((w: any) => w.address === address)).toHaveLength(1)

      // an account's wallet of that address (stored in lower case: EVM addresses match without case)
      const walletId = yield* insertWallet(address.toLowerCase())
      const after = yield* agentWallets(atlas.id, "?limit=100")
      expect(after.body.data).toContainEqual({ ...expected, walletPublicId: walletId })
      const agents = yield* walletAgents(walletId)
      expect(agents.status, agents.text).toBe(200)
      expect(agents.body.data).toEqual([{
        agent: { publicId: atlas.id, canonicalSlug: atlas.slug, name: atlas.name, verificationState: "VERIFIED" },
        relation: "PAYOUT",
        proof
      }])

      // the same address proven again with relation null: a second relation, OWNER (the default), on both sides
      server.clock.advance(60_000)
      const again = yield* proveAddress(atlas.id, owner, null, key)
      expect(again.message.split("\n")).toContain("Wallet Relation: OWNER")
      expect(again.identityId).toBe(identityId) // the same locator
      const both = yield* walletAgents(walletId)
      expect(both.body.data.map((a: any) => [a.relation, a.proof.verifiedAt])).toEqual([
        ["PAYOUT", at],
        ["OWNER", new Date(server.clock.unsafeCurrentTimeMillis()).toISOString()]
      ])
      // proven a third time as PAYOUT: still one PAYOUT relation, its proof renewed
      server.clock.advance(60_000)
      yield* proveAddress(atlas.id, owner, "PAYOUT", key)
      const renewed = yield* walletAgents(walletId)
      expect(renewed.body.data.map((a: any) => [a.relation, a.proof.verifiedAt])).toEqual([
        ["PAYOUT", new Date(server.clock.unsafeCurrentTimeMillis()).toISOString()],
        ["OWNER", new Date(server.clock.unsafeCurrentTimeMillis() - 60_000).toISOString()]
      ])
    }))

  it.effect("the relation is covered by the signature: another relation signed, or a changed stored one, is 422", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const { account, challenge } = yield* addressChallenge(atlas.id, owner, "PAYOUT")
      // the key signs the message with another relation: not the challenge's message
      const forged = challenge.message.replace("Wallet Relation: PAYOUT", "Wallet Relation: OWNER").replace(
        "as its PAYOUT wallet.",
        "as its OWNER wallet."
      )
      expect(forged).not.toBe(challenge.message)
      const swapped = yield* prove(atlas.id, challenge.challengeId, yield* Effect.promise(() => account.signMessage({ message: forged })), owner)
      expectProblem(swapped, 422, "signature-invalid")

      // the stored relation changed after the message was signed: the signature does not cover it
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE agent_identity_challenges SET relation = 'TREASURY' WHERE id = ${challenge.challengeId}`.pipe(Effect.orDie)
      const signature = yield* Effect.promise(() => account.signMessage({ message: challenge.message }))
      expectProblem(yield* prove(atlas.id, challenge.challengeId, signature, owner), 422, "signature-invalid")
      const none = yield* agentWallets(atlas.id, "?limit=100")
      expect(none.body.data.filter((w: any) => w.address === account.address)).toEqual([])

      // restored: the same signature proves, with the relation the message states
      yield* sql`UPDATE agent_identity_challenges SET relation = 'PAYOUT' WHERE id = ${challenge.challengeId}`.pipe(Effect.orDie)
      expect((yield* prove(atlas.id, challenge.challengeId, signature, owner)).status).toBe(201)
      const listed = yield* agentWallets(atlas.id, "?limit=100")
      expect(listed.body.data.filter((w: any) => w.address === account.address).map((w: any) => w.relation)).toEqual(["PAYOUT"])
    }))

  it.effect("relation: default OWNER; only for ADDRESS locators (400 naming the field); unknown values 400", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const { address } = yield* proveAddress(atlas.id, owner)
      const listed = yield* agentWallets(atlas.id, "?limit=100")
      expect(listed.body.data.filter((w: any) => w.address === address).map((w: any) => [w.relation, w.proof.kind]))
        .toEqual([["OWNER", "SIGNATURE"]])

      const did = yield* call("POST", `/api/v1/agents/${atlas.id}/identity-challenges`, {
        body: { networkFamily: "DID", locatorKind: "DID", nativeId: "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", relation: "OWNER" },
        session: owner
      })
      expectProblem(did, 400, "invalid-request")
      expect(did.body.errors).toEqual([{ in: "body", pointer: "/relation", detail: expect.stringContaining("ADDRESS") }])
      const bad = yield* call("POST", `/api/v1/agents/${atlas.id}/identity-challenges`, {
        body: { networkFamily: "EVM", network: "base", locatorKind: "ADDRESS", nativeId: address, relation: "FRIEND" },
        session: owner
      })
      expectProblem(bad, 400)
    }))

  it.effect("funded or transferred addresses never make a relation, even with a wallet row", () =>
    Effect.gen(function*() {
      for (const agent of [atlas.id, beacon.id]) {
        const reply = yield* agentWallets(agent, "?limit=100")
        expect(reply.status).toBe(200)
        expect(reply.body.data.map((w: any) => w.address.toLowerCase())).not.toContain(fundedAddress.toLowerCase())
      }
      const walletId = yield* insertWallet(fundedAddress)
      const agents = yield* walletAgents(walletId)
      expect(agents.status, agents.text).toBe(200)
      expect(agents.body.data).toEqual([])
      // the identity rows exist: FUNDED from Atlas, TRANSFERRED to Beacon
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ binding: string }>`SELECT binding FROM agent_identities WHERE native_id = ${fundedAddress} ORDER BY binding`
        .pipe(Effect.orDie)
      expect(rows.map((r) => r.binding)).toEqual(["FUNDED", "TRANSFERRED"])
    }))

  it.effect("paging: limit, signed cursor bound to the operation and path, one row per relation", () =>
    Effect.gen(function*() {
      const outsider = yield* signIn("outsider")
      const proven = []
      for (const relation of ["OWNER", "OPERATOR", "TREASURY"]) proven.push(yield* proveAddress(cobalt.id, outsider, relation))
      const first = yield* agentWallets(cobalt.id, "?limit=2")
      expect(first.status, first.text).toBe(200)
      expect(first.body.data).toHaveLength(2)
      expect(typeof first.body.nextCursor).toBe("string")
      const second = yield* agentWallets(cobalt.id, `?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      expect(second.status, second.text).toBe(200)
      expect(second.body.data).toHaveLength(1)
      expect(second.body.nextCursor).toBeNull()
      // every relation once, in the order recorded
      expect([...first.body.data, ...second.body.data].map((w: any) => [w.address, w.relation])).toEqual(
        proven.map((p, i) => [p.address, ["OWNER", "OPERATOR", "TREASURY"][i]])
      )
      // the cursor of one agent's list is refused for another agent's, and for the wallet list
      expectProblem(yield* agentWallets(atlas.id, `?cursor=${encodeURIComponent(first.body.nextCursor)}`), 400, "invalid-cursor")
      expectProblem(
        yield* walletAgents(DemoWallets.beaconPayout.id, `?cursor=${encodeURIComponent(first.body.nextCursor)}`),
        400,
        "invalid-cursor"
      )
      // limit 1-100
      expectProblem(yield* agentWallets(cobalt.id, "?limit=0"), 400)
      expectProblem(yield* agentWallets(cobalt.id, "?limit=101"), 400)

      // the wallet side pages too: three agents related to one address
      const shared = privateKeyToAccount(generatePrivateKey())
      const owner = yield* signIn("owner")
      for (const [agent, session] of [[cobalt.id, outsider], [atlas.id, owner], [beacon.id, owner]] as const) {
        const reply = yield* call("POST", `/api/v1/agents/${agent}/identity-challenges`, {
          body: { networkFamily: "EVM", network: "base", locatorKind: "ADDRESS", nativeId: shared.address, relation: "OPERATOR" },
          session
        })
        expect(reply.status, reply.text).toBe(201)
        const c = reply.body.data
        expect((yield* prove(agent, c.challengeId, yield* Effect.promise(() => shared.signMessage({ message: c.message })), session)).status)
          .toBe(201)
      }
      const walletId = yield* insertWallet(shared.address)
      const page1 = yield* walletAgents(walletId, "?limit=2")
      expect(page1.body.data.map((a: any) => a.agent.publicId)).toEqual([cobalt.id, atlas.id])
      const page2 = yield* walletAgents(walletId, `?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`)
      expect(page2.body.data.map((a: any) => [a.agent.publicId, a.relation])).toEqual([[beacon.id, "OPERATOR"]])
      expect(page2.body.nextCursor).toBeNull()
    }))

  it.effect("the migration's backfill: an EIP-191-proven address becomes an OWNER relation by SIGNATURE; others none", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // as before migration 0029: Beacon's proven address, no relations
      yield* sql`DELETE FROM agent_wallet_relations WHERE agent_id = ${beacon.id}`.pipe(Effect.orDie)
      yield* sql.unsafe(backfillRelations).pipe(Effect.orDie)
      const reply = yield* agentWallets(beacon.id, "?limit=100")
      expect(reply.body.data.filter((w: any) => w.address === DemoProvenPayout.address)).toEqual([expect.objectContaining({
        walletPublicId: DemoWallets.beaconPayout.id,
        address: DemoProvenPayout.address,
        relation: "OWNER",
        proof: { kind: "SIGNATURE", reference: DemoProvenPayout.identityId, verifiedAt: DemoProvenPayout.provenAt.toISOString() }
      })])
      // idempotent; the funded/transferred address stays unrelated; Atlas's proven address keeps its one OWNER relation
      yield* sql.unsafe(backfillRelations).pipe(Effect.orDie)
      expect((yield* agentWallets(beacon.id, "?limit=100")).body.data).toEqual(reply.body.data)
      const funded = yield* sql`SELECT 1 FROM agent_wallet_relations WHERE address = ${fundedAddress}`.pipe(Effect.orDie)
      expect(funded).toEqual([])
      const atlasOwned = yield* sql<{ relation: string; proofKind: string }>`
        SELECT relation, proof_kind AS "proofKind" FROM agent_wallet_relations
        WHERE address = '0xA11Ce0000000000000000000000000000000a7a5'`.pipe(Effect.orDie)
      expect(atlasOwned).toEqual([{ relation: "OWNER", proofKind: "SIGNATURE" }])
    }))

  it.effect("404 for an unknown agent or wallet; 400 for a path that is not a uuid", () =>
    Effect.gen(function*() {
      expectProblem(yield* agentWallets(randomUUID()), 404, "agent-not-found")
      expectProblem(yield* walletAgents(randomUUID()), 404, "wallet-not-found")
      expectProblem(yield* agentWallets("not-a-uuid"), 400)
      expectProblem(yield* walletAgents("not-a-uuid"), 400)
    }))
})
