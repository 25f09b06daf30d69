/**
 * The confirmation step of two-step admin commands (spec §4.2 `dryRun` + `confirmation`):
 * a preview shows the text to echo, and applying needs exactly that text in the body's
 * `confirmation`. One check, so every such command refuses alike.
 */
import { Effect } from "effect"
import { ConfirmationMismatch, ConfirmationRequired } from "../../schema/errors.js"

const problem = <C extends typeof ConfirmationRequired | typeof ConfirmationMismatch>(Cause: C, detail: string): InstanceType<C> =>
  new Cause({ detail: `confirmation ${detail}.`, errors: [{ in: "body", pointer: "/confirmation", detail }] }) as InstanceType<C>

/**
 * Succeeds when `given` is exactly `expected`. Fails with
 * `ConfirmationRequired` (absent) or `ConfirmationMismatch` (other text), both 400, pointing
 * at `/confirmation`; `expectedIs` words what the text is (e.g. "the source's code"),
 * never the text itself.
 */
export const requireConfirmation = (given: string | undefined, expected: string, expectedIs: string): Effect.Effect<void, ConfirmationRequired | ConfirmationMismatch> =>
  given === undefined
    ? Effect.fail(problem(ConfirmationRequired, `is required when dryRun is false (${expectedIs})`))
    : given !== expected
    ? Effect.fail(problem(ConfirmationMismatch, `must be ${expectedIs}`))
    : Effect.void
