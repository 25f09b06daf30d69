/**
 * Agents_ProveIdentity for a registry token (ERC-8004 identity / ERC-721): the signer of the
 * challenge must be `ownerOf(tokenId)` on the token's chain, read through `CHAIN_RPC_URLS`.
 * The chain is a local anvil (chain id 8453, so `eip155:8453` = the Base network of the
 * directory) with a tiny ERC-721 compiled by solc at test time (fixtures/TestToken.sol),
 * minted to one account; the proof by its key succeeds, another key's is 422, a token never
 * minted is 422, an unreachable endpoint 503.
 */
import { SqlClient } from "@effect/sql"
import { randomUUID } from "node:crypto"
import { DemoImports } from "../../../demo/agents/imports/seed.js"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { createWalletClient, getAddress, http, parseEther } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { DemoAgents } from "../../../demo/agents/seed.js"
import { startAnvil } from "../../../demo/chain/anvil.js"
import { call, expectProblem, type Session, signIn } from "../../support/http.js"
import { testConfig } from "../../support/config.js"
import { makeTestServer } from "../../support/TestServer.js"

const require = createRequire(import.meta.url)

// the owner's and a stranger's keys, the owner funded on the chain
const ownerKey = generatePrivateKey()
const owner = privateKeyToAccount(ownerKey)
const stranger = privateKeyToAccount(generatePrivateKey())

const anvil = await startAnvil({ chainId: 8453 })
await anvil.testClient.setBalance({ address: owner.address, value: parseEther("100") })
const rpcUrl = anvil.rpcUrl

// compile the test ERC-721
const solc = require("solc")
const compiled = JSON.parse(solc.compile(JSON.stringify({
  language: "Solidity",
  sources: { "TestToken.sol": { content: readFileSync(join(import.meta.dirname, "fixtures", "TestToken.sol"), "utf8") } },
  settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } }
})))
const artifact = compiled.contracts["TestToken.sol"]["TestToken"]
const wallet = createWalletClient({ account: owner, chain: anvil.chain, transport: http(rpcUrl) })
const reader = anvil.publicClient
const deployHash = await wallet.deployContract({ abi: artifact.abi, bytecode: `0x${artifact.evm.bytecode.object}` })
const registry = getAddress((await reader.waitForTransactionReceipt({ hash: deployHash })).contractAddress!)
await reader.waitForTransactionReceipt({
  hash: await wallet.writeContract({ address: registry, abi: artifact.abi, functionName: "mint", args: [owner.address, 42n] })
})

// the chain's endpoints are reached through the outbound client, which allows these local hosts only
const server = makeTestServer({
  chainRpcUrls: new Map([["eip155:8453", rpcUrl], ["eip155:1", "http://127.0.0.1:9/"]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host, "127.0.0.1:9"] }
})
const atlas = DemoAgents[0].id

const tokenChallenge = (session: Session, tokenId: string, network = "eip155:8453") =>
  call("POST", `/api/v1/agents/${atlas}/identity-challenges`, {
    body: { networkFamily: "EVM", network, protocol: "erc-8004", locatorKind: "REGISTRY_TOKEN", registry, nativeId: tokenId },
    session
  }).pipe(Effect.tap((r) => expect(r.status, r.text).toBe(201)), Effect.map((r) => r.body.data as { challengeId: string; message: string }))

const prove = (session: Session, challengeId: string, signature: string) =>
  call("POST", `/api/v1/agents/${atlas}/identities`, { body: { challengeId, signature }, session })

const sign = (account: typeof owner, message: string) => Effect.promise(() => account.signMessage({ message }))

layer(server.layer)("Agents_ProveIdentity: ERC-721 ownerOf on an in-process chain", (it) => {
  it.effect("the token's owner proves it (201, ERC721_OWNER); another signer is 422 signer-not-token-owner", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      // the token as an ERC-8004 registration file claimed it (an import of Atlas's): UNPROVEN until proven
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO agent_identity_claims (id, agent_id, import_id, family, kind, network_caip2, registry, native_id, proof_state, created_at)
        VALUES (${randomUUID()}, ${atlas}, ${DemoImports.atlasRegistration.id}, 'EVM', 'REGISTRY_TOKEN', 'eip155:8453', ${registry}, '42', 'UNPROVEN', now())`
      const claimState = sql<{ proofState: string }>`SELECT proof_state AS "proofState" FROM agent_identity_claims
        WHERE agent_id = ${atlas} AND registry = ${registry} AND native_id = '42'`
      const c = yield* tokenChallenge(session, "42")
      expectProblem(yield* prove(session, c.challengeId, yield* sign(stranger, c.message)), 422, "signer-not-token-owner")
      const reply = yield* prove(session, c.challengeId, yield* sign(owner, c.message))
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data).toMatchObject({
        locator: `evm:base:${registry}:42`,
        locatorKind: "REGISTRY_TOKEN",
        network: "base",
        caip2: "eip155:8453",
        registry,
        nativeId: "42",
        proofMethod: "ERC721_OWNER"
      })
      expect(yield* claimState).toEqual([{ proofState: "PROVEN" }])
      const claims = (yield* call("GET", `/api/v1/agents/${atlas}`)).body.data.identityClaims as Array<{ nativeId: string; proofState: string }>
      expect(claims.find((x) => x.nativeId === "42")?.proofState).toBe("PROVEN")
      // the token's owner is now the agent's OWNER wallet, proof REGISTRY naming the token by CAIP-19;
      // the refused signer is related to nothing
      const wallets = (yield* call("GET", `/api/v1/agents/${atlas}/wallets?limit=100`)).body.data as Array<any>
      expect(wallets.filter((w) => w.address === owner.address)).toEqual([expect.objectContaining({
        caip10: `eip155:8453:${owner.address}`,
        relation: "OWNER",
        proof: { kind: "REGISTRY", reference: `eip155:8453/erc721:${registry}/42`, verifiedAt: reply.body.data.provenAt }
      })])
      expect(wallets.filter((w) => w.address === stranger.address)).toEqual([])
    }))

  it.effect("a token never minted is 422 signer-not-token-owner; an unreachable chain endpoint is 503", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const c = yield* tokenChallenge(session, "0x07")
      expectProblem(yield* prove(session, c.challengeId, yield* sign(owner, c.message)), 422, "signer-not-token-owner")
      const down = yield* tokenChallenge(session, "42", "eip155:1")
      const reply = yield* prove(session, down.challengeId, yield* sign(owner, down.message))
      expectProblem(reply, 503, "chain-rpc-unavailable")
    }))
})

// the chain stops with the test file
process.once("beforeExit", () => void anvil.stop())
