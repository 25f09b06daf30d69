/** A failed start prints one line: a busy port names the port and PORT; no stack. */
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { createServer } from "node:http"
import { startupFailureLine } from "../../src/startup.js"
import { fakeDatabase } from "../support/FakeDatabase.js"

describe("start-up failure", () => {
  it.live("a busy port: one line naming the port and the PORT variable", () =>
    Effect.gen(function*() {
      const port = yield* fakeDatabase("silent")
      const exit = yield* Layer.build(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" })).pipe(
        Effect.scoped,
        Effect.exit
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const line = startupFailureLine(exit.cause)
        expect(line).toBe(
          `Cannot start: port ${port} on 127.0.0.1 is already in use; set PORT to a free port (e.g. PORT=3001 npm start).`
        )
      }
    }).pipe(Effect.scoped))
})
