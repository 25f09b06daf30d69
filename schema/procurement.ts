/** Procurement area (spec §2.6, §4.3): procurement intents of an agent. */
import { Schema } from "effect"
import { DateTimeZ, rule, Units, Uuid } from "./common.js"

/** The payment instrument a provider issued for an intent (spec §2.6); `state` is an open string. */
export const ProcurementInstrument = Schema.Struct({
  publicId: Uuid,
  state: Schema.String,
  last4: Schema.NullOr(Schema.String),
  expiresAt: DateTimeZ
}).annotations({ identifier: "ProcurementInstrument" })
export type ProcurementInstrument = typeof ProcurementInstrument.Type

/** Where the buyer completes a step the provider needs (spec §2.6). */
export const ProcurementContinuation = Schema.Struct({
  publicId: Uuid,
  actionUrl: Schema.String.annotations({ jsonSchema: { format: "uri" } }),
  expiresAt: DateTimeZ
}).annotations({ identifier: "ProcurementContinuation" })
export type ProcurementContinuation = typeof ProcurementContinuation.Type

/** Procurement intent (spec §2.6); `state` is an open string (spec §3), `amountMinor` minor units of `currency`. */
export const ProcurementIntent = Schema.Struct({
  publicId: Uuid,
  state: Schema.String,
  amountMinor: Units,
  currency: Schema.String,
  purpose: Schema.String,
  merchant: Schema.NullOr(Schema.String),
  merchantUrl: Schema.NullOr(Schema.String),
  expiresAt: DateTimeZ,
  policyVersion: Schema.Int,
  provider: Schema.String,
  providerRequestId: Schema.NullOr(Schema.String),
  instrument: Schema.NullOr(ProcurementInstrument),
  continuation: Schema.NullOr(ProcurementContinuation),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "ProcurementIntent" })
export type ProcurementIntent = typeof ProcurementIntent.Type

/**
 * Body of Procurement_ResumeProcurementIntent (spec §4.3): the empty object, nothing
 * else. A record whose values are never, because an empty Struct also accepts arrays,
 * numbers and strings; every member is a 400 at its own pointer.
 */
export const ResumeProcurementIntentRequest = Schema.Record({
  key: Schema.String,
  value: Schema.Never.annotations(rule("is not allowed: the body is the empty object {}"))
}).annotations({ identifier: "ResumeProcurementIntentRequest" })
