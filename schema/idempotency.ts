/** Idempotency-Key request header (spec §4.1; IETF draft "The Idempotency-Key HTTP Header Field"). */
import { Schema } from "effect"
import { Uuid } from "./common.js"

/** Headers of an operation that requires `Idempotency-Key` (a uuid). */
export const IdempotencyKeyRequired = Schema.Struct({
  "idempotency-key": Uuid.annotations({ description: "Idempotency-Key: a uuid chosen by the client, unique per intended operation" })
})

/** Headers of an operation where `Idempotency-Key` is optional. */
export const IdempotencyKeyOptional = Schema.Struct({
  "idempotency-key": Schema.optional(Uuid.annotations({ description: "Optional Idempotency-Key (uuid)" }))
})
