/**
 * Wallet public profiles (spec §2.14): Wallets_UpdateWalletProfile (create, publish, versioned
 * replace), Wallets_GetWalletPublicProfile (PUBLIC only, viewer flags), Wallets_FollowWallet and
 * Wallets_UnfollowWallet (once per account, also under concurrency; own and PRIVATE profiles refused).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoWallets } from "../../demo/wallets/seed.js"
import { call, expectProblem, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"

const server = makeTestServer()

const configPath = (wallet: keyof typeof DemoWallets) => `/api/v1/wallets/${DemoWallets[wallet].id}/public-profile`
const publicPath = (network: string, address: string) => `/api/v1/wallet-profiles/${encodeURIComponent(network)}/${address}`

const configuration = {
  displayName: "Bare wallet",
  bio: null,
  visibility: "PRIVATE",
  favoriteCollectionVisibility: "PRIVATE"
} as const

layer(server.layer)("wallet public profiles", (it) => {
  it.effect("create PRIVATE, publish at expectedVersion, read publicly by CAIP-2 id or key; publishedAt kept", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const address = DemoWallets.ownerBare.address
      // PRIVATE: nobody reads it publicly
      const created = yield* call("PUT", configPath("ownerBare"), { session: owner, body: configuration })
      expect(created.status, created.text).toBe(200)
      expect(created.body.data).toMatchObject({
        walletPublicId: DemoWallets.ownerBare.id,
        address,
        displayName: "Bare wallet",
        visibility: "PRIVATE",
        version: 1,
        publishedAt: null,
        followerCount: "0",
        ownedByViewer: true
      })
      expectProblem(yield* call("GET", publicPath("base", address)), 404, "wallet-profile-not-found")
      // a second creation, or a replace without the version: 409
      expectProblem(yield* call("PUT", configPath("ownerBare"), { session: owner, body: configuration }), 409, "version-conflict")
      expectProblem(
        yield* call("PUT", configPath("ownerBare"), { session: owner, body: { ...configuration, expectedVersion: 7 } }),
        409,
        "version-conflict"
      )

      server.clock.advance(60_000)
      const published = yield* call("PUT", configPath("ownerBare"), {
        session: owner,
        body: { ...configuration, visibility: "PUBLIC", bio: "Now public.", expectedVersion: 1 }
      })
      expect(published.status, published.text).toBe(200)
      const publishedAt = new Date(TestEpoch.getTime() + 60_000).toISOString()
      expect(published.body.data).toMatchObject({ visibility: "PUBLIC", version: 2, publishedAt, bio: "Now public." })

      const anonymous = yield* call("GET", publicPath("eip155:8453", address))
      expect(anonymous.status, anonymous.text).toBe(200)
      expect(anonymous.body.data).toMatchObject({ publicId: published.body.data.publicId, following: false, ownedByViewer: false })
      const byKey = yield* call("GET", publicPath("base", address), { session: owner })
      expect(byKey.body.data).toMatchObject({ ownedByViewer: true, following: false })

      // back to PRIVATE: publishedAt is kept, the public read is gone
      server.clock.advance(60_000)
      const hidden = yield* call("PUT", configPath("ownerBare"), {
        session: owner,
        body: { ...configuration, expectedVersion: 2 }
      })
      expect(hidden.body.data).toMatchObject({ visibility: "PRIVATE", version: 3, publishedAt })
      expectProblem(yield* call("GET", publicPath("base", address)), 404, "wallet-profile-not-found")
      // another account's wallet: 404
      expectProblem(yield* call("PUT", configPath("outsider"), { session: owner, body: configuration }), 404, "wallet-not-found")
    }))

  it.effect("follow twice → followerCount moves once; concurrent follows count once; unfollow; own and PRIVATE refused", () =>
    Effect.gen(function*() {
      const address = DemoWallets.ownerBase.address // PUBLIC, followed by member and outsider in the demo
      const admin = yield* signIn("admin")
      const before = yield* call("GET", publicPath("base", address))
      expect(before.body.data.followerCount).toBe("2")

      const first = yield* call("PUT", `${publicPath("base", address)}/follow`, { session: admin })
      expect(first.status, first.text).toBe(200)
      expect(first.body.data).toMatchObject({ followerCount: "3", following: true, ownedByViewer: false })
      const second = yield* call("PUT", `${publicPath("base", address)}/follow`, { session: admin })
      expect(second.body.data).toMatchObject({ followerCount: "3", following: true })

      // the outsider already follows: 8 concurrent follows, one per-request key, count unchanged
      const outsider = yield* signIn("outsider")
      const concurrent = yield* Effect.all(
        Array.from({ length: 8 }, () => call("PUT", `${publicPath("eip155:8453", address.toUpperCase().replace("0X", "0x"))}/follow`, { session: outsider })),
        { concurrency: "unbounded" }
      )
      for (const reply of concurrent) expect(reply.status, reply.text).toBe(200)
      expect((yield* call("GET", publicPath("base", address))).body.data.followerCount).toBe("3")

      // the outsider unfollows (twice: the second changes nothing), then 8 concurrent follows count once
      const left = yield* call("DELETE", `${publicPath("base", address)}/follow`, { session: outsider })
      expect(left.body.data).toMatchObject({ followerCount: "2", following: false })
      const again = yield* call("DELETE", `${publicPath("base", address)}/follow`, { session: outsider })
      expect(again.body.data).toMatchObject({ followerCount: "2", following: false })
      const racing = yield* Effect.all(
        Array.from({ length: 8 }, () => call("PUT", `${publicPath("base", address)}/follow`, { session: outsider })),
        { concurrency: "unbounded" }
      )
      for (const reply of racing) expect(reply.status, reply.text).toBe(200)
      const after = yield* call("GET", publicPath("base", address), { session: outsider })
      expect(after.body.data).toMatchObject({ followerCount: "3", following: true })

      const owner = yield* signIn("owner")
      expectProblem(yield* call("PUT", `${publicPath("base", address)}/follow`, { session: owner }), 409, "own-wallet-profile")
      // the owner's PRIVATE Solana profile
      const solana = DemoWallets.ownerSolana.address
      expectProblem(yield* call("PUT", `${publicPath("solana", solana)}/follow`, { session: admin }), 404, "wallet-profile-not-found")
      expectProblem(yield* call("DELETE", `${publicPath("solana", solana)}/follow`, { session: admin }), 404, "wallet-profile-not-found")
      expectProblem(yield* call("PUT", `${publicPath("base", address)}/follow`), 401, "unauthenticated")
    }))
})
