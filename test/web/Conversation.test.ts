/**
 * A person in Chromium signs in as the demo owner by keyboard on the sign-in page, opens a
 * conversation with the demo's configured agent from its page, asks it for a tool call that
 * needs approval (the deterministic runtime's `/tool` directive), sees Approve and Deny, approves,
 * and reads the answer streamed over Server-Sent Events; the tool ran once. axe finds no serious
 * violation on the sign-in and conversation pages.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { IdsSequence } from "../../layers/Ids.js"
import { ensureBuiltinTools } from "../../src/runtime/tools/BuiltinTools.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { browser, openPage, origin, seriousViolations, step } from "./support.js"

const agent = DemoRuntimeAgents.configured
const server = makeTestServer({}, { edge: true })

/** The agent's built-in tools, `directory.get_agent` granted APPROVAL_REQUIRED. */
const grantWithApproval = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* ensureBuiltinTools(agent, TestEpoch)
  yield* sql`UPDATE agent_runtime_configs SET tool_grants = ${JSON.stringify({ "directory.get_agent": "APPROVAL_REQUIRED" })}::jsonb
             WHERE agent_id = ${agent}`
}).pipe(Effect.provide(IdsSequence("000000ac")), Effect.orDie)

layer(server.layer, { timeout: 180_000 })("a conversation in Chromium", (it) => {
  it.scoped("sign in by keyboard, talk to an agent, approve its tool call, read the streamed answer", () =>
    Effect.gen(function*() {
      yield* grantWithApproval
      // the browser keeps the session cookie until its `expires`, read on the browser's clock: the
      // server's clock is brought to the present
      server.clock.advance(Date.now() - TestEpoch.getTime())
      const base = yield* origin
      const b = yield* browser
      const { page, messages } = yield* openPage(b)

      // the agent's page sends a signed-out person to sign in, and back
      yield* Effect.promise(() => page.goto(`${base}/agents/${agent}`))
      yield* step(page, "agent", Effect.promise(() => page.getByRole("link", { name: "Talk to this agent" }).click()))
      yield* step(page, "signed-out", Effect.promise(() => page.getByRole("link", { name: "Sign in", exact: true }).last().click()))
      yield* step(page, "sign-in", Effect.promise(() => page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()))
      expect(yield* seriousViolations(page)).toEqual([])

      // keyboard only: the email field, the password field, Enter
      yield* Effect.promise(() => page.getByLabel("Email").focus())
      yield* Effect.promise(() => page.keyboard.type(DemoAccounts.owner.email))
      yield* Effect.promise(() => page.keyboard.press("Tab"))
      yield* Effect.promise(() => page.keyboard.type(DemoAccounts.owner.password))
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      yield* step(page, "signed-in", Effect.promise(() => page.waitForURL(`${base}/agents/${agent}/conversation`)))
      yield* step(page, "conversation", Effect.promise(() => page.getByRole("heading", { level: 1, name: /^Talk to / }).waitFor()))
      yield* step(page, "signed-in-header", Effect.promise(() => page.getByText(DemoAccounts.owner.email).waitFor()))

      // a message asking for the tool: the run waits for a decision, shown with Approve and Deny
      yield* Effect.promise(() => page.getByLabel("Message").fill(`/tool directory__get_agent {"entityId":"${agent}"}`))
      yield* Effect.promise(() => page.getByRole("button", { name: "Send" }).click())
      const approve = page.getByRole("button", { name: "Approve" })
      yield* step(page, "approval", Effect.promise(() => approve.waitFor()))
      yield* Effect.promise(() => page.getByRole("group", { name: /directory/ }).getByRole("button", { name: "Deny" }).waitFor())
      expect(yield* seriousViolations(page)).toEqual([])
      yield* Effect.promise(() => approve.click())

      // the answer, streamed: the deterministic runtime quotes the tool's result
      yield* step(page, "answer", Effect.promise(() =>
        page.locator(".turn.assistant").filter({ hasText: "got directory__get_agent" }).waitFor({ timeout: 60_000 })))
      const sql = yield* SqlClient.SqlClient
      const calls = yield* sql<{ state: string; approval_state: string }>`SELECT tc.state, tc.approval_state FROM run_tool_calls tc
        JOIN runs r ON r.id = tc.run_id JOIN conversations c ON c.id = r.conversation_id
        WHERE c.agent_id = ${agent} AND c.kind = 'CHAT' AND c.account_id = ${DemoAccounts.owner.id}
          AND c.created_at >= ${TestEpoch}`
      expect(calls).toEqual([expect.objectContaining({ state: "SUCCEEDED", approval_state: "APPROVED" })])
      expect(messages.filter((m) => /^error|pageerror|Refused/.test(m))).toEqual([])
    }), 240_000)
})
