/**
 * The confirmation step of two-step admin commands (spec §4.2 `dryRun` + `confirmation`):
 * a preview shows the text to echo, and applying needs exactly that text in the body's
 * `confirmation`. One check, so every such command refuses alike.
 */
import { Effect } from "effect"
import { BadRequest } from "../../schema/problem.js"

const problem = (kind: "confirmation-required" | "confirmation-mismatch", detail: string) =>
  new BadRequest({ kind, detail: `confirmation ${detail}.`, errors: [{ in: "body", pointer: "/confirmation", detail }] })

/**
 * Succeeds when `given` is exactly `expected`. Fails with `BadRequest`
 * `confirmation-required` (absent) or `confirmation-mismatch` (other text), pointing
 * at `/confirmation`; `expectedIs` words what the text is (e.g. "the source's code"),
 * never the text itself.
 */
export const requireConfirmation = (given: string | undefined, expected: string, expectedIs: string): Effect.Effect<void, BadRequest> =>
  given === undefined
    ? Effect.fail(problem("confirmation-required", `is required when dryRun is false (${expectedIs})`))
    : given !== expected
    ? Effect.fail(problem("confirmation-mismatch", `must be ${expectedIs}`))
    : Effect.void
