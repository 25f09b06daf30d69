/**
 * The wallets area's check of every intent the platform would sign (layers/TransactionIntents.ts
 * `IntentPolicy`): the sending wallet's latest COMPLETE policy (spec §2.8).
 *
 * The sending wallet is the wallet whose address is the intent's `from` (without case) on the
 * intent's network (CAIP-2). Its latest COMPLETE policy (by `completedAt`) applies; its rules are
 * checked by ./Rules.ts, the day's units summed over the wallet's intents SUBMITTED, OBSERVED or
 * CONFIRMED in the last 24 hours (by submission, else creation time). A sender that is no wallet,
 * or a wallet without a COMPLETE policy, is not restricted.
 */
import { Effect, Layer, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { IntentPolicy } from "../../../layers/TransactionIntents.js"
import { PolicyViolation } from "../../../schema/errors.js"
import type { TransactionIntent } from "../../../schema/transactionIntents.js"
import { WalletPoliciesRepo } from "./Repo.js"
import { breach, unitsOf } from "./Rules.js"

const DayMs = 24 * 3600 * 1000

/**
 * Checks `intent` against its sender's policy. Fails with `PolicyViolation` naming the rule; dies on a
 * storage failure. Requires `SqlClient` (the caller's transaction).
 */
export const checkIntent = (intent: TransactionIntent) =>
  Effect.gen(function*() {
    const repo = yield* WalletPoliciesRepo
    const policy = yield* repo.enforcedPolicy({ network: intent.network, from: intent.from })
    if (Option.isNone(policy)) return
    const rules = policy.value.rules
    const dayUnits = rules.perDayLimit == null ? 0n : yield* Effect.map(
      Effect.flatMap(now, (at) =>
        repo.recentIntents({ network: intent.network, from: intent.from, since: new Date(at.getTime() - DayMs), exceptId: intent.id })),
      (rows) => rows.reduce((sum, row) => sum + unitsOf({ data: row.data, value: BigInt(row.value) }), 0n)
    )
    const refused = breach(rules, { network: intent.network, to: intent.to, data: intent.data, value: intent.value }, dayUnits)
    if (refused !== undefined) return yield* new PolicyViolation({ detail: refused.detail })
  }).pipe(
    Effect.catchTag("SqlError", Effect.die),
    Effect.catchTag("ParseError", Effect.die),
    Effect.provide(WalletPoliciesRepo.Default)
  )

/** Wallet policies enforced on the platform's signatures (provided by the root). */
export const IntentPolicyLive = Layer.succeed(IntentPolicy, { check: checkIntent })
