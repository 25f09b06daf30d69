/**
 * Launch runs end to end on anvil with the ERC-8004 Identity Registry deployed (spec §2.4, §3):
 * an agent's owner creates a REGISTRY_GENESIS draft, starts a run, materializes its intent,
 * signs the unsigned transaction with the draft's wallet (anvil account 1) and submits it; the
 * block watcher of the real server observes and confirms it (blocks mined by the test) and the
 * run is COMPLETED with the token's CAIP-19 id, the agent's registry identity PROVEN, a
 * `launch.completed` activity item and the registration in the agent's registration file.
 * Also: EXTERNAL_IMPORT proven by the token owner's signature, the adapter venues' 422, an
 * expired signature request, drafts' rules, reads and lists.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { getAddress, type Hex, parseTransaction } from "viem"
import { DemoAgents } from "../../demo/agents/seed.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { IdsSequence } from "../../layers/Ids.js"
import { readIntent, transitionIntent } from "../../layers/TransactionIntents.js"
import { IdentityRegistryAbi } from "../../src/launch/IdentityRegistryAbi.js"
import { IntentOutcomesLive } from "../../src/workflows.js"
import { testConfig } from "../support/config.js"
import { call, expectProblem, type Session, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { waitFor } from "../support/waitFor.js"
import { launchChainOverrides, restoreLaunchRuns, startLaunchChain } from "./support.js"

const { anvil, registry } = await startLaunchChain()
afterAll(() => anvil.stop())
const server = makeTestServer(launchChainOverrides(anvil, registry, 2))
const atlas = DemoAgents[0].id
const wallet = anvil.accounts[1]!
const registrationUrl = `${testConfig().publicBaseUrl}/api/v1/agents/${atlas}/erc8004-registration.json`

const createDraft = (session: Session, body: Record<string, unknown>) =>
  call("POST", "/api/v1/launch-drafts", {
    session,
    body: { workspaceId: DemoWorkspaces.acme.id, agentId: atlas, venue: "REGISTRY_GENESIS", network: anvil.network, signerAddress: wallet.address, ...body }
  })
const startRun = (session: Session, draftId: string, body: Record<string, unknown> = {}) =>
  call("POST", `/api/v1/launch-drafts/${draftId}/runs`, { session, body })
const getRun = (session: Session, runId: string) => call("GET", `/api/v1/launch-runs/${runId}`, { session })

/** What the owner's submission does: the signed transaction broadcast, the intent SUBMITTED (its handler called). */
const submitSigned = (intentId: string) =>
  Effect.gen(function*() {
    const record = yield* readIntent(intentId)
    const unsigned = parseTransaction(record!.intent.unsignedTransaction as Hex)
    const raw = yield* Effect.promise(() => wallet.signTransaction!(unsigned as never))
    const hash = yield* Effect.promise(() => anvil.publicClient.sendRawTransaction({ serializedTransaction: raw }))
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(transitionIntent({
      id: intentId,
      from: ["AWAITING_SIGNATURE"],
      to: "SUBMITTED",
      changes: { signedTransaction: raw, transactionHash: hash }
    })).pipe(Effect.provide(Layer.merge(IntentOutcomesLive, IdsSequence("0000000e"))))
    return hash
  })

/** Polls the run until `state`. */
const runIn = (session: Session, runId: string, state: string) =>
  waitFor(`run ${state}`, Effect.map(getRun(session, runId), (r) => r.body.data?.state === state ? r.body.data : undefined), 30_000)

layer(server.layer, { timeout: 120_000 })("launch runs", (it) => {
  it.effect("REGISTRY_GENESIS end to end: draft, run, intent, signature, watcher → COMPLETED, identity PROVEN, registration file", () =>
    Effect.gen(function*() {
      yield* restoreLaunchRuns
      const owner = yield* signIn("owner")
      const draft = yield* createDraft(owner, {})
      expect(draft.status, draft.text).toBe(201)
      expect(draft.body.data).toMatchObject({ agentId: atlas, venue: "REGISTRY_GENESIS", network: anvil.network, signerAddress: wallet.address, tokenId: null, importMessage: null })

      const started = yield* startRun(owner, draft.body.data.id)
      expect(started.status, started.text).toBe(202)
      const run = started.body.data
      expect(run).toMatchObject({
        launchDraftId: draft.body.data.id, venue: "REGISTRY_GENESIS", state: "PREPARING", version: 1, attemptCount: 1,
        expectedAssetLocator: `eip155:31337/erc721:${getAddress(registry)}`, transactionIntentId: null, observedAssetId: null
      })

      const materialized = yield* call("POST", `/api/v1/launch-runs/${run.id}/transaction-intent`, { session: owner, body: { expectedVersion: 1 } })
      expect(materialized.status, materialized.text).toBe(202)
      const intentId = materialized.body.data.transactionIntentId as string

      // not mined until the intent is SUBMITTED: the watcher follows it from its block on
      yield* Effect.promise(() => anvil.testClient.setAutomine(false))
      const hash = yield* submitSigned(intentId)
      const submitted = (yield* getRun(owner, run.id)).body.data
      expect(submitted).toMatchObject({ state: "SUBMITTED", providerReference: hash, version: 3 })
      expect(submitted.submittedAt).not.toBeNull()

      // its block and one on top: two confirmations
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      yield* runIn(owner, run.id, "OBSERVED")
      yield* Effect.promise(() => anvil.testClient.mine({ blocks: 1 }))
      const done = yield* runIn(owner, run.id, "COMPLETED")
      yield* Effect.promise(() => anvil.testClient.setAutomine(true))
      const assetId = `eip155:31337/erc721:${getAddress(registry)}/0`
      expect(done).toMatchObject({ observedAssetId: assetId, providerReference: hash, failureCode: null })
      expect(done.confirmedAt).not.toBeNull()
      expect(done.completedAt).not.toBeNull()
      expect(done.steps.map((s: { step: string; state: string }) => `${s.step}:${s.state}`)).toEqual([
        "PREPARE:COMPLETED", "TRANSACTION_INTENT:COMPLETED", "SIGNATURE:PENDING", "SIGNATURE:COMPLETED", "SUBMISSION:COMPLETED",
        "OBSERVATION:COMPLETED",
        "CONFIRMATION:COMPLETED", "COMPLETION:COMPLETED"
      ])

      // the chain: token 0 owned by the wallet, its URI the registration file
      const [tokenOwner, uri] = yield* Effect.promise(() =>
        Promise.all([
          anvil.publicClient.readContract({ address: registry, abi: IdentityRegistryAbi, functionName: "ownerOf", args: [0n] }),
          anvil.publicClient.readContract({ address: registry, abi: IdentityRegistryAbi, functionName: "tokenURI", args: [0n] })
        ]))
      expect(tokenOwner).toBe(wallet.address)
      expect(uri).toBe(registrationUrl)

      // the agent's registry identity is PROVEN and listed in its registration file
      const profile = yield* call("GET", `/api/v1/agents/${atlas}`)
      const token = profile.body.data.locators.find((l: { locatorKind: string; registry: string | null }) =>
        l.locatorKind === "REGISTRY_TOKEN" && l.registry === getAddress(registry))
      expect(token).toMatchObject({ caip2: anvil.network, nativeId: "0" })
      expect(token.provenAt).not.toBeNull()
      const file = yield* call("GET", `/api/v1/agents/${atlas}/erc8004-registration.json`)
      expect(file.status, file.text).toBe(200)
      expect(file.body).toMatchObject({
        type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
        name: DemoAgents[0].name,
        active: true,
        supportedTrust: ["reputation"]
      })
      expect(file.body.registrations).toContainEqual({ agentId: 0, agentRegistry: `eip155:31337:${getAddress(registry)}` })

      // one DOMAIN_EVENT launch.completed
      const activity = yield* call("GET", `/api/v1/agents/${atlas}/activity?activityKeys=launch.completed`)
      expect(activity.body.data.filter((a: { sourceKind: string }) => a.sourceKind === "DOMAIN_EVENT")).toHaveLength(1)

      // listed, and filtered by state
      const list = yield* call("GET", `/api/v1/launch-runs?workspaceId=${DemoWorkspaces.acme.id}&state=COMPLETED&limit=100`, { session: owner })
      expect(list.status, list.text).toBe(200)
      expect(list.body.data.map((r: { id: string }) => r.id)).toContain(run.id)
      expect(list.body.data.every((r: { state: string }) => r.state === "COMPLETED")).toBe(true)
    }))

  it.effect("an expired signature request makes the run RETRYABLE_FAILURE signature-expired; a retry materializes attempt 2", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const draft = yield* createDraft(owner, {})
      const run = (yield* startRun(owner, draft.body.data.id)).body.data
      const materialized = yield* call("POST", `/api/v1/launch-runs/${run.id}/transaction-intent`, { session: owner, body: { expectedVersion: 1 } })
      const intentId = materialized.body.data.transactionIntentId as string
      const sql = yield* SqlClient.SqlClient
      const moved = yield* sql.withTransaction(transitionIntent({ id: intentId, from: ["AWAITING_SIGNATURE"], to: "EXPIRED" })).pipe(
        Effect.provide(Layer.merge(IntentOutcomesLive, IdsSequence("0000000e")))
      )
      expect(Option.isSome(moved)).toBe(true)
      const failed = (yield* getRun(owner, run.id)).body.data
      expect(failed).toMatchObject({ state: "RETRYABLE_FAILURE", failureCode: "signature-expired", version: 3 })
      const retry = yield* call("POST", `/api/v1/launch-runs/${run.id}/transaction-intent`, { session: owner, body: { expectedVersion: 3 } })
      expect(retry.status, retry.text).toBe(202)
      expect(retry.body.data).toMatchObject({ state: "AWAITING_SIGNATURE", attemptCount: 2, failureCode: null })
      expect(retry.body.data.transactionIntentId).not.toBe(intentId)
    }))

  it.effect("EXTERNAL_IMPORT: the token owner's signature of importMessage completes the run at once; another signer is 422", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      // account 2 registers a token of its own on the registry
      const holder = anvil.accounts[2]!
      const beacon = DemoAgents[1].id
      const hash = yield* Effect.promise(() =>
        anvil.wallet(2).writeContract({
          address: registry, abi: IdentityRegistryAbi, functionName: "register", args: ["https://elsewhere.test/agent.json"],
          chain: anvil.wallet(2).chain, account: holder
        }))
      yield* Effect.promise(() => anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 }))
      const tokenId = (yield* Effect.promise(() => anvil.publicClient.readContract({ address: registry, abi: IdentityRegistryAbi, functionName: "ownerOf", args: [1n] }))) === holder.address ? "1" : "0"
      const draft = yield* createDraft(owner, { agentId: beacon, venue: "EXTERNAL_IMPORT", signerAddress: holder.address, tokenId })
      expect(draft.status, draft.text).toBe(201)
      const message = draft.body.data.importMessage as string
      expect(message).toContain(beacon)

      const stranger = yield* Effect.promise(() => anvil.accounts[3]!.signMessage!({ message }))
      expectProblem(yield* startRun(owner, draft.body.data.id, { signature: stranger }), 422, "signer-not-token-owner")
      expectProblem(yield* startRun(owner, draft.body.data.id, {}), 400, "invalid-request")

      const signature = yield* Effect.promise(() => holder.signMessage!({ message }))
      const started = yield* startRun(owner, draft.body.data.id, { signature })
      expect(started.status, started.text).toBe(202)
      const assetId = `eip155:31337/erc721:${getAddress(registry)}/${tokenId}`
      expect(started.body.data).toMatchObject({ venue: "EXTERNAL_IMPORT", state: "COMPLETED", observedAssetId: assetId, transactionIntentId: null })
      const file = yield* call("GET", `/api/v1/agents/${beacon}/erc8004-registration.json`)
      expect(file.body.registrations).toContainEqual({ agentId: Number(tokenId), agentRegistry: `eip155:31337:${getAddress(registry)}` })
    }))

  it.effect("drafts' rules; adapter venues without configuration are 422 at start; reads are members' only", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      expectProblem(yield* createDraft(owner, { tokenId: "5" }), 400, "invalid-request")
      expectProblem(yield* createDraft(owner, { venue: "EXTERNAL_IMPORT" }), 400, "invalid-request")
      expectProblem(yield* createDraft(owner, { network: "not-caip2" }), 400, "invalid-request")
      expectProblem(yield* createDraft(owner, { agentId: DemoAgents[2].id }), 404, "agent-not-found")
      const admin = yield* signIn("admin")
      expectProblem(yield* createDraft(admin, {}), 403, "role-required")

      for (const venue of ["LAUNCHPAD_FUN", "BROKER_CHAIN"]) {
        const draft = yield* createDraft(owner, { venue })
        expect(draft.status, draft.text).toBe(201)
        expectProblem(yield* startRun(owner, draft.body.data.id), 422, "configuration-missing")
      }
      const other = yield* createDraft(owner, { network: "eip155:999" })
      expectProblem(yield* startRun(owner, other.body.data.id), 422, "configuration-missing")

      const draft = yield* createDraft(owner, {})
      const run = (yield* startRun(owner, draft.body.data.id)).body.data
      const outsider = yield* signIn("outsider")
      expectProblem(yield* getRun(outsider, run.id), 404, "launch-run-not-found")
      expectProblem(yield* startRun(outsider, draft.body.data.id), 404, "launch-draft-not-found")
      expectProblem(yield* call("GET", `/api/v1/launch-runs?workspaceId=${DemoWorkspaces.acme.id}`, { session: outsider }), 404, "workspace-not-found")
      const page = yield* call("GET", `/api/v1/launch-runs?workspaceId=${DemoWorkspaces.acme.id}&limit=1`, { session: owner })
      expect(page.body.data).toHaveLength(1)
      const next = yield* call("GET", `/api/v1/launch-runs?workspaceId=${DemoWorkspaces.acme.id}&limit=1&cursor=${page.body.nextCursor}`, { session: owner })
      expect(next.body.data[0].id).not.toBe(page.body.data[0].id)
      expectProblem(
        yield* call("GET", `/api/v1/launch-runs?workspaceId=${DemoWorkspaces.acme.id}&state=PREPARING&cursor=${page.body.nextCursor}`, { session: owner }),
        400,
        "invalid-cursor"
      )
    }))
})
