/**
 * The strength rule of passwords chosen over the API (sign-up, password reset): a
 * zxcvbn estimate (`@zxcvbn-ts/core` with the common and English dictionaries) of at
 * least {@link MinimumScore} of 4, with the account's email and display name as user
 * inputs (a password built from them is weak). Lengths are the request schema's.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core"
import * as common from "@zxcvbn-ts/language-common"
import * as en from "@zxcvbn-ts/language-en"
import { Effect } from "effect"
import { InvalidRequest } from "../../../schema/errors.js"

/** The lowest zxcvbn score (0-4) a password may have. */
export const MinimumScore = 3

// built once: the dictionaries are large
let estimator: ZxcvbnFactory | undefined
const zxcvbn = () =>
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations
  })

/** The rule a weak password breaks, as problems word it. */
export const StrengthRule = `must be strong enough: a zxcvbn strength score of at least ${MinimumScore} of 4 ` +
  "(avoid common words, names, dates, sequences, and parts of your email or display name)"

/**
 * Succeeds when `password` scores at least {@link MinimumScore}; else fails with
 * `InvalidRequest` (400) naming the field `password` and the rule, never the value.
 * `userInputs`: the email and display name (and the email's local part is added).
 */
export const requireStrongPassword = (password: string, userInputs: ReadonlyArray<string>) =>
  Effect.suspend(() => {
    const inputs = userInputs.flatMap((i) => i.includes("@") ? [i, i.split("@")[0]!] : [i])
    const { score } = zxcvbn().check(password, inputs)
    return score >= MinimumScore ? Effect.void : Effect.fail(
      new InvalidRequest({
        detail: "The password is too weak.",
        errors: [{ in: "body", pointer: "/password", detail: StrengthRule }]
      })
    )
  })
