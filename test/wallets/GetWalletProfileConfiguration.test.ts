/**
 * Wallets_GetWalletProfileConfiguration (spec §2.14, §4.3):
 * GET /api/v1/wallets/{walletPublicId}/public-profile.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { DemoWalletProfiles, DemoWallets } from "../../demo/wallets/seed.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoNetworks } from "../../demo/common.js"

const profilePath = (wallet: keyof typeof DemoWallets | string) =>
  `/api/v1/wallets/${wallet in DemoWallets ? DemoWallets[wallet as keyof typeof DemoWallets].id : wallet}/public-profile`

const server = makeTestServer()

layer(server.layer)("Wallets_GetWalletProfileConfiguration", (it) => {
  it.effect("the owner's PUBLIC profile: every field of spec §2.14, followers counted, owned by the viewer", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", profilePath("ownerBase"), { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.headers["cache-control"]).toBe("no-store")
      expectMeta(reply)
      expect(reply.body.data).toEqual({
        publicId: DemoWalletProfiles.ownerBase.id,
        walletPublicId: DemoWallets.ownerBase.id,
        network: { publicId: DemoNetworks.base.id, key: "base", family: "EVM", displayName: "Base" },
        address: DemoWallets.ownerBase.address,
        displayName: "Olive on Base",
        bio: "Collector of research agents.",
        visibility: "PUBLIC",
        followerCount: "2",
        following: false,
        ownedByViewer: true,
        favoriteCollectionVisibility: "PUBLIC",
        version: 3,
        publishedAt: "2026-02-23T00:00:00.000Z",
        updatedAt: "2026-02-24T00:00:00.000Z"
      })
    }))

  it.effect("a PRIVATE profile never published: followerCount \"0\", publishedAt null", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", profilePath("ownerSolana"), { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toMatchObject({
        publicId: DemoWalletProfiles.ownerSolana.id,
        network: { publicId: DemoNetworks.solana.id, key: "solana", family: "SVM", displayName: "Solana" },
        displayName: null,
        bio: null,
        visibility: "PRIVATE",
        followerCount: "0",
        following: false,
        ownedByViewer: true,
        favoriteCollectionVisibility: "PRIVATE",
        version: 1,
        publishedAt: null
      })
    }))

  it.effect("data: null for a wallet of the caller without a profile", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const reply = yield* call("GET", profilePath("ownerBare"), { session: owner })
      expect(reply.status, reply.text).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(["data", "meta"])
      expect(reply.body.data).toBeNull()
      expectMeta(reply)
    }))

  it.effect("404 wallet-not-found for another account's wallet and for an unknown wallet, alike", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const foreign = yield* call("GET", profilePath("outsider"), { session: owner })
      expectProblem(foreign, 404, "wallet-not-found")
      const unknown = yield* call("GET", profilePath(randomUUID()), { session: owner })
      expectProblem(unknown, 404, "wallet-not-found")
      expect(foreign.body.detail.replace(DemoWallets.outsider.id, "")).toBe(unknown.body.detail.replace(/[0-9a-f-]{36}/, ""))
      // its owner reads it
      const outsider = yield* signIn("outsider")
      const own = yield* call("GET", profilePath("outsider"), { session: outsider })
      expect(own.status, own.text).toBe(200)
      expect(own.body.data).toMatchObject({ publicId: DemoWalletProfiles.outsider.id, followerCount: "1", ownedByViewer: true })
    }))

  it.effect("401 without a session; 400 for a walletPublicId that is not a uuid", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("GET", profilePath("ownerBase")), 401, "unauthenticated")
      const owner = yield* signIn("owner")
      const bad = yield* call("GET", profilePath("not-a-uuid"), { session: owner })
      expectProblem(bad, 400)
      expect(bad.body.errors[0]).toMatchObject({ in: "path", pointer: "/walletPublicId" })
    }))
})
