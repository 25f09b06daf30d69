/** GET /api/v1/me (Accounts_GetMe, spec §9): the signed-in account, its workspaces and roles. */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Me } from "../../schema/accounts.js"
import { Data } from "../../schema/envelope.js"
import { call, expectMeta, expectProblem, signIn } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoMemberships, DemoWorkspaces } from "../../demo/workspaces/seed.js"

const server = makeTestServer()
const decode = Schema.decodeUnknownSync(Data(Me), { onExcessProperty: "error" })

layer(server.layer)("Accounts_GetMe", (it) => {
  it.effect("returns the owner with each workspace and role, default first", () =>
    Effect.gen(function*() {
      const session = yield* signIn("owner")
      const reply = yield* call("GET", "/api/v1/me", { session })
      expect(reply.status, reply.text).toBe(200)
      expectMeta(reply)
      expect(reply.headers["cache-control"]).toBe("private, no-cache")
      const owner = DemoAccounts.owner
      const workspaces = DemoMemberships.filter(([, a]) => a === "owner")
        .map(([w, , role, isOwner, isDefault]) => ({
          publicId: DemoWorkspaces[w].id,
          name: DemoWorkspaces[w].name,
          slug: DemoWorkspaces[w].slug,
          role,
          isWorkspaceOwner: isOwner,
          isDefault
        }))
        .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name))
      expect(decode(reply.body).data).toEqual({
        publicId: owner.id,
        email: owner.email,
        displayName: owner.displayName,
        isAdmin: false,
        workspaces
      })
      expect(workspaces.map((w) => w.slug)).toEqual(["acme-agents", "frozen-holdings"])
    }))

  it.effect("shows the admin flag and a non-owner role", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/api/v1/me", { session: yield* signIn("admin") })
      expect(reply.body.data).toMatchObject({ isAdmin: true, workspaces: [{ slug: "acme-agents", role: "VIEWER", isWorkspaceOwner: false }] })
    }))

  it.effect("refuses an anonymous caller with 401", () =>
    Effect.gen(function*() {
      expectProblem(yield* call("GET", "/api/v1/me"), 401)
    }))
})
