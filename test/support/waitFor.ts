/**
 * The one polling helper of the tests: re-runs a check, in real time, until it holds.
 *
 * Contract: `check` holds when it succeeds with a value other than `undefined`; that
 * value is the answer. A check that succeeds with `undefined`, fails or dies (a failed
 * `expect` included) has not held yet and is run again `everyMs` later. After
 * `timeoutMs` the wait dies with `what`, `describe()` and the last failure (or "no
 * value yet" when the last run answered `undefined`). Interruption is not retried.
 */
import { Cause, Effect } from "effect"

/** How long the summary of the last failure may be in the timeout message. */
const MaxFailureChars = 2000

const summary = <E>(cause: Cause.Cause<E>) => {
  const text = Cause.pretty(cause)
  return text.length > MaxFailureChars ? `${text.slice(0, MaxFailureChars)}…` : text
}

/**
 * Waits (real time, at most `timeoutMs`, polling every `everyMs`) until `check` holds
 * (see the module docstring); returns its value.
 */
export const waitFor = <A, E, R>(
  what: string,
  check: Effect.Effect<A | undefined, E, R>,
  timeoutMs: number,
  everyMs = 100,
  describe: () => string = () => ""
): Effect.Effect<A, never, R> =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const exit = yield* Effect.exit(check)
      if (exit._tag === "Success" && exit.value !== undefined) return exit.value
      if (exit._tag === "Failure" && Cause.isInterruptedOnly(exit.cause)) return yield* Effect.failCause(exit.cause as Cause.Cause<never>)
      if (Date.now() > deadline) {
        const last = exit._tag === "Success" ? "no value yet" : summary(exit.cause)
        return yield* Effect.dieMessage(`timed out after ${timeoutMs} ms waiting for ${what}${describe()}; last: ${last}`)
      }
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, everyMs)))
    }
  })

/**
 * `check`'s value when it satisfies `done`; otherwise a failure naming the value
 * (`show`, default JSON): turns a reading into a `waitFor` check that reports what it
 * last read.
 */
export const until = <A, E, R>(
  check: Effect.Effect<A, E, R>,
  done: (value: A) => boolean,
  show: (value: A) => string = (value) => JSON.stringify(value)
): Effect.Effect<A, E | string, R> =>
  Effect.filterOrFail(check, done, (value) => show(value))
